//! What every request handler shares: configuration, the database, the signing keys
//! and the catalogue snapshot.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use crate::config::Config;
use crate::session::Keys;
use crate::shell::Pages;
use crate::shop_url::ShopAddress;
use rules::catalog::index::{Catalog, CatalogHandle};
use rules::catalog::model::{Product, ProductId};
use rules::pricing::rules::{ShopRules, RULES_SETTING};
use search::products::ProductSearch;
use store::catalog::Change;
use store::{Db, StoreResult};

pub type SharedState = Arc<AppState>;

pub struct AppState {
    pub config: Config,
    /// Where the shop is: the one source of absolute links.
    pub address: ShopAddress,
    pub db: Db,
    pub keys: Keys,
    pub catalog: CatalogHandle,
    /// The catalogue's search index, kept in step with `catalog`.
    pub search: Arc<ProductSearch>,
    /// The latest stock-change stamp (Unix ms) read into the snapshot.
    live_seen_ms: AtomicI64,
    pub pages: Pages,
    /// WebP copies of the shop's photographs, made on first request.
    pub images: crate::catalog::images::ImageCopies,
    /// The card payment provider, when the shop has its keys.
    pub provider: Option<Arc<crate::payments::provider::Provider>>,
}

/// Stock stamps come from each instance's clock and commit in any order; reading a
/// little further back than the latest stamp seen catches the late ones. Figures are
/// absolute, so reading one twice changes nothing.
const LIVE_OVERLAP_MS: i64 = 5_000;

impl AppState {
    /// Connects nothing itself: takes a migrated database and loads what it needs.
    /// `bound` is the address the server listens on.
    pub async fn load(config: Config, db: Db, bound: SocketAddr) -> StoreResult<SharedState> {
        let secret = store::settings::get_or_create(&db, "secret", Keys::generate_secret).await?;
        let keys = Keys::new(secret.into_bytes());
        let live_from = store::catalog::now_ms() - LIVE_OVERLAP_MS;
        let started = std::time::Instant::now();
        let catalog = load_catalog(&db, None).await?;
        tracing::info!(
            products = catalog.product_count(),
            ms = started.elapsed().as_millis() as u64,
            "catalogue loaded"
        );
        let pages = Pages::load(&config.web_dir, &config.render);
        let images =
            crate::catalog::images::ImageCopies::new(config.render.image_cache_mb * 1024 * 1024);
        let provider = crate::payments::provider::Provider::connect(&config.payments)
            .map_err(|e| store::StoreError::Config(format!("payments: {e}")))?;
        Ok(Arc::new(AppState {
            address: config.address(bound),
            config,
            db,
            keys,
            catalog: CatalogHandle::new(catalog),
            search: Arc::new(ProductSearch::new().map_err(|e| {
                store::StoreError::Corrupt(format!("the search index cannot be made: {e}"))
            })?),
            live_seen_ms: AtomicI64::new(live_from),
            pages,
            images,
            provider,
        }))
    }

    /// Brings the catalogue snapshot up to the database's version: only the products
    /// the change log names are read again (terms and media too when they changed);
    /// the whole catalogue only when the log does not reach back or says so. A
    /// scheduled sale that started or ended reprices the snapshot.
    pub async fn refresh_catalog(&self) -> StoreResult<bool> {
        let current = self.catalog.get();
        let now = rules::clock::now();
        // Which products the search index must follow: None for all of them.
        let mut reindex: Option<Vec<ProductId>> = Some(Vec::new());
        let next = match store::catalog::changes_since(&self.db, current.version).await? {
            Some((version, _)) if version == current.version => {
                match current.next_sale_boundary() {
                    Some(at) if at <= now => current.repriced(now),
                    _ => return Ok(false),
                }
            }
            Some((version, changes)) if !changes.contains(&Change::Everything) => {
                let ids: Vec<ProductId> = changes
                    .iter()
                    .filter_map(|c| match c {
                        Change::Product(id) => Some(*id),
                        _ => None,
                    })
                    .collect();
                let terms = if changes
                    .iter()
                    .any(|c| matches!(c, Change::Terms | Change::Media))
                {
                    Some(store::catalog::load_terms(&self.db).await?)
                } else {
                    None
                };
                let loaded = store::catalog::load_products(&self.db, Some(&ids)).await?;
                reindex = if terms.is_some() {
                    None
                } else {
                    Some(ids.clone())
                };
                let removed: Vec<ProductId> = ids
                    .iter()
                    .copied()
                    .filter(|id| !loaded.iter().any(|p| p.id == *id))
                    .collect();
                current.changed(version, loaded, &removed, terms, now)
            }
            _ => {
                reindex = None;
                load_catalog(&self.db, Some(current.clone())).await?
            }
        };
        self.catalog.replace(next);
        self.follow_in_search(reindex).await;
        Ok(true)
    }

    /// Brings the search index up to the current snapshot: the named products, or
    /// everything (off the async threads).
    pub async fn follow_in_search(&self, ids: Option<Vec<ProductId>>) {
        if ids.as_ref().is_some_and(Vec::is_empty) {
            return;
        }
        let catalog = self.catalog.get();
        let search = self.search.clone();
        let done = tokio::task::spawn_blocking(move || match ids {
            Some(ids) => search.update(&catalog, &ids),
            None => search.rebuild(&catalog),
        })
        .await;
        if let Err(e) = done {
            tracing::error!(error = %e, "the search index update stopped");
        }
    }

    /// Reads the stock, sales and rating figures orders changed since the last look
    /// (through an index) into the snapshot; the catalogue itself is not reloaded.
    pub async fn refresh_live(&self) -> StoreResult<bool> {
        let seen = self.live_seen_ms.load(Ordering::Relaxed);
        let (figures, latest) =
            store::catalog::live_figures_since(&self.db, seen - LIVE_OVERLAP_MS).await?;
        self.live_seen_ms.fetch_max(latest, Ordering::Relaxed);
        if figures.is_empty() {
            return Ok(false);
        }
        match self.catalog.get().with_live(&figures) {
            Some(next) => {
                self.catalog.replace(next);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// Products read per query when the whole catalogue is read.
const LOAD_SLICE: i64 = 2_000;

/// How many id ranges of the catalogue are read at once, each on a connection and a
/// thread of its own. On PostgreSQL the database's work on one range overlaps the
/// reading of the other's rows (start-up at 100,000 products 0.3–1 s shorter here);
/// SQLite does that work in the server's own process, so two ranges only compete
/// for the same cores (0.5 s longer).
fn load_ranges(db: &Db) -> i64 {
    match db.backend {
        store::Backend::Postgres => 2,
        store::Backend::Sqlite => 1,
    }
}

/// Reads the whole catalogue into a snapshot, a slice of products at a time. A product
/// that `current` already holds as it is now is shared, not kept twice: a reload
/// costs the memory of what changed, not of a second catalogue.
async fn load_catalog(db: &Db, current: Option<Arc<Catalog>>) -> StoreResult<Catalog> {
    // Read the version first: a change that lands while loading is caught next time.
    let version = store::catalog::catalog_version(db).await?;
    let data = store::catalog::load_terms(db).await?;
    let mut products: Vec<Arc<Product>> = Vec::new();
    if let Some((first, last)) = store::catalog::product_id_range(db).await? {
        let ranges = load_ranges(db);
        let span = (last - first) / ranges + 1;
        let readers: Vec<_> = (0..ranges)
            .map(|i| {
                let (db, current) = (db.clone(), current.clone());
                let from = first + i * span;
                let until = (from + span - 1).min(last);
                tokio::spawn(async move { load_range(&db, from, until, current.as_deref()).await })
            })
            .collect();
        // In range order, so the products stay in id order.
        for reader in readers {
            match reader.await {
                Ok(range) => products.extend(range?),
                Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                Err(_) => {
                    return Err(store::StoreError::Config(
                        "the catalogue read was cancelled".into(),
                    ))
                }
            }
        }
    }
    let read = std::time::Instant::now();
    let rules = match store::settings::get(db, RULES_SETTING).await? {
        None => ShopRules::default(),
        Some(json) => ShopRules::from_json(&json).unwrap_or_else(|e| {
            tracing::error!(error = %e, "the stored shop rules cannot be read; using defaults");
            ShopRules::default()
        }),
    };
    let catalog =
        Catalog::with_products(version, data, products, rules::clock::now()).with_rules(rules);
    tracing::debug!(ms = read.elapsed().as_millis() as u64, "catalogue indexed");
    Ok(catalog)
}

/// The products with ids from `from` to `until`, a slice at a time, each shared with
/// `current` when it holds it unchanged.
async fn load_range(
    db: &Db,
    from: i64,
    until: i64,
    current: Option<&Catalog>,
) -> StoreResult<Vec<Arc<Product>>> {
    let mut products = Vec::new();
    let mut after = from - 1;
    loop {
        let slice = store::catalog::load_products_after(db, after, until, LOAD_SLICE).await?;
        let Some(last) = slice.last() else { break };
        after = last.id.0;
        products.extend(slice.into_iter().map(|fresh| {
            match current.and_then(|c| c.shared_product(fresh.id)) {
                Some(held) if **held == fresh => held.clone(),
                _ => Arc::new(fresh),
            }
        }));
    }
    Ok(products)
}
