//! Password hashing is bounded: sixty-four registrations at once (each hash needs
//! 19 MiB) keep the server process under 150 MB, measured from the outside on the
//! real binary, on both databases.

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::json;

/// The server binary, running until dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    async fn start(database_url: &str, dir: &std::path::Path) -> Server {
        let port = free_port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_ferroshop"))
            .args(["serve", "--bind", &addr, "--database", database_url])
            .env("FERROSHOP_CONFIG", dir.join("none.toml"))
            .env("FERROSHOP_WEB_DIR", dir)
            // Each registration below comes from a client of its own, as behind a proxy.
            .env("FERROSHOP_TRUST_PROXY", "yes")
            .env("FERROSHOP_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .expect("the server starts");
        let server = Server { child, addr };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let up = reqwest::get(format!("http://{}/healthz", server.addr)).await;
            if up.is_ok_and(|r| r.status() == 200) {
                return server;
            }
            assert!(Instant::now() < deadline, "the server did not come up");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// A line of /proc/PID/status, in kB.
    fn status_kb(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{field}:")))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    }
}

async fn sixty_four_registrations_at_once_stay_under_150_mb(backend: Backend) {
    let dir = std::env::temp_dir().join(format!(
        "ferroshop-memory-{backend:?}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("none.toml"), "").unwrap();
    let database_url = match backend {
        Backend::Sqlite => format!("sqlite://{}/shop.db", dir.display()),
        Backend::Postgres => {
            let Ok(base) = std::env::var("FERROSHOP_TEST_POSTGRES_URL") else {
                return;
            };
            let schema = format!("memory_{}", std::process::id());
            let admin = store::Db::connect(&base).await.unwrap();
            sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
                .execute(admin.writer())
                .await
                .unwrap();
            sqlx::query(&format!("CREATE SCHEMA {schema}"))
                .execute(admin.writer())
                .await
                .unwrap();
            admin.close().await;
            let sep = if base.contains('?') { '&' } else { '?' };
            format!("{base}{sep}options=-c%20search_path%3D{schema}")
        }
    };
    let server = Server::start(&database_url, &dir).await;
    let client = reqwest::Client::new();
    let token = client
        .get(format!("http://{}/wp-json/wc/store/v1/cart", server.addr))
        .send()
        .await
        .unwrap()
        .headers()["cart-token"]
        .to_str()
        .unwrap()
        .to_string();
    let before_kb = server.status_kb("VmRSS");
    let tasks: Vec<_> = (0..64)
        .map(|i| {
            let req = client
                .post(format!(
                    "http://{}/wp-json/ferroshop/v1/account/register",
                    server.addr
                ))
                .header("Cart-Token", &token)
                .header("X-Forwarded-For", format!("10.0.{}.{}", i / 250, i % 250 + 1))
                .json(&json!({"email": format!("shopper{i}@example.test"), "password": "correct horse 1"}));
            tokio::spawn(async move { req.send().await.unwrap().status().as_u16() })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap(), 201);
    }
    let peak_kb = server.status_kb("VmHWM");
    let after_kb = server.status_kb("VmRSS");
    eprintln!("RSS before {before_kb} kB, peak {peak_kb} kB, after {after_kb} kB");
    assert!(peak_kb < 150 * 1024, "peak {peak_kb} kB");
    assert!(after_kb < 150 * 1024, "after {after_kb} kB");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

on_both_databases!(sixty_four_registrations_at_once_stay_under_150_mb);
