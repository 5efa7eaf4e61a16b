//! The provider's test double as a program, for the browser tests:
//!
//! ```text
//! ferroshop-provider-double --port 0 [--upstream http://127.0.0.1:PORT] [--exit-with-stdin]
//! ```
//!
//! Serves on 127.0.0.1 only. Its first line on stdout, once it accepts connections,
//! is `listening on http://127.0.0.1:PORT`. With `--exit-with-stdin` it exits when its
//! standard input closes (so it ends with the process that started it).

use std::io::{Read, Write};
use std::net::Ipv4Addr;
use std::process::ExitCode;

use tokio::net::TcpListener;

const USAGE: &str =
    "usage: ferroshop-provider-double [--port PORT] [--upstream URL] [--exit-with-stdin]

  --port PORT         the loopback port to serve on; 0 (the default) picks a free one
  --upstream URL      a loopback http:// URL (the provider's emulator) that calls this
                      test double does not own are forwarded to
  --exit-with-stdin   exit when standard input closes";

struct Args {
    port: u16,
    upstream: Option<String>,
    exit_with_stdin: bool,
}

impl Args {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
        let mut parsed = Args {
            port: 0,
            upstream: None,
            exit_with_stdin: false,
        };
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
                None => (arg, None),
            };
            let mut value = |name: &str| {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match name.as_str() {
                "--port" => {
                    let text = value("--port")?;
                    parsed.port = text
                        .parse()
                        .map_err(|_| format!("--port {text:?} is not a port number"))?;
                }
                "--upstream" => {
                    let url = value("--upstream")?;
                    parsed.upstream = Some(provider_double::loopback_url(&url)?);
                }
                "--exit-with-stdin" => parsed.exit_with_stdin = true,
                "-h" | "--help" => return Err(String::new()),
                other => return Err(format!("unknown argument {other:?}")),
            }
        }
        Ok(parsed)
    }
}

fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(problem) if problem.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("ferroshop-provider-double: {problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("ferroshop-provider-double: no runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ferroshop-provider-double: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> std::io::Result<()> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, args.port)).await?;
    let address = listener.local_addr()?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "listening on http://{address}")?;
    stdout.flush()?;
    if args.exit_with_stdin {
        std::thread::spawn(|| {
            // The parent going away closes our stdin: stop with it.
            let mut buffer = [0u8; 4096];
            let mut stdin = std::io::stdin();
            while matches!(stdin.read(&mut buffer), Ok(read) if read > 0) {}
            std::process::exit(0);
        });
    }
    provider_double::serve(listener, args.upstream).await
}
