//! What every request handler shares: configuration, the database, the signing keys
//! and the catalogue snapshot.

use std::sync::Arc;

use crate::catalog::index::{Catalog, CatalogHandle};
use crate::checkout::rules::{ShopRules, RULES_SETTING};
use crate::config::Config;
use crate::session::Keys;
use crate::store::{self, Db, StoreResult};
use crate::web::Pages;

pub type SharedState = Arc<AppState>;

pub struct AppState {
    pub config: Config,
    pub db: Db,
    pub keys: Keys,
    pub catalog: CatalogHandle,
    pub pages: Pages,
}

impl AppState {
    /// Connects nothing itself: takes a migrated database and loads what it needs.
    pub async fn load(config: Config, db: Db) -> StoreResult<SharedState> {
        let secret = store::settings::get_or_create(&db, "secret", Keys::generate_secret).await?;
        let keys = Keys::new(secret.into_bytes());
        let catalog = load_catalog(&db).await?;
        let pages = Pages::load(&config.web_dir);
        Ok(Arc::new(AppState {
            config,
            db,
            keys,
            catalog: CatalogHandle::new(catalog),
            pages,
        }))
    }

    /// Reloads the catalogue snapshot if the database holds a newer one.
    pub async fn refresh_catalog(&self) -> StoreResult<bool> {
        let version = store::catalog::catalog_version(&self.db).await?;
        if version == self.catalog.get().version {
            return Ok(false);
        }
        self.catalog.replace(load_catalog(&self.db).await?);
        Ok(true)
    }
}

async fn load_catalog(db: &Db) -> StoreResult<Catalog> {
    // Read the version first: a change that lands while loading is caught next time.
    let version = store::catalog::catalog_version(db).await?;
    let data = store::catalog::load_catalog(db).await?;
    let rules = match store::settings::get(db, RULES_SETTING).await? {
        None => ShopRules::default(),
        Some(json) => ShopRules::from_json(&json).unwrap_or_else(|e| {
            tracing::error!(error = %e, "the stored shop rules cannot be read; using defaults");
            ShopRules::default()
        }),
    };
    Ok(Catalog::new(version, data).with_rules(rules))
}
