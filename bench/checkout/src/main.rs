//! The checkout benchmark, run against a shop that is already listening (usually
//! started by `bench/run-checkout.sh`): how many orders per second the Store API
//! checkout places for distinct carts, and the latency of update-customer under a
//! steady paced load. Progress goes to stderr; the figures go to stdout as one
//! `BENCH key=value …` line per phase, for the script to tabulate.
//!
//! Usage: checkout-bench --base-url URL [options]   (see USAGE)

mod cpu;
mod latency;
mod load;
mod shop;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use latency::{ms, Summary};
use shop::{Address, CartToken, Failure, ProductId, Shop};

const USAGE: &str = "\
Usage: checkout-bench --base-url URL [options]

  --base-url URL        the shop, e.g. http://127.0.0.1:8080
  --server-pid PID      the server's process, to report the CPU it used
  --carts N             carts checked out per run (1000)
  --concurrency LIST    checkouts in flight, one run per value (16,32)
  --setup-concurrency N requests in flight while filling carts (16)
  --rate N              update-customer requests per second (200)
  --duration SECS       length of the paced update-customer run (10)
  --warmup SECS         paced run before it, not measured (2)
  --latency-carts N     carts the paced run rotates through (100)
  --wait-quiet SECS     before each measured run, wait up to SECS for less than
                        10% of the machine's CPU to be in use (0: do not wait)
  --skip-checkout       only the update-customer run
  --skip-latency        only the checkout runs";

struct Args {
    base_url: String,
    server_pid: Option<u32>,
    carts: usize,
    concurrency: Vec<usize>,
    setup_concurrency: usize,
    rate: f64,
    duration: Duration,
    warmup: Duration,
    latency_carts: usize,
    wait_quiet: Duration,
    checkout: bool,
    latency: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        base_url: String::new(),
        server_pid: None,
        carts: 1000,
        concurrency: vec![16, 32],
        setup_concurrency: 16,
        rate: 200.0,
        duration: Duration::from_secs(10),
        warmup: Duration::from_secs(2),
        latency_carts: 100,
        wait_quiet: Duration::ZERO,
        checkout: true,
        latency: true,
    };
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
        fn number<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("{flag}: {v:?} is not a number"))
        }
        match flag.as_str() {
            "--base-url" => args.base_url = value()?,
            "--server-pid" => args.server_pid = Some(number(&flag, value()?)?),
            "--carts" => args.carts = number(&flag, value()?)?,
            "--concurrency" => {
                args.concurrency = value()?
                    .split(',')
                    .map(|c| number(&flag, c.trim().to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--setup-concurrency" => args.setup_concurrency = number(&flag, value()?)?,
            "--rate" => args.rate = number(&flag, value()?)?,
            "--duration" => args.duration = Duration::from_secs_f64(number(&flag, value()?)?),
            "--warmup" => args.warmup = Duration::from_secs_f64(number(&flag, value()?)?),
            "--latency-carts" => args.latency_carts = number(&flag, value()?)?,
            "--wait-quiet" => args.wait_quiet = Duration::from_secs(number(&flag, value()?)?),
            "--skip-checkout" => args.checkout = false,
            "--skip-latency" => args.latency = false,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if args.base_url.is_empty() {
        return Err("--base-url is required".into());
    }
    if args.carts == 0 || args.latency_carts == 0 || args.concurrency.contains(&0) {
        return Err("--carts, --latency-carts and --concurrency must be at least 1".into());
    }
    if !(args.rate > 0.0 && args.duration > Duration::ZERO) {
        return Err("--rate and --duration must be above 0".into());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("checkout-bench: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("checkout-bench: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(failed) => {
            eprintln!(
                "checkout-bench: FAILED: {failed} measured requests did not get the answer they should have"
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("checkout-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every phase; returns how many measured requests failed.
async fn run(args: Args) -> Result<usize, Failure> {
    let shop = Arc::new(Shop::new(&args.base_url)?);
    shop.wait_until_up(Duration::from_secs(30)).await?;
    let products = Arc::new(shop.unlimited_products().await?);
    if products.is_empty() {
        return Err(Failure(
            "the catalogue has no simple, purchasable product without a stock limit \
             (start the shop with --demo)"
                .into(),
        ));
    }
    println!(
        "BENCH phase=catalogue unlimited_products={}",
        products.len()
    );
    let mut failed = 0;
    if args.checkout {
        for &concurrency in &args.concurrency {
            failed += checkout_run(&args, &shop, &products, concurrency).await?;
        }
    }
    if args.latency {
        failed += update_customer_run(&args, &shop, &products).await?;
    }
    Ok(failed)
}

/// Others share the machine: measure when it is quiet, or say how busy it was.
async fn quiet(args: &Args) -> f64 {
    if args.wait_quiet.is_zero() {
        return 0.0;
    }
    cpu::wait_for_quiet(10.0, args.wait_quiet).await
}

fn email(cart: usize) -> String {
    format!("shopper-{cart}@example.com")
}

/// Fills `n` carts, each a session of its own: 1 to 3 different products, one of each,
/// and a billing address in California.
async fn fill_carts(
    shop: &Arc<Shop>,
    products: &Arc<Vec<ProductId>>,
    n: usize,
    concurrency: usize,
) -> Result<Arc<Vec<CartToken>>, Failure> {
    let (shop, products) = (Arc::clone(shop), Arc::clone(products));
    let started = std::time::Instant::now();
    let filled = load::closed_loop(n, concurrency, move |i| {
        let (shop, products) = (Arc::clone(&shop), Arc::clone(&products));
        async move {
            let cart = shop.new_cart().await?;
            let lines = (1 + i % 3).min(products.len());
            for j in 0..lines {
                shop.add_item(&cart, products[(i * 3 + j) % products.len()])
                    .await?;
            }
            shop.update_customer(&cart, &Address::CALIFORNIA.billing(&email(i)))
                .await?;
            Ok(cart)
        }
    })
    .await;
    if let Some(e) = filled.failures().next() {
        return Err(Failure(format!("filling the carts: {e}")));
    }
    eprintln!(
        "checkout-bench: filled {n} carts in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(Arc::new(
        filled
            .results
            .into_iter()
            .map(|r| r.expect("checked"))
            .collect(),
    ))
}

/// Checks out `args.carts` freshly filled carts with `concurrency` checkouts in flight.
async fn checkout_run(
    args: &Args,
    shop: &Arc<Shop>,
    products: &Arc<Vec<ProductId>>,
    concurrency: usize,
) -> Result<usize, Failure> {
    eprintln!(
        "checkout-bench: filling {} carts for the checkout run at concurrency {concurrency}",
        args.carts
    );
    let carts = fill_carts(shop, products, args.carts, args.setup_concurrency).await?;
    // Let the writes of the set-up settle (SQLite's WAL, PostgreSQL's background work).
    tokio::time::sleep(Duration::from_secs(1)).await;
    let busy_before = quiet(args).await;
    eprintln!(
        "checkout-bench: checking out {} carts, {concurrency} at a time",
        args.carts
    );
    let shipping = Arc::new(Address::CALIFORNIA.shipping());
    let before = cpu::snapshot(args.server_pid);
    let placed = {
        let (shop, carts) = (Arc::clone(shop), Arc::clone(&carts));
        load::closed_loop(args.carts, concurrency, move |i| {
            let (shop, carts, shipping) =
                (Arc::clone(&shop), Arc::clone(&carts), Arc::clone(&shipping));
            async move {
                shop.checkout(
                    &carts[i],
                    &Address::CALIFORNIA.billing(&email(i)),
                    &shipping,
                )
                .await
            }
        })
        .await
    };
    let cpu = cpu::usage(&before, &cpu::snapshot(args.server_pid));
    let failures: Vec<&Failure> = placed.failures().collect();
    for f in failures.iter().take(5) {
        eprintln!("checkout-bench: checkout failed: {f}");
    }
    let ok = args.carts - failures.len();
    let secs = placed.elapsed.as_secs_f64();
    let lat = Summary::of(placed.durations.clone());
    let per_order_us = |s: f64| if ok > 0 { s * 1e6 / ok as f64 } else { 0.0 };
    println!(
        "BENCH phase=checkout concurrency={concurrency} carts={} placed={ok} failures={} busy_before={busy_before:.0} elapsed_s={secs:.3} \
         orders_per_s={:.1} p50_ms={} p99_ms={} max_ms={} server_us_per_order={:.0} db_us_per_order={:.0} \
         cpu_server={:.0} cpu_db={:.0} cpu_bench={:.0} cpu_irq={:.0} cpu_other={:.0}",
        args.carts,
        failures.len(),
        ok as f64 / secs,
        ms(lat.p50),
        ms(lat.p99),
        ms(lat.max),
        per_order_us(cpu.server_secs),
        per_order_us(cpu.db_secs),
        cpu.server_pct,
        cpu.db_pct,
        cpu.bench_pct,
        cpu.irq_pct,
        cpu.other_pct,
    );
    eprintln!(
        "checkout-bench: concurrency {concurrency}: {ok} orders in {secs:.2} s = {:.0} orders/s, {} failed",
        ok as f64 / secs,
        failures.len()
    );
    Ok(failures.len())
}

/// update-customer at a fixed rate over carts with items, rotating through three
/// addresses so each request changes the taxes and shipping to work out.
async fn update_customer_run(
    args: &Args,
    shop: &Arc<Shop>,
    products: &Arc<Vec<ProductId>>,
) -> Result<usize, Failure> {
    eprintln!(
        "checkout-bench: filling {} carts for update-customer",
        args.latency_carts
    );
    let carts = fill_carts(shop, products, args.latency_carts, args.setup_concurrency).await?;
    let addresses = Arc::new(
        [Address::CALIFORNIA, Address::NEW_YORK, Address::BERLIN]
            .iter()
            .enumerate()
            .map(|(k, a)| a.billing(&email(k)))
            .collect::<Vec<_>>(),
    );
    let job = {
        let (shop, carts) = (Arc::clone(shop), Arc::clone(&carts));
        move |i: usize| {
            let (shop, carts, addresses) = (
                Arc::clone(&shop),
                Arc::clone(&carts),
                Arc::clone(&addresses),
            );
            async move {
                // Each cart moves on to the next address at every visit, and
                // neighbouring carts are one address apart, so consecutive requests
                // differ too.
                let cart = i % carts.len();
                let visit = i / carts.len();
                let address = &addresses[(cart + visit) % addresses.len()];
                shop.update_customer(&carts[cart], address).await
            }
        }
    };
    let job = Arc::new(job);
    let busy_before = quiet(args).await;
    if args.warmup > Duration::ZERO {
        eprintln!(
            "checkout-bench: update-customer warm-up, {} req/s for {:.0} s",
            args.rate,
            args.warmup.as_secs_f64()
        );
        let j = Arc::clone(&job);
        load::paced(args.rate, args.warmup, move |i| j(i)).await;
    }
    eprintln!(
        "checkout-bench: update-customer at {} req/s for {:.0} s",
        args.rate,
        args.duration.as_secs_f64()
    );
    let before = cpu::snapshot(args.server_pid);
    let j = Arc::clone(&job);
    let paced = load::paced(args.rate, args.duration, move |i| j(i)).await;
    let cpu = cpu::usage(&before, &cpu::snapshot(args.server_pid));
    for f in paced.failures.iter().take(5) {
        eprintln!("checkout-bench: update-customer failed: {f}");
    }
    let due = Summary::of(paced.from_schedule);
    let sent = Summary::of(paced.from_send);
    println!(
        "BENCH phase=update-customer rate={} sent={} failures={} busy_before={busy_before:.0} got_rate={:.1} late_sends={} \
         p50_ms={} p90_ms={} p99_ms={} p999_ms={} max_ms={} send_p50_ms={} send_p99_ms={} send_max_ms={} \
         cpu_server={:.0} cpu_db={:.0} cpu_bench={:.0} cpu_irq={:.0} cpu_other={:.0}",
        args.rate,
        paced.sent,
        paced.failures.len(),
        paced.sent as f64 / paced.sending_time.as_secs_f64(),
        paced.late,
        ms(due.p50),
        ms(due.p90),
        ms(due.p99),
        ms(due.p999),
        ms(due.max),
        ms(sent.p50),
        ms(sent.p99),
        ms(sent.max),
        cpu.server_pct,
        cpu.db_pct,
        cpu.bench_pct,
        cpu.irq_pct,
        cpu.other_pct,
    );
    eprintln!(
        "checkout-bench: update-customer: p50 {} ms, p99 {} ms, max {} ms, {} failed",
        ms(due.p50),
        ms(due.p99),
        ms(due.max),
        paced.failures.len()
    );
    Ok(paced.failures.len())
}
