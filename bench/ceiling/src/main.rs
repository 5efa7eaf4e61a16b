//! The benchmarks' ceiling: a bare axum server that answers every request, whatever
//! its method or path, with the same bytes held in memory. Run under the same load as
//! the shop, it shows what the machine, the load generator and the HTTP stack alone
//! can do with a response of that size; the shop's figures are read as a share of it.
//!
//! Usage: ceiling --bind ADDR --body FILE [--status CODE] [--content-type TYPE]

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{header, HeaderValue, Response, StatusCode};
use axum::Router;
use sqlx::{Connection, PgConnection};

const USAGE: &str = "\
Usage: ceiling --bind ADDR --body FILE [--status CODE] [--content-type TYPE] [--postgres URL]

Answers every request (any method, any path) with the bytes of FILE.
  --postgres URL       first ask PostgreSQL prepared questions that read no table, one
                       after the other: the floor of any answer that asks the database
  --questions N        how many (default 1)
  --bind ADDR          address to listen on, e.g. 127.0.0.1:8090
  --body FILE          the response body
  --status CODE        the response status (default 200)
  --content-type TYPE  the Content-Type header (default application/json; charset=UTF-8)";

struct Args {
    bind: SocketAddr,
    body: Vec<u8>,
    status: StatusCode,
    content_type: HeaderValue,
    postgres: Option<String>,
    questions: u32,
}

fn parse_args() -> Result<Args, String> {
    let mut bind = None;
    let mut body_file = None;
    let mut status = StatusCode::OK;
    let mut content_type = HeaderValue::from_static("application/json; charset=UTF-8");
    let mut postgres = None;
    let mut questions = 1;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or(format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--bind" => {
                bind = Some(
                    value()?
                        .parse::<SocketAddr>()
                        .map_err(|e| format!("--bind: {e}"))?,
                )
            }
            "--body" => body_file = Some(value()?),
            "--status" => {
                let code: u16 = value()?.parse().map_err(|e| format!("--status: {e}"))?;
                status = StatusCode::from_u16(code).map_err(|e| format!("--status: {e}"))?;
            }
            "--content-type" => {
                content_type =
                    HeaderValue::from_str(&value()?).map_err(|e| format!("--content-type: {e}"))?;
            }
            "--postgres" => postgres = Some(value()?),
            "--questions" => {
                questions = value()?.parse().map_err(|e| format!("--questions: {e}"))?
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    let bind = bind.ok_or("--bind is required")?;
    let body_file = body_file.ok_or("--body is required")?;
    let body = std::fs::read(&body_file).map_err(|e| format!("cannot read {body_file}: {e}"))?;
    Ok(Args {
        bind,
        body,
        status,
        content_type,
        postgres,
        questions,
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("ceiling: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ceiling: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ceiling: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(args: Args) -> std::io::Result<()> {
    // `Bytes` clones are reference counts: the body is never copied per request.
    let body = axum::body::Bytes::from(args.body);
    let (status, content_type) = (args.status, args.content_type);
    let questions = args.questions;
    let database = args.postgres.map(|url| Arc::new(Database::new(url)));
    let app = Router::new().fallback(move || {
        let body = body.clone();
        let content_type = content_type.clone();
        let database = database.clone();
        async move {
            if let Some(db) = database {
                for _ in 0..questions {
                    if let Err(e) = db.ask().await {
                        let mut res = Response::new(Body::from(e.to_string()));
                        *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
                        return res;
                    }
                }
            }
            let mut res = Response::new(Body::from(body));
            *res.status_mut() = status;
            res.headers_mut().insert(header::CONTENT_TYPE, content_type);
            res
        }
    });
    let listener = tokio::net::TcpListener::bind(args.bind).await?;
    println!("ceiling is answering at http://{}/", listener.local_addr()?);
    // No signal handling: SIGTERM/SIGINT end the process at once, which is all a
    // benchmark fixture needs.
    axum::serve(listener, app).await
}

/// Connections kept idle between requests, each used by one request at a time: the
/// cheapest way to ask PostgreSQL a question per request (no pool bookkeeping, no
/// test of a connection on its way in or out).
struct Database {
    url: String,
    idle: Mutex<Vec<PgConnection>>,
}

impl Database {
    fn new(url: String) -> Self {
        Database {
            url,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// One prepared statement that reads no table: a round trip and nothing else.
    async fn ask(&self) -> Result<(), sqlx::Error> {
        let taken = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut conn = match taken {
            Some(c) => c,
            None => PgConnection::connect(&self.url).await?,
        };
        let key: String = sqlx::query_scalar("SELECT $1::text")
            .bind("a-session-key")
            .fetch_one(&mut conn)
            .await?;
        debug_assert_eq!(key, "a-session-key");
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(conn);
        Ok(())
    }
}
