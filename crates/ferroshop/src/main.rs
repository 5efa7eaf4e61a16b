//! The `ferroshop` command: `serve` runs the shop, `migrate` prepares its database.

use std::process::ExitCode;

use ferroshop::config::{parse_bind, Config, LogFormat};
use ferroshop::store::Db;

const USAGE: &str = "\
Usage:
  ferroshop serve [--bind ADDR] [--database URL] [--demo]
  ferroshop migrate [--database URL]

Options:
  --bind ADDR      address to listen on (env FERROSHOP_BIND, default 127.0.0.1:8080)
  --database URL   sqlite://PATH or postgres://… (env FERROSHOP_DATABASE_URL,
                   default sqlite://data/ferroshop.db)
  --demo           load the demo catalogue when the shop has no products

Other settings come from ferroshop.toml and FERROSHOP_* variables (see README).";

struct Args {
    command: String,
    bind: Option<String>,
    database: Option<String>,
    demo: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let command = it.next().ok_or("a command is needed")?;
    let mut args = Args {
        command,
        bind: None,
        database: None,
        demo: false,
    };
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (a.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or(format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--bind" => args.bind = Some(value()?),
            "--database" => args.database = Some(value()?),
            "--demo" => args.demo = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(args)
}

fn init_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("FERROSHOP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) if a.command == "help" || a.command == "--help" || a.command == "-h" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("ferroshop: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut config = match Config::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ferroshop: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(b) = &args.bind {
        match parse_bind("--bind", b) {
            Ok(addr) => config.bind = addr,
            Err(e) => {
                eprintln!("ferroshop: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(d) = args.database {
        config.database_url = d;
    }
    init_logs(config.log_format);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ferroshop: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match args.command.as_str() {
            "serve" => {
                let server = ferroshop::server::start(config, args.demo).await?;
                println!("Ferroshop is open at http://{}/", server.addr);
                server.run_until_signal().await?;
                Ok(())
            }
            "migrate" => {
                let db = Db::connect(&config.database_url).await?;
                db.migrate().await?;
                db.close().await;
                println!("migrations applied");
                Ok(())
            }
            other => Err(anyhow::anyhow!("unknown command {other:?}\n\n{USAGE}")),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "stopped");
            eprintln!("ferroshop: {e:#}");
            ExitCode::FAILURE
        }
    }
}
