//! Starting and stopping the shop: connect and migrate the database, load the demo
//! catalogue if asked, serve until told to stop, and run the background upkeep
//! (catalogue reloads, expired-session sweeps).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::config::Config;
use crate::state::{AppState, SharedState};
use crate::store::{self, Db};

pub struct RunningServer {
    pub addr: SocketAddr,
    pub state: SharedState,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    /// Stops accepting, lets requests in flight finish, then returns.
    pub async fn shutdown(self) -> std::io::Result<()> {
        let _ = self.stop.send(true);
        let result = self.task.await.unwrap_or(Ok(()));
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
        Ok(()) => Ok(true),
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
    use crate::checkout::coupons::{Coupon, CouponCode, CouponKind};
    let rules = crate::checkout::rules::ShopRules::demo();
    store::settings::set(db, crate::checkout::rules::RULES_SETTING, &rules.to_json()).await?;
    store::catalog::bump_catalog_version(db).await?;
    let now = crate::clock::now();
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
        config.checkout.terms = Some(crate::checkout::settings::demo_terms());
    }
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    if demo && load_demo(&db).await? {
        tracing::info!("loaded the demo catalogue");
    }
    // A demo shop made before checkout existed gets the demo's taxes, zones and coupons.
    if demo
        && store::settings::get(&db, crate::checkout::rules::RULES_SETTING)
            .await?
            .is_none()
    {
        load_demo_checkout(&db).await?;
    }
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    let state = AppState::load(config, db).await?;
    let app = crate::http::app(state.clone());
    let (stop, mut stopped) = watch::channel(false);
    spawn_upkeep(state.clone(), stopped.clone());
    crate::mail::worker::spawn(state.clone(), stopped.clone());
    let task = tokio::spawn(async move {
        // The peer address is what login rate limits count per client.
        let app = app.into_make_service_with_connect_info::<SocketAddr>();
        axum::serve(listener, app)
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
    })
}

fn spawn_upkeep(state: SharedState, mut stopped: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut catalog_tick = tokio::time::interval(Duration::from_secs(1));
        let mut sweep_tick = tokio::time::interval(Duration::from_secs(600));
        let mut hold_tick = tokio::time::interval(Duration::from_secs(60));
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
                _ = hold_tick.tick() => {
                    match crate::checkout::place::release_expired_holds(&state, crate::clock::now()).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(orders = n, "cancelled unpaid orders whose stock hold ran out"),
                        Err(e) => tracing::warn!(error = %e, "could not release expired stock holds"),
                    }
                }
                _ = sweep_tick.tick() => {
                    let two_days_ago = crate::clock::now() - 2 * 86_400;
                    if let Err(e) = store::orders::delete_stale_drafts(&state.db, two_days_ago).await {
                        tracing::warn!(error = %e, "could not remove stale checkout drafts");
                    }
                    match store::sessions::delete_expired(&state.db, crate::clock::now()).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(sessions = n, "removed expired sessions"),
                        Err(e) => tracing::warn!(error = %e, "could not remove expired sessions"),
                    }
                }
            }
        }
    });
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
