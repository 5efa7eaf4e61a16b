//! The binary, as the browser tests start it.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[tokio::test]
async fn the_program_says_where_it_listens_and_ends_with_its_stdin() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferroshop-provider-double"))
        .args(["--port", "0", "--exit-with-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base_url = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .map(|port| format!("http://127.0.0.1:{port}"))
        .unwrap_or_else(|| panic!("first line: {line:?}"));
    let events = reqwest::get(format!("{base_url}/_double/events"))
        .await
        .unwrap();
    assert!(events.status().is_success());

    drop(child.stdin.take());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_upstream_off_loopback_is_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_ferroshop-provider-double"))
        .args(["--port", "0", "--upstream", "http://192.0.2.1:12111"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("loopback"));
}
