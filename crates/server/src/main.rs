//! The `ferroshop` command: `serve` runs the shop, `migrate` prepares its database,
//! `orders` and `api-keys` are the shop owner's commands (`staff::cli`), `products`
//! moves the catalogue in and out as the original shop's product CSV.

use std::process::ExitCode;

use ferroshop::catalog::csv::{self as products, ImportError};
use ferroshop::config::{parse_bind, Config, LogFormat};
use ferroshop::staff::cli::{self, CliError};
use store::Db;

fn usage() -> String {
    format!(
        "\
Usage:
  ferroshop serve [--bind ADDR] [--database URL] [--demo]
  ferroshop migrate [--database URL]
  ferroshop products import FILE.csv [--database URL]
  ferroshop products export [FILE.csv] [--database URL]
  ferroshop products add-image FILE [--alt TEXT] [--database URL]
  ferroshop payments check
{staff}

Options:
  --bind ADDR      address to listen on (env FERROSHOP_BIND, default 127.0.0.1:8080)
  --database URL   sqlite://PATH or postgres://… (env FERROSHOP_DATABASE_URL,
                   default sqlite://data/ferroshop.db); every command takes it
  --demo           load the demo catalogue when the shop has no products

Orders and API keys:
  orders list          newest first; --status takes one or more of pending, processing,
                       on-hold, completed, cancelled, refunded, failed (or any);
                       --per-page 1 to 100, default 20
  orders show          addresses, lines, totals, payment and every note
  orders set-status    processing (payment received), completed, cancelled or
                       refunded; the note is kept with the change, customer mails
                       are queued and sent by the running shop
  orders refund        AMOUNT (all that is left when left out) back through the card
                       provider when the order was paid there, else recorded as
                       refunded by hand; the refunds reaching the total refund the order
  api-keys create      prints the consumer key and secret once; permissions default
                       to read

Payments:
  payments check       asks the card provider whether the keys work, and says what
                       is missing for webhooks (the endpoint address, its secret)

Products:
  products import      reads the original shop's product CSV; a row whose ID or SKU
                       names a product updates it, others are created. Every problem
                       is listed with its line and column, and then nothing is written
  products export      writes every product and variation in that same CSV, to FILE
                       or to the standard output
  products add-image   stores a JPEG, PNG or WebP photograph (up to 20 MiB and 40
                       megapixels) and prints the name the CSV's Images column gives
                       it; pages then get WebP copies sized for each screen

Exit status: 0 done, 1 refused or failed, 2 a mistake in the command line.
Other settings come from ferroshop.toml and FERROSHOP_* variables (see README).",
        staff = cli::USAGE
    )
}

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

fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            eprintln!("ferroshop: cannot start the runtime: {e}");
            ExitCode::FAILURE
        })
}

/// `ferroshop orders …` and `ferroshop api-keys …`: the same configuration as `serve`,
/// straight to the database. Output on stdout, one line on stderr when it goes wrong.
fn staff_command(args: &[String]) -> ExitCode {
    let (command, database) = match cli::parse(args) {
        Ok(parsed) => parsed,
        Err(CliError::Usage(e) | CliError::Failed(e)) => {
            eprintln!("ferroshop: {e} (see ferroshop help)");
            return ExitCode::from(2);
        }
    };
    let mut config = match command_config(database) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // Log lines would mix with the command's output: only problems, on stderr.
    let filter = tracing_subscriber::EnvFilter::try_from_env("FERROSHOP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    // The payment methods' wording goes into the mails a status change sends.
    let shop_name = config.shop_name.clone();
    let _ = config.checkout.offer_payments(&shop_name);
    let runtime = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let result = runtime.block_on(async {
        let db = Db::connect(&config.database_url)
            .await
            .map_err(|e| CliError::Failed(e.to_string()))?;
        db.migrate()
            .await
            .map_err(|e| CliError::Failed(e.to_string()))?;
        let result = cli::run(&command, &config, &db, rules::clock::now()).await;
        db.close().await;
        result
    });
    match result {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(CliError::Usage(e)) => {
            eprintln!("ferroshop: {e} (see ferroshop help)");
            ExitCode::from(2)
        }
        Err(CliError::Failed(e)) => {
            eprintln!("ferroshop: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `ferroshop products import FILE`, `ferroshop products export [FILE]` and
/// `ferroshop products add-image FILE [--alt TEXT]`.
fn products_command(args: &[String]) -> ExitCode {
    let mut words = Vec::new();
    let mut database = None;
    let mut alt = String::new();
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.split_once('=') {
            Some(("--database", v)) => database = Some(v.to_string()),
            Some(("--alt", v)) => alt = v.to_string(),
            _ if a == "--database" || a == "--alt" => match it.next() {
                Some(v) if a == "--alt" => alt = v.clone(),
                Some(v) => database = Some(v.clone()),
                None => {
                    eprintln!("ferroshop: {a} needs a value (see ferroshop help)");
                    return ExitCode::from(2);
                }
            },
            _ if a.starts_with("--") => {
                eprintln!("ferroshop: unknown option {a} (see ferroshop help)");
                return ExitCode::from(2);
            }
            _ => words.push(a.as_str()),
        }
    }
    let (import, file) = match words.as_slice() {
        ["import", file] => (true, Some(std::path::PathBuf::from(file))),
        ["export"] => (false, None),
        ["export", file] => (false, Some(std::path::PathBuf::from(file))),
        ["add-image", file] => return add_image_command(file, &alt, database),
        _ => {
            eprintln!(
                "ferroshop: products import FILE.csv, products export [FILE.csv] or products add-image FILE (see ferroshop help)"
            );
            return ExitCode::from(2);
        }
    };
    let config = match command_config(database) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("FERROSHOP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let runtime = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let result = runtime.block_on(async {
        let db = Db::connect(&config.database_url)
            .await
            .map_err(|e| ImportError::Failed(e.to_string()))?;
        db.migrate()
            .await
            .map_err(|e| ImportError::Failed(e.to_string()))?;
        let result = if import {
            let path = file.unwrap_or_default();
            products::import(&db, &path, &config.currency, rules::clock::now())
                .await
                .map(|report| {
                    for w in &report.warnings {
                        eprintln!("warning: {w}");
                    }
                    format!(
                        "{} products created, {} updated\n",
                        report.created, report.updated
                    )
                })
        } else {
            let base = config.address(config.bind).default_base();
            let written = match &file {
                Some(path) => match std::fs::File::create(path) {
                    Ok(f) => {
                        products::export(
                            &db,
                            std::io::BufWriter::new(f),
                            &config.currency,
                            base.as_str(),
                        )
                        .await
                    }
                    Err(e) => Err(ImportError::Failed(format!("{}: {e}", path.display()))),
                },
                None => {
                    products::export(
                        &db,
                        std::io::BufWriter::new(std::io::stdout().lock()),
                        &config.currency,
                        base.as_str(),
                    )
                    .await
                }
            };
            // The count goes to stderr: stdout may be the file itself.
            written.map(|n| {
                eprintln!("{n} rows exported");
                String::new()
            })
        };
        db.close().await;
        result
    });
    match result {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(ImportError::Invalid(problems)) => {
            for p in &problems {
                eprintln!("{p}");
            }
            eprintln!(
                "ferroshop: {} problem(s) in the file; nothing was imported",
                problems.len()
            );
            ExitCode::FAILURE
        }
        Err(ImportError::Failed(e)) => {
            eprintln!("ferroshop: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The settings a one-off command runs with: the shop's, with `--database` applied.
fn command_config(database: Option<String>) -> Result<Config, ExitCode> {
    let mut config = Config::load().map_err(|e| {
        eprintln!("ferroshop: {e}");
        ExitCode::from(2)
    })?;
    if let Some(d) = database {
        config.database_url = d;
    }
    Ok(config)
}

/// `ferroshop products add-image FILE [--alt TEXT]`.
fn add_image_command(file: &str, alt: &str, database: Option<String>) -> ExitCode {
    let config = match command_config(database) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let runtime = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let result = runtime.block_on(async {
        let db = Db::connect(&config.database_url)
            .await
            .map_err(|e| e.to_string())?;
        db.migrate().await.map_err(|e| e.to_string())?;
        let added =
            ferroshop::catalog::images::add_image(&db, std::path::Path::new(file), alt).await;
        db.close().await;
        added
    });
    match result {
        Ok(m) => {
            println!(
                "{} ({}×{}, {}): name it in the products CSV's Images column",
                m.file_name, m.width, m.height, m.mime_type
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ferroshop: {e}");
            ExitCode::FAILURE
        }
    }
}

/// jemalloc rather than the system allocator: glibc gives each thread that allocates
/// an arena of its own and keeps what was freed there, so a catalogue reload or a
/// search index build left its peak behind for good (375 MB at 100,000 products, where
/// jemalloc, handing memory free for a second back to the system, peaks near 270 MB);
/// the cart calls run faster on it too. Its settings are in `.cargo/config.toml`.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// `ferroshop payments check`.
fn payments_command(words: &[String]) -> ExitCode {
    if words.get(1).map(String::as_str) != Some("check") || words.len() > 2 {
        eprintln!("ferroshop: usage: ferroshop payments check");
        return ExitCode::from(2);
    }
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ferroshop: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let findings = runtime.block_on(ferroshop::payments::cli::check(&config));
    let mut problems = 0;
    for finding in findings {
        match finding {
            ferroshop::payments::cli::Finding::Ok(text) => println!("ok: {text}"),
            ferroshop::payments::cli::Finding::Problem(text) => {
                problems += 1;
                println!("problem: {text}");
            }
        }
    }
    if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn main() -> ExitCode {
    let words: Vec<String> = std::env::args().skip(1).collect();
    if words.first().map(String::as_str) == Some("products") {
        return products_command(&words);
    }
    if words.first().map(String::as_str) == Some("payments") {
        return payments_command(&words);
    }
    if matches!(
        words.first().map(String::as_str),
        Some("orders" | "api-keys" | "staff")
    ) {
        return staff_command(&words);
    }
    let args = match parse_args() {
        Ok(a) if a.command == "help" || a.command == "--help" || a.command == "-h" => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Ok(a) if !matches!(a.command.as_str(), "serve" | "migrate") => {
            eprintln!(
                "ferroshop: unknown command {:?} (see ferroshop help)",
                a.command
            );
            return ExitCode::from(2);
        }
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("ferroshop: {e}\n\n{}", usage());
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
    let runtime = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let result: anyhow::Result<()> = runtime.block_on(async move {
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
            other => Err(anyhow::anyhow!("unknown command {other:?}")),
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
