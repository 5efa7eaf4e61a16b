//! The two ways load is applied: a fixed number of requests in flight (closed loop,
//! for throughput), and requests sent on a fixed schedule whatever the answers (open
//! loop, for latency: a stalled server cannot slow the sending down and so hide the
//! stall).

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::shop::Failure;

/// What `closed_loop` did: each job's result and duration, by job number.
pub struct Finished<T> {
    pub elapsed: Duration,
    pub results: Vec<Result<T, Failure>>,
    pub durations: Vec<Duration>,
}

impl<T> Finished<T> {
    pub fn failures(&self) -> impl Iterator<Item = &Failure> {
        self.results.iter().filter_map(|r| r.as_ref().err())
    }
}

/// Runs `job(0)` … `job(n - 1)`, `concurrency` at a time: each of `concurrency` workers
/// takes the next job as soon as its previous one is answered.
pub async fn closed_loop<T, F, Fut>(n: usize, concurrency: usize, job: F) -> Finished<T>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T, Failure>> + Send,
{
    let job = Arc::new(job);
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let workers: Vec<_> = (0..concurrency.max(1))
        .map(|_| {
            let (job, next) = (Arc::clone(&job), Arc::clone(&next));
            tokio::spawn(async move {
                let mut done = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        return done;
                    }
                    let sent = Instant::now();
                    let result = job(i).await;
                    done.push((i, sent.elapsed(), result));
                }
            })
        })
        .collect();
    let mut all = Vec::with_capacity(n);
    for w in workers {
        all.extend(w.await.expect("a load worker panicked"));
    }
    let elapsed = start.elapsed();
    all.sort_by_key(|(i, _, _)| *i);
    let (durations, results) = all.into_iter().map(|(_, d, r)| (d, r)).unzip();
    Finished {
        elapsed,
        results,
        durations,
    }
}

/// What `paced` did.
pub struct Paced {
    pub sent: usize,
    pub failures: Vec<Failure>,
    /// From the moment each request was due to its answer: a request sent late
    /// because the machine stalled is charged for the stall.
    pub from_schedule: Vec<Duration>,
    /// From the moment each request was really handed to the client to its answer.
    pub from_send: Vec<Duration>,
    /// Requests sent more than 2 ms after they were due.
    pub late: usize,
    /// Time from the first request's due time to the last one's actual send.
    pub sending_time: Duration,
}

/// Sends `job(i)` at `rate` per second for `duration`, each on its own task, so the
/// schedule holds however long the answers take. The schedule is kept by a thread of
/// its own sleeping with the system's high-resolution timer: tokio's timer rounds
/// every wake-up to the next whole millisecond, which would add up to a millisecond
/// to every latency measured from the due time.
pub async fn paced<F, Fut>(rate: f64, duration: Duration, job: F) -> Paced
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), Failure>> + Send + 'static,
{
    let n = (rate * duration.as_secs_f64()).round() as usize;
    let interval = Duration::from_secs_f64(1.0 / rate);
    let runtime = tokio::runtime::Handle::current();
    let (tasks, late, sending_time) = tokio::task::spawn_blocking(move || {
        let start = Instant::now() + Duration::from_millis(20);
        let mut tasks = Vec::with_capacity(n);
        let mut late = 0;
        let mut last_send = start;
        for i in 0..n {
            let due = start + interval.mul_f64(i as f64);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            let sent = Instant::now();
            if sent - due > Duration::from_millis(2) {
                late += 1;
            }
            last_send = sent;
            let request = job(i);
            tasks.push(runtime.spawn(async move {
                let result = request.await;
                let answered = Instant::now();
                (answered - due, answered - sent, result)
            }));
        }
        (tasks, late, last_send - start + interval)
    })
    .await
    .expect("the pacing thread panicked");
    let mut paced = Paced {
        sent: n,
        failures: Vec::new(),
        from_schedule: Vec::with_capacity(n),
        from_send: Vec::with_capacity(n),
        late,
        sending_time,
    };
    for t in tasks {
        let (due, sent, result) = t.await.expect("a paced request panicked");
        paced.from_schedule.push(due);
        paced.from_send.push(sent);
        if let Err(e) = result {
            paced.failures.push(e);
        }
    }
    paced
}
