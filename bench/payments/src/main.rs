//! The card payment benchmark, run against a shop that is already listening with the
//! provider's emulator behind it (usually started by `bench/run-payments.sh`): the
//! latency and throughput of the classic call that makes a payment intent for an
//! order, with a fixed number of calls in flight, and how many signed webhook events
//! per second the shop acts on, each once however often it is delivered. Progress goes
//! to stderr; the figures go to stdout as one `BENCH key=value …` line per phase, for
//! the script to tabulate.
//!
//! Usage: payments-bench --base-url URL [options]   (see USAGE)

// The measuring machinery and the Store API's catalogue calls are the checkout
// benchmark's own files, shared rather than copied; this benchmark uses only some of
// what they hold.
#[allow(dead_code)]
#[path = "../../checkout/src/cpu.rs"]
mod cpu;
#[allow(dead_code)]
#[path = "../../checkout/src/latency.rs"]
mod latency;
#[allow(dead_code)]
#[path = "../../checkout/src/load.rs"]
mod load;
#[allow(dead_code)]
#[path = "../../checkout/src/shop.rs"]
mod shop;

mod payer;
mod provider;

use std::net::Ipv4Addr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use reqwest::Client;

use latency::{ms, Summary};
use payer::{IntentId, Payer, UnpaidOrder};
use provider::Provider;
use shop::{Address, Failure, ProductId, Shop};

const USAGE: &str = "\
Usage: payments-bench --base-url URL [options]

  --base-url URL          the shop, e.g. http://127.0.0.1:8080
  --server-pid PID        the server's process, to report the CPU it used
  --emulator-pid PID      the provider emulator's process, likewise
  --orders N              orders per intent run, each paid once (300)
  --concurrency LIST      intent calls in flight, one run per value (1,4)
  --webhook-concurrency N webhook deliveries in flight (8)
  --setup-concurrency N   requests in flight while placing the orders (8)
  --webhook-secret SECRET the shop's webhook secret (whsec_bench)
  --wait-quiet SECS       before each measured run, wait up to SECS for less than
                          10% of the machine's CPU to be in use (0: do not wait)";

struct Args {
    base_url: String,
    server_pid: Option<u32>,
    emulator_pid: Option<u32>,
    orders: usize,
    concurrency: Vec<usize>,
    webhook_concurrency: usize,
    setup_concurrency: usize,
    webhook_secret: payments::WebhookSecret,
    wait_quiet: Duration,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        base_url: String::new(),
        server_pid: None,
        emulator_pid: None,
        orders: 300,
        concurrency: vec![1, 4],
        webhook_concurrency: 8,
        setup_concurrency: 8,
        webhook_secret: payments::WebhookSecret::parse("whsec_bench")
            .expect("the default secret is well formed"),
        wait_quiet: Duration::ZERO,
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
            "--emulator-pid" => args.emulator_pid = Some(number(&flag, value()?)?),
            "--orders" => args.orders = number(&flag, value()?)?,
            "--concurrency" => {
                args.concurrency = value()?
                    .split(',')
                    .map(|c| number(&flag, c.trim().to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--webhook-concurrency" => args.webhook_concurrency = number(&flag, value()?)?,
            "--setup-concurrency" => args.setup_concurrency = number(&flag, value()?)?,
            "--webhook-secret" => {
                args.webhook_secret =
                    payments::WebhookSecret::parse(value()?).map_err(|e| format!("{flag}: {e}"))?
            }
            "--wait-quiet" => args.wait_quiet = Duration::from_secs(number(&flag, value()?)?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if args.base_url.is_empty() {
        return Err("--base-url is required".into());
    }
    if args.orders == 0
        || args.concurrency.is_empty()
        || args.concurrency.contains(&0)
        || args.webhook_concurrency == 0
        || args.setup_concurrency == 0
    {
        return Err("--orders and every concurrency must be at least 1".into());
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
            eprintln!("payments-bench: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("payments-bench: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(failed) => {
            eprintln!(
                "payments-bench: FAILED: {failed} measured requests or orders did not end as they should have"
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("payments-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every phase; returns how many measured requests (or orders) failed.
async fn run(args: Args) -> Result<usize, Failure> {
    let shop = Shop::new(&args.base_url)?;
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
    let client = http_client()?;
    let payer = Arc::new(Payer::new(client.clone(), &args.base_url));
    let provider = Arc::new(Provider::new(
        client,
        &args.base_url,
        args.webhook_secret.clone(),
    ));

    let mut failed = 0;
    let mut paid = Vec::new();
    for (run, &concurrency) in args.concurrency.iter().enumerate() {
        let orders = place_unpaid_orders(&args, &payer, &products, run * args.orders).await?;
        let (intents, failures) = intent_run(&args, &payer, &orders, concurrency).await?;
        failed += failures;
        paid.extend(intents);
    }
    failed += webhook_runs(&args, &payer, &provider, paid).await?;
    Ok(failed)
}

/// Plain HTTP/1.1 keep-alive to loopback, as the checkout benchmark's client.
fn http_client() -> Result<Client, Failure> {
    Ok(Client::builder()
        // Only loopback is measured: a proxy from the environment must not interfere.
        .no_proxy()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(usize::MAX)
        .tcp_nodelay(true)
        .build()?)
}

/// Shopper `k`'s address: 10.0.0.1, 10.0.0.2, … one per session, as a load balancer
/// in front of the shop reports each shopper's own.
fn shopper_address(k: usize) -> Ipv4Addr {
    let n = u32::try_from(k + 1).expect("fewer than 2^32 shoppers");
    let [_, a, b, c] = n.to_be_bytes();
    Ipv4Addr::new(10, a, b, c)
}

/// Each order's payer has an address of their own: the per-e-mail limit counts the
/// payer's attempts, not the shop's.
fn email(k: usize) -> String {
    format!("payer-{k}@example.com")
}

/// Others share the machine: measure when it is quiet, or say how busy it was.
async fn quiet(args: &Args) -> f64 {
    if args.wait_quiet.is_zero() {
        return 0.0;
    }
    let started = Instant::now();
    let mut said = false;
    loop {
        let busy = tokio::task::spawn_blocking(|| cpu::machine_busy_pct(Duration::from_secs(1)))
            .await
            .unwrap_or(0.0);
        if busy < 10.0 || started.elapsed() >= args.wait_quiet {
            if busy >= 10.0 {
                eprintln!(
                    "payments-bench: warning: still {busy:.0}% of the CPU in use after {} s; measuring anyway",
                    args.wait_quiet.as_secs()
                );
            }
            return busy;
        }
        if !said {
            eprintln!(
                "payments-bench: {busy:.0}% of the CPU is in use; waiting up to {} s for it to calm down",
                args.wait_quiet.as_secs()
            );
            said = true;
        }
    }
}

/// The CPU a measured run used, the emulator's apart from the rest of the machine's.
struct Meter {
    server: cpu::Snapshot,
    emulator: cpu::Snapshot,
}

struct Used {
    all: cpu::Usage,
    emulator_pct: f64,
    emulator_secs: f64,
    /// The rest of the machine: other people's work.
    other_pct: f64,
}

impl Meter {
    fn start(args: &Args) -> Meter {
        Meter {
            server: cpu::snapshot(args.server_pid),
            emulator: cpu::snapshot(args.emulator_pid),
        }
    }

    fn stop(self, args: &Args) -> Used {
        let all = cpu::usage(&self.server, &cpu::snapshot(args.server_pid));
        let emulator = cpu::usage(&self.emulator, &cpu::snapshot(args.emulator_pid));
        Used {
            all,
            emulator_pct: emulator.server_pct,
            emulator_secs: emulator.server_secs,
            other_pct: (all.other_pct - emulator.server_pct).max(0.0),
        }
    }
}

impl Used {
    /// `key=value` pairs of the CPU figures: per unit of work, and in % of one core.
    fn report(&self, units: usize) -> String {
        let per_unit_us = |s: f64| {
            if units > 0 {
                s * 1e6 / units as f64
            } else {
                0.0
            }
        };
        format!(
            "server_us_per={:.0} db_us_per={:.0} emulator_us_per={:.0} cpu_server={:.0} cpu_db={:.0} \
             cpu_emulator={:.0} cpu_bench={:.0} cpu_irq={:.0} cpu_other={:.0}",
            per_unit_us(self.all.server_secs),
            per_unit_us(self.all.db_secs),
            per_unit_us(self.emulator_secs),
            self.all.server_pct,
            self.all.db_pct,
            self.emulator_pct,
            self.all.bench_pct,
            self.all.irq_pct,
            self.other_pct,
        )
    }
}

/// Places `args.orders` orders, shoppers `first`, `first + 1`, …: each a session of its
/// own with one product, checked out with a card the provider declines, so the order
/// is left failed and waiting for payment, as when a shopper is about to try another
/// card.
async fn place_unpaid_orders(
    args: &Args,
    payer: &Arc<Payer>,
    products: &Arc<Vec<ProductId>>,
    first: usize,
) -> Result<Arc<Vec<UnpaidOrder>>, Failure> {
    eprintln!(
        "payments-bench: placing {} orders whose card is declined",
        args.orders
    );
    let started = Instant::now();
    let shipping = Arc::new(Address::CALIFORNIA.shipping());
    let placed = {
        let (payer, products) = (Arc::clone(payer), Arc::clone(products));
        load::closed_loop(args.orders, args.setup_concurrency, move |i| {
            let (payer, products, shipping) = (
                Arc::clone(&payer),
                Arc::clone(&products),
                Arc::clone(&shipping),
            );
            async move {
                let k = first + i;
                let session = payer.new_session(shopper_address(k)).await?;
                payer
                    .add_item(&session, products[k % products.len()])
                    .await?;
                payer
                    .place_declined_order(
                        &session,
                        &Address::CALIFORNIA.billing(&email(k)),
                        &shipping,
                    )
                    .await
            }
        })
        .await
    };
    if let Some(e) = placed.failures().next() {
        return Err(Failure(format!("placing the orders: {e}")));
    }
    eprintln!(
        "payments-bench: placed {} orders in {:.1} s",
        args.orders,
        started.elapsed().as_secs_f64()
    );
    Ok(Arc::new(
        placed
            .results
            .into_iter()
            .map(|r| r.expect("checked"))
            .collect(),
    ))
}

/// wc_stripe_create_payment_intent once for each order, `concurrency` calls in flight.
/// Returns the intents made, and how many calls failed.
async fn intent_run(
    args: &Args,
    payer: &Arc<Payer>,
    orders: &Arc<Vec<UnpaidOrder>>,
    concurrency: usize,
) -> Result<(Vec<(UnpaidOrder, IntentId)>, usize), Failure> {
    // Let the writes of the set-up settle (SQLite's WAL, PostgreSQL's background work).
    tokio::time::sleep(Duration::from_secs(1)).await;
    let busy_before = quiet(args).await;
    eprintln!(
        "payments-bench: creating {} payment intents, {concurrency} at a time",
        orders.len()
    );
    let meter = Meter::start(args);
    let made = {
        let (payer, orders) = (Arc::clone(payer), Arc::clone(orders));
        load::closed_loop(orders.len(), concurrency, move |i| {
            let (payer, orders) = (Arc::clone(&payer), Arc::clone(&orders));
            async move { payer.create_payment_intent(&orders[i]).await }
        })
        .await
    };
    let used = meter.stop(args);
    let failures = made.failures().count();
    for f in made.failures().take(5) {
        eprintln!("payments-bench: wc_stripe_create_payment_intent failed: {f}");
    }
    let ok = orders.len() - failures;
    let secs = made.elapsed.as_secs_f64();
    let lat = Summary::of(made.durations.clone());
    println!(
        "BENCH phase=intent concurrency={concurrency} orders={} created={ok} failures={failures} busy_before={busy_before:.0} \
         elapsed_s={secs:.3} calls_per_s={:.1} p50_ms={} p90_ms={} p99_ms={} max_ms={} {}",
        orders.len(),
        ok as f64 / secs,
        ms(lat.p50),
        ms(lat.p90),
        ms(lat.p99),
        ms(lat.max),
        used.report(ok),
    );
    eprintln!(
        "payments-bench: concurrency {concurrency}: {ok} intents in {secs:.2} s = {:.0} calls/s, p50 {} ms, p99 {} ms, {failures} failed",
        ok as f64 / secs,
        ms(lat.p50),
        ms(lat.p99),
    );
    let intents = orders
        .iter()
        .zip(made.results)
        .filter_map(|(order, made)| made.ok().map(|intent| (order.clone(), intent)))
        .collect();
    Ok((intents, failures))
}

/// One `payment_intent.succeeded` event per intent, delivered with
/// `args.webhook_concurrency` in flight, then every event delivered again; after each
/// round every order must be processing. Returns how many deliveries were not
/// acknowledged plus how many orders were not processing after a round.
async fn webhook_runs(
    args: &Args,
    payer: &Arc<Payer>,
    provider: &Arc<Provider>,
    paid: Vec<(UnpaidOrder, IntentId)>,
) -> Result<usize, Failure> {
    let paid = Arc::new(paid);
    eprintln!(
        "payments-bench: reading {} orders for their events",
        paid.len()
    );
    let states = read_orders(args, payer, &paid).await?;
    let unpaid_before = states.iter().filter(|s| s.status == "failed").count();
    let events: Arc<Vec<Bytes>> = Arc::new(
        paid.iter()
            .zip(&states)
            .enumerate()
            .map(|(n, ((order, intent), state))| {
                provider::payment_succeeded(n, intent, order.id, state)
            })
            .collect(),
    );
    let mut failed = 0;
    for delivery in ["first", "again"] {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let busy_before = quiet(args).await;
        eprintln!(
            "payments-bench: delivering {} events ({delivery}), {} at a time",
            events.len(),
            args.webhook_concurrency
        );
        let meter = Meter::start(args);
        let delivered = {
            let (provider, events) = (Arc::clone(provider), Arc::clone(&events));
            load::closed_loop(events.len(), args.webhook_concurrency, move |i| {
                let (provider, events) = (Arc::clone(&provider), Arc::clone(&events));
                async move { provider.deliver(&events[i]).await }
            })
            .await
        };
        let used = meter.stop(args);
        let failures = delivered.failures().count();
        for f in delivered.failures().take(5) {
            eprintln!("payments-bench: webhook delivery ({delivery}) failed: {f}");
        }
        let after = read_orders(args, payer, &paid).await?;
        let processing = after.iter().filter(|s| s.status == "processing").count();
        for (order, state) in paid
            .iter()
            .map(|(o, _)| o)
            .zip(&after)
            .filter(|(_, s)| s.status != "processing")
            .take(5)
        {
            eprintln!(
                "payments-bench: order {} is {} after the {delivery} delivery",
                order.id.0, state.status
            );
        }
        failed += failures + (paid.len() - processing);
        let ok = events.len() - failures;
        let secs = delivered.elapsed.as_secs_f64();
        let lat = Summary::of(delivered.durations.clone());
        println!(
            "BENCH phase=webhook delivery={delivery} concurrency={} events={} acknowledged={ok} failures={failures} \
             unpaid_before={unpaid_before} processing_after={processing} busy_before={busy_before:.0} elapsed_s={secs:.3} \
             events_per_s={:.1} p50_ms={} p90_ms={} p99_ms={} max_ms={} {}",
            args.webhook_concurrency,
            events.len(),
            ok as f64 / secs,
            ms(lat.p50),
            ms(lat.p90),
            ms(lat.p99),
            ms(lat.max),
            used.report(ok),
        );
        eprintln!(
            "payments-bench: {delivery} delivery: {ok} events in {secs:.2} s = {:.0} events/s, p99 {} ms; \
             {processing} of {} orders processing",
            ok as f64 / secs,
            ms(lat.p99),
            paid.len()
        );
    }
    Ok(failed)
}

/// Every paid order as its shopper reads it (not timed).
async fn read_orders(
    args: &Args,
    payer: &Arc<Payer>,
    paid: &Arc<Vec<(UnpaidOrder, IntentId)>>,
) -> Result<Vec<payer::OrderState>, Failure> {
    let read = {
        let (payer, paid) = (Arc::clone(payer), Arc::clone(paid));
        load::closed_loop(paid.len(), args.setup_concurrency, move |i| {
            let (payer, paid) = (Arc::clone(&payer), Arc::clone(&paid));
            async move {
                let order = &paid[i].0;
                payer.order(order.id, &order.key).await
            }
        })
        .await
    };
    if let Some(e) = read.failures().next() {
        return Err(Failure(format!("reading the orders: {e}")));
    }
    Ok(read
        .results
        .into_iter()
        .map(|r| r.expect("checked"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shopper_has_an_address_of_their_own() {
        assert_eq!(shopper_address(0), Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!(shopper_address(255), Ipv4Addr::new(10, 0, 1, 0));
        assert_eq!(shopper_address(70_000), Ipv4Addr::new(10, 1, 17, 113));
    }
}
