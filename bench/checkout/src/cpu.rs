//! Who used the CPU during a measured phase: the server, PostgreSQL, this program, the
//! kernel's interrupt handling (mostly the loopback TCP stack, which Linux charges to
//! no process) and the rest of the machine. Read from /proc, so Linux only; elsewhere
//! every figure is zero.

use std::fs;

/// Linux reports CPU time in /proc in units of USER_HZ, which is 100 on every
/// architecture it exports to user space.
const TICKS_PER_SEC: f64 = 100.0;

#[derive(Debug, Clone, Copy, Default)]
pub struct Snapshot {
    server: u64,
    db: u64,
    me: u64,
    busy: u64,
    irq: u64,
    total: u64,
}

/// CPU use over an interval, in % of one core (a 2-core machine has 200 %).
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    pub server_pct: f64,
    pub db_pct: f64,
    pub bench_pct: f64,
    pub irq_pct: f64,
    /// Everything else: other people's builds and tests.
    pub other_pct: f64,
    pub server_secs: f64,
    pub db_secs: f64,
}

pub fn snapshot(server_pid: Option<u32>) -> Snapshot {
    let (busy, irq, total) = machine_ticks();
    Snapshot {
        server: server_pid.map_or(0, |pid| process_ticks(&format!("/proc/{pid}/stat"))),
        db: database_ticks(),
        me: process_ticks("/proc/self/stat"),
        busy,
        irq,
        total,
    }
}

pub fn usage(before: &Snapshot, after: &Snapshot) -> Usage {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let d = |a: u64, b: u64| b.saturating_sub(a) as f64;
    // Ticks one core had over the interval.
    let per_core = d(before.total, after.total) / cores;
    if per_core <= 0.0 {
        return Usage::default();
    }
    let pct = |ticks: f64| 100.0 * ticks / per_core;
    let server = d(before.server, after.server);
    let db = d(before.db, after.db);
    let me = d(before.me, after.me);
    let busy = d(before.busy, after.busy);
    Usage {
        server_pct: pct(server),
        db_pct: pct(db),
        bench_pct: pct(me),
        irq_pct: pct(d(before.irq, after.irq)),
        other_pct: pct((busy - server - db - me).max(0.0)),
        server_secs: server / TICKS_PER_SEC,
        db_secs: db / TICKS_PER_SEC,
    }
}

/// Share of the whole machine's CPU time (0–100 %) in use over the next `over`.
pub fn machine_busy_pct(over: std::time::Duration) -> f64 {
    let (b0, i0, t0) = machine_ticks();
    std::thread::sleep(over);
    let (b1, i1, t1) = machine_ticks();
    let total = t1.saturating_sub(t0) as f64;
    if total <= 0.0 {
        return 0.0;
    }
    100.0 * (b1.saturating_sub(b0) + i1.saturating_sub(i0)) as f64 / total
}

/// Waits, up to `patience`, until less than `threshold` % of the machine's CPU is in
/// use (others share it). Returns the share in use when it stopped waiting.
pub async fn wait_for_quiet(threshold: f64, patience: std::time::Duration) -> f64 {
    let started = std::time::Instant::now();
    let mut said = false;
    loop {
        let busy =
            tokio::task::spawn_blocking(|| machine_busy_pct(std::time::Duration::from_secs(1)))
                .await
                .unwrap_or(0.0);
        if busy < threshold || started.elapsed() >= patience {
            if busy >= threshold {
                eprintln!(
                    "checkout-bench: warning: still {busy:.0}% of the CPU in use after {} s; measuring anyway",
                    patience.as_secs()
                );
            }
            return busy;
        }
        if !said {
            eprintln!(
                "checkout-bench: {busy:.0}% of the CPU is in use; waiting up to {} s for it to calm down",
                patience.as_secs()
            );
            said = true;
        }
    }
}

/// utime + stime of one process.
fn process_ticks(stat_path: &str) -> u64 {
    fs::read_to_string(stat_path)
        .ok()
        .and_then(|s| stat_ticks(&s).map(|(_, t)| t))
        .unwrap_or(0)
}

/// The command name and utime + stime from a /proc/PID/stat line. The name is in
/// parentheses and may itself hold spaces or parentheses, hence the last ") ".
fn stat_ticks(stat: &str) -> Option<(&str, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(") ")?;
    let fields: Vec<&str> = stat[close + 2..].split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((&stat[open + 1..close], utime + stime))
}

/// All processes named `postgres` (the PostgreSQL server and its backends). A backend
/// that exits during the interval takes its time with it; the benchmark keeps its
/// connections open, so that is rare.
fn database_ticks() -> u64 {
    let Ok(dir) = fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|s| match stat_ticks(&s) {
            Some(("postgres", t)) => Some(t),
            _ => None,
        })
        .sum()
}

/// (busy in processes, in interrupts, everything) over all CPUs, from /proc/stat.
fn machine_ticks() -> (u64, u64, u64) {
    let Ok(stat) = fs::read_to_string("/proc/stat") else {
        return (0, 0, 0);
    };
    let Some(line) = stat.lines().find(|l| l.starts_with("cpu ")) else {
        return (0, 0, 0);
    };
    let f: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    let at = |i: usize| f.get(i).copied().unwrap_or(0);
    // user nice system idle iowait irq softirq steal (guest time is inside user)
    let busy = at(0) + at(1) + at(2) + at(7);
    let irq = at(5) + at(6);
    let total = (0..8).map(at).sum();
    (busy, irq, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_stat_line_whose_name_has_spaces() {
        let line = "42 (tokio-rt (1)) S 1 42 42 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0 1 2 3";
        assert_eq!(stat_ticks(line), Some(("tokio-rt (1)", 325)));
    }
}
