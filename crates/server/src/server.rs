//! Starting and stopping the shop: connect and migrate the database, load the demo
//! catalogue if asked, serve until told to stop, and run the background upkeep
//! (catalogue reloads, expired-session sweeps, unpaid orders cancelled).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::config::Config;
use crate::listener::{PeerAddr, ShopListener};
use crate::orders::expiry;
use crate::orders::service::OrderService;
use crate::state::{AppState, SharedState};
use store::Db;

pub struct RunningServer {
    pub addr: SocketAddr,
    pub state: SharedState,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    /// Upkeep and the mail worker, which use the database until they see `stop`.
    background: Vec<tokio::task::JoinHandle<()>>,
}

/// How long shutting down waits for background work (a mail being sent) to finish.
const BACKGROUND_GRACE: Duration = Duration::from_secs(10);

impl RunningServer {
    /// Stops accepting, lets requests in flight finish, then returns.
    pub async fn shutdown(self) -> std::io::Result<()> {
        let _ = self.stop.send(true);
        let result = self.task.await.unwrap_or(Ok(()));
        // The database closes after everything that uses it has stopped.
        let background = async {
            for task in self.background {
                let _ = task.await;
            }
        };
        if tokio::time::timeout(BACKGROUND_GRACE, background)
            .await
            .is_err()
        {
            tracing::warn!("background work did not stop in time");
        }
        self.state.db.close().await;
        result
    }

    /// Serves until SIGINT or SIGTERM.
    pub async fn run_until_signal(self) -> std::io::Result<()> {
        shutdown_signal().await;
        tracing::info!("shutting down");
        self.shutdown().await
    }
}

/// Loads the demo catalogue into an empty shop. Returns whether it did.
pub async fn load_demo(db: &Db) -> anyhow::Result<bool> {
    if store::catalog::count_products(db).await? > 0 {
        return Ok(false);
    }
    let data = crate::catalog::demo::demo_catalog();
    match store::catalog::insert_catalog(db, &data).await {
        Ok(()) => {
            crate::reviews::demo::seed(db, &data).await?;
            Ok(true)
        }
        // Another instance loaded it first.
        Err(e) if store::catalog::count_products(db).await? > 0 => {
            tracing::info!(error = %e, "demo catalogue already loaded by another instance");
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// The demo shop's taxes, shipping zones and coupons.
async fn load_demo_checkout(db: &Db) -> anyhow::Result<()> {
    use rules::pricing::coupons::{Coupon, CouponCode, CouponKind};
    let rules = rules::pricing::rules::ShopRules::demo();
    store::settings::set(db, rules::pricing::rules::RULES_SETTING, &rules.to_json()).await?;
    store::catalog::bump_catalog_version(db).await?;
    let now = rules::clock::now();
    let code = |c: &str| CouponCode::parse(c).expect("demo coupon codes are valid");
    let welcome = Coupon::new(code("WELCOME10"), CouponKind::Percent { percent: 10_00 });
    let mut free = Coupon::new(code("FREESHIP"), CouponKind::FixedCart { amount: 0 });
    free.free_shipping = true;
    let mut five = Coupon::new(code("SAVE5"), CouponKind::FixedCart { amount: 5_00 });
    five.minimum_spend = Some(30_00);
    let mut vip = Coupon::new(code("VIP20"), CouponKind::Percent { percent: 20_00 });
    vip.individual_use = true;
    vip.exclude_sale_items = true;
    vip.usage_limit_per_user = Some(1);
    for coupon in [welcome, free, five, vip] {
        store::coupons::save_coupon(db, &coupon, now).await?;
    }
    Ok(())
}

pub async fn start(config: Config, demo: bool) -> anyhow::Result<RunningServer> {
    let mut config = config;
    if demo && config.checkout.terms.is_none() {
        config.checkout.terms = Some(crate::config::checkout::demo_terms());
    }
    if demo {
        config.checkout.payments.fill_demo();
    }
    let shop_name = config.shop_name.clone();
    for warning in config.checkout.offer_payments(&shop_name) {
        tracing::warn!("{warning}");
    }
    let currency = config.currency.code.clone();
    for warning in
        crate::payments::offer(&config.payments, &currency, &mut config.checkout.gateways)
    {
        tracing::warn!("{warning}");
    }
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    if demo && load_demo(&db).await? {
        tracing::info!("loaded the demo catalogue");
    }
    // A demo shop made before contact forms existed gets the demo's form.
    if demo {
        crate::contact::demo::seed(&db).await?;
    }
    // A demo shop made before checkout existed gets the demo's taxes, zones and coupons.
    if demo
        && store::settings::get(&db, rules::pricing::rules::RULES_SETTING)
            .await?
            .is_none()
    {
        load_demo_checkout(&db).await?;
    }
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    warn_about_hosts(&config, addr);
    let state = AppState::load(config, db, addr).await?;
    let app = crate::router::app(state.clone());
    let (stop, mut stopped) = watch::channel(false);
    // The search index builds in the background: the shop answers meanwhile, with
    // plain matching for searches.
    let indexing = state.clone();
    tokio::spawn(async move { indexing.follow_in_search(None).await });
    let mut background = vec![spawn_upkeep(state.clone(), stopped.clone())];
    background.extend(mail::worker::spawn(
        state.db.clone(),
        &state.config.mail,
        stopped.clone(),
    ));
    let task = tokio::spawn(async move {
        // The peer address is what rate limits count per client.
        let app = app.into_make_service_with_connect_info::<PeerAddr>();
        axum::serve(ShopListener(listener), app)
            .with_graceful_shutdown(async move {
                let _ = stopped.changed().await;
            })
            .await
    });
    tracing::info!(%addr, backend = ?state.db.backend, "serving");
    Ok(RunningServer {
        addr,
        state,
        stop,
        task,
        background,
    })
}

/// A shop reachable from other machines must say under which name: without a public
/// URL or allowed hosts it answers only for its bind address and localhost.
fn warn_about_hosts(config: &Config, addr: SocketAddr) {
    let reachable = !addr.ip().is_loopback();
    if reachable && config.public_url.is_none() && config.allowed_hosts.is_empty() {
        tracing::warn!(
            %addr,
            "FERROSHOP_PUBLIC_URL is not set: requests naming any host but this address and \
             localhost are refused; set it (or FERROSHOP_ALLOWED_HOSTS) to the shop's address"
        );
    }
}

fn spawn_upkeep(
    state: SharedState,
    mut stopped: watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut catalog_tick = tokio::time::interval(Duration::from_secs(1));
        // Stock moved by orders on any instance shows here within this.
        let mut live_tick = tokio::time::interval(Duration::from_millis(250));
        live_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut sweep_tick = tokio::time::interval(Duration::from_secs(600));
        // Unpaid orders are swept every minute, the first time a minute after start:
        // nothing expires that urgently, and tests that run the sweeps themselves are
        // not raced by this one.
        let minute = Duration::from_secs(60);
        let mut hold_tick = tokio::time::interval_at(tokio::time::Instant::now() + minute, minute);
        loop {
            tokio::select! {
                _ = stopped.changed() => return,
                _ = catalog_tick.tick() => {
                    match state.refresh_catalog().await {
                        Ok(true) => tracing::debug!(version = state.catalog.get().version, "reloaded the catalogue"),
                        Ok(false) => {}
                        Err(e) => tracing::warn!(error = %e, "could not check the catalogue version"),
                    }
                }
                _ = live_tick.tick() => {
                    if let Err(e) = state.refresh_live().await {
                        tracing::warn!(error = %e, "could not read changed stock figures");
                    }
                }
                _ = hold_tick.tick() => {
                    let mail = state.config.order_mails(state.address.default_base().as_str());
                    let orders = OrderService { db: &state.db, mail: &mail };
                    let now = rules::clock::now();
                    match expiry::release_expired_holds(&orders, now).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(orders = n, "cancelled unpaid orders whose stock hold ran out"),
                        Err(e) => tracing::warn!(error = %e, "could not release expired stock holds"),
                    }
                    match expiry::cancel_unpaid_offline_orders(&orders, &state.config.checkout, now).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(orders = n, "cancelled bank-transfer and cheque orders left unpaid"),
                        Err(e) => tracing::warn!(error = %e, "could not cancel unpaid on-hold orders"),
                    }
                }
                _ = sweep_tick.tick() => {
                    let two_days_ago = rules::clock::now() - 2 * 86_400;
                    if let Err(e) = store::orders::delete_stale_drafts(&state.db, two_days_ago).await {
                        tracing::warn!(error = %e, "could not remove stale checkout drafts");
                    }
                    let a_day_ago = rules::clock::now() - 86_400;
                    if let Err(e) = store::rate_limits::sweep(&state.db, a_day_ago).await {
                        tracing::warn!(error = %e, "could not forget old rate-limit counters");
                    }
                    match store::sessions::delete_expired(&state.db, rules::clock::now()).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(sessions = n, "removed expired sessions"),
                        Err(e) => tracing::warn!(error = %e, "could not remove expired sessions"),
                    }
                    match crate::wishlist::delete_idle_guest_lists(&state.db, rules::clock::now()).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(wishlists = n, "removed idle guest wishlists"),
                        Err(e) => tracing::warn!(error = %e, "could not remove idle guest wishlists"),
                    }
                }
            }
        }
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
