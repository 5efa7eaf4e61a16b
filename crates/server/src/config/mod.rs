//! Configuration, read once at start-up: built-in defaults, then an optional TOML file
//! (`ferroshop.toml` in the working directory, or the path in `FERROSHOP_CONFIG`), then
//! `FERROSHOP_*` environment variables, then command-line flags. A bad value stops the
//! server with a message naming the setting.

pub mod catalog;
pub mod checkout;
pub mod coming_soon;
pub mod payments;
pub mod reviews;
pub mod store_notice;

use std::net::SocketAddr;
use std::path::PathBuf;

use serde::Deserialize;

use rules::money::CurrencyFormat;
pub use rules::settings::{bad, parse_yes_no, ConfigError};

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub database_url: String,
    /// The shop's public address ("https://shop.example"): every absolute link (mails,
    /// redirects, canonical links) starts with it, whatever host a request names.
    pub public_url: Option<String>,
    /// Host names (with a port where it is not the scheme's default) the shop answers
    /// for. Empty: the public URL's host, else the bind address and localhost. A request
    /// naming any other host is refused, so no link is ever built from a forged Host.
    pub allowed_hosts: Vec<String>,
    /// Where the built storefront lives (`web/dist`).
    pub web_dir: PathBuf,
    pub shop_name: String,
    pub currency: CurrencyFormat,
    /// Send the shopper to the cart after a successful add to cart.
    pub cart_redirect_after_add: bool,
    pub log_format: LogFormat,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// A proxy of the shop's own sits in front: take the client's address from the last
    /// X-Forwarded-For entry (for rate limits) and the scheme from X-Forwarded-Proto.
    pub trust_proxy: bool,
    pub mail: mail::MailConfig,
    pub catalog: crate::config::catalog::CatalogConfig,
    pub checkout: crate::config::checkout::CheckoutConfig,
    pub coming_soon: crate::config::coming_soon::ComingSoonConfig,
    pub payments: crate::config::payments::PaymentsConfig,
    /// Product reviews: who may post, ratings, moderation, page size.
    pub reviews: rules::reviews::ReviewSettings,
    pub render: RenderConfig,
    /// The line shown at the top of every page until the shopper dismisses it.
    pub store_notice: Option<store_notice::StoreNotice>,
    /// Wishlists: simple flow, parent variable products, the redirect after an add.
    pub wishlist: rules::wishlist::WishlistSettings,
}

/// Rendering pages on the server (see the `render` crate).
#[derive(Debug, Clone)]
pub struct RenderConfig {
    /// Off: every page is the bare app, rendered by the browser.
    pub enabled: bool,
    /// The storefront's server bundle; by default `server.js` in `dist-server` beside
    /// the web directory.
    pub bundle: Option<PathBuf>,
    pub engines: usize,
    /// Memory one engine may hold, in MiB.
    pub memory_mb: usize,
    /// How long one render may take, in milliseconds.
    pub timeout_ms: u64,
    /// The WebP copies of photographs the pages ask for, kept up to this many MiB.
    pub image_cache_mb: u64,
}

impl Default for RenderConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            bundle: None,
            engines: 2,
            memory_mb: 32,
            timeout_ms: 500,
            image_cache_mb: 64,
        }
    }
}

impl RenderConfig {
    pub fn bundle_path(&self, web_dir: &std::path::Path) -> PathBuf {
        self.bundle.clone().unwrap_or_else(|| {
            web_dir
                .parent()
                .unwrap_or(std::path::Path::new("."))
                .join("dist-server/server.js")
        })
    }

    fn apply_env(&mut self, get: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = get("FERROSHOP_RENDER") {
            self.enabled = parse_yes_no("FERROSHOP_RENDER", &v)?;
        }
        if let Some(v) = get("FERROSHOP_RENDER_BUNDLE") {
            self.bundle = Some(v.into());
        }
        let number = |name: &str, min: u64, max: u64| -> Result<Option<u64>, ConfigError> {
            get(name)
                .map(|v| match v.trim().parse::<u64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(n),
                    _ => Err(bad(name, format!("expected a number from {min} to {max}"))),
                })
                .transpose()
        };
        if let Some(n) = number("FERROSHOP_RENDER_ENGINES", 1, 64)? {
            self.engines = n as usize;
        }
        if let Some(n) = number("FERROSHOP_RENDER_MEMORY_MB", 8, 1024)? {
            self.memory_mb = n as usize;
        }
        if let Some(n) = number("FERROSHOP_RENDER_TIMEOUT_MS", 10, 10_000)? {
            self.timeout_ms = n;
        }
        if let Some(n) = number("FERROSHOP_IMAGE_CACHE_MB", 1, 65_536)? {
            self.image_cache_mb = n;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: "sqlite://data/ferroshop.db".into(),
            public_url: None,
            allowed_hosts: Vec::new(),
            web_dir: PathBuf::from("web/dist"),
            shop_name: "Ferroshop".into(),
            currency: CurrencyFormat::usd(),
            cart_redirect_after_add: false,
            log_format: LogFormat::Text,
            max_body_bytes: 64 * 1024,
            trust_proxy: false,
            mail: mail::MailConfig::default(),
            catalog: Default::default(),
            checkout: Default::default(),
            coming_soon: Default::default(),
            payments: Default::default(),
            reviews: Default::default(),
            render: RenderConfig::default(),
            store_notice: None,
            wishlist: Default::default(),
        }
    }
}

/// The optional file's shape; every key may be left out.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    bind: Option<String>,
    database_url: Option<String>,
    public_url: Option<String>,
    allowed_hosts: Option<Vec<String>>,
    web_dir: Option<PathBuf>,
    shop_name: Option<String>,
    cart_redirect_after_add: Option<bool>,
    log_format: Option<String>,
    max_body_bytes: Option<usize>,
    trust_proxy: Option<bool>,
    mail: Option<mail::FileMail>,
    currency: Option<FileCurrency>,
    catalog: Option<crate::config::catalog::CatalogFile>,
    checkout: Option<crate::config::checkout::CheckoutFile>,
    coming_soon: Option<crate::config::coming_soon::ComingSoonFile>,
    payments: Option<crate::config::payments::PaymentsFile>,
    reviews: Option<crate::config::reviews::ReviewsFile>,
    store_notice: Option<String>,
    store_notice_id: Option<String>,
    wishlist: Option<FileWishlist>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileWishlist {
    simple_flow: Option<bool>,
    allow_parent_variable: Option<bool>,
    redirect: Option<bool>,
    show_notice: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCurrency {
    code: Option<String>,
    symbol: Option<String>,
    position: Option<String>,
    thousand_separator: Option<String>,
    decimal_separator: Option<String>,
    decimals: Option<u32>,
}

impl Config {
    /// Where the shop is, for a server bound to `bound`.
    pub fn address(&self, bound: SocketAddr) -> crate::shop_url::ShopAddress {
        crate::shop_url::ShopAddress::new(
            self.public_url.as_deref(),
            &self.allowed_hosts,
            self.trust_proxy,
            bound,
        )
    }

    /// What the order mails need besides the order; links use `base_url` (the public
    /// URL when configured, else a host the shop answers for).
    pub fn order_mails(&self, base_url: &str) -> mail::order::OrderMailSettings {
        mail::order::OrderMailSettings {
            mail: mail::layout::MailContext::new(&self.shop_name, base_url),
            currency: self.currency.clone(),
            gateways: self.checkout.gateways.clone(),
            shop_email: self.mail.shop_recipient(),
        }
    }

    /// Defaults, then the file, then the environment.
    pub fn load() -> Result<Self, ConfigError> {
        let mut config = Self::default();
        let explicit = std::env::var("FERROSHOP_CONFIG").ok();
        let path = explicit.clone().unwrap_or_else(|| "ferroshop.toml".into());
        match std::fs::read_to_string(&path) {
            Ok(text) => config.apply_file(&path, &text)?,
            Err(e) if explicit.is_some() => {
                return Err(bad("FERROSHOP_CONFIG", format!("cannot read {path}: {e}")))
            }
            Err(_) => {}
        }
        config.apply_env(|name| std::env::var(name).ok())?;
        Ok(config)
    }

    fn apply_file(&mut self, path: &str, text: &str) -> Result<(), ConfigError> {
        let file: FileConfig = toml::from_str(text).map_err(|e| bad(path, e.to_string()))?;
        if let Some(v) = file.bind {
            self.bind = parse_bind("bind", &v)?;
        }
        if let Some(v) = file.database_url {
            self.database_url = v;
        }
        if let Some(v) = file.public_url {
            self.public_url = Some(parse_public_url("public_url", &v)?);
        }
        if let Some(v) = file.allowed_hosts {
            self.allowed_hosts = parse_hosts("allowed_hosts", &v)?;
        }
        if let Some(v) = file.web_dir {
            self.web_dir = v;
        }
        if let Some(v) = file.shop_name {
            self.shop_name = v;
        }
        if let Some(w) = file.wishlist {
            let s = &mut self.wishlist;
            s.simple_flow = w.simple_flow.unwrap_or(s.simple_flow);
            s.allow_parent_variable = w.allow_parent_variable.unwrap_or(s.allow_parent_variable);
            s.redirect = w.redirect.unwrap_or(s.redirect);
            s.show_notice = w.show_notice.unwrap_or(s.show_notice);
        }
        if let Some(v) = file.cart_redirect_after_add {
            self.cart_redirect_after_add = v;
        }
        if let Some(v) = file.log_format {
            self.log_format = parse_log_format("log_format", &v)?;
        }
        if let Some(v) = file.max_body_bytes {
            self.max_body_bytes = v;
        }
        if let Some(v) = file.trust_proxy {
            self.trust_proxy = v;
        }
        if let Some(m) = file.mail {
            self.mail.apply_file(m)?;
        }
        if let Some(c) = file.catalog {
            self.catalog.apply_file(c)?;
        }
        if let Some(c) = file.checkout {
            self.checkout.apply_file(c)?;
        }
        if let Some(c) = file.coming_soon {
            self.coming_soon.apply_file(c)?;
        }
        if let Some(p) = file.payments {
            self.payments.apply_file(p)?;
        }
        if let Some(r) = file.reviews {
            reviews::apply_file(&mut self.reviews, r)?;
        }
        if let Some(text) = file.store_notice {
            self.store_notice = store_notice::StoreNotice::parse(
                "store_notice",
                &text,
                "store_notice_id",
                file.store_notice_id.as_deref(),
            )?;
        } else if let Some(id) = file.store_notice_id {
            store_notice::NoticeId::parse("store_notice_id", &id)?;
        }
        if let Some(c) = file.currency {
            self.currency.apply(
                "currency",
                c.code.as_deref(),
                c.symbol.as_deref(),
                c.position.as_deref(),
                c.thousand_separator.as_deref(),
                c.decimal_separator.as_deref(),
                c.decimals,
            )?;
        }
        Ok(())
    }

    /// `get` reads one variable; taking it as a function keeps this testable.
    pub fn apply_env(&mut self, get: impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = get("FERROSHOP_BIND") {
            self.bind = parse_bind("FERROSHOP_BIND", &v)?;
        }
        if let Some(v) = get("FERROSHOP_DATABASE_URL") {
            self.database_url = v;
        }
        if let Some(v) = get("FERROSHOP_PUBLIC_URL") {
            self.public_url = Some(parse_public_url("FERROSHOP_PUBLIC_URL", &v)?);
        }
        if let Some(v) = get("FERROSHOP_ALLOWED_HOSTS") {
            let hosts: Vec<String> = v.split(',').map(str::to_string).collect();
            self.allowed_hosts = parse_hosts("FERROSHOP_ALLOWED_HOSTS", &hosts)?;
        }
        if let Some(v) = get("FERROSHOP_WEB_DIR") {
            self.web_dir = v.into();
        }
        if let Some(v) = get("FERROSHOP_SHOP_NAME") {
            self.shop_name = v;
        }
        for (name, field) in [
            (
                "FERROSHOP_WISHLIST_SIMPLE_FLOW",
                &mut self.wishlist.simple_flow,
            ),
            (
                "FERROSHOP_WISHLIST_ALLOW_PARENT_VARIABLE",
                &mut self.wishlist.allow_parent_variable,
            ),
            ("FERROSHOP_WISHLIST_REDIRECT", &mut self.wishlist.redirect),
            (
                "FERROSHOP_WISHLIST_SHOW_NOTICE",
                &mut self.wishlist.show_notice,
            ),
        ] {
            if let Some(v) = get(name) {
                *field = parse_yes_no(name, &v)?;
            }
        }
        if let Some(v) = get("FERROSHOP_CART_REDIRECT_AFTER_ADD") {
            self.cart_redirect_after_add = parse_yes_no("FERROSHOP_CART_REDIRECT_AFTER_ADD", &v)?;
        }
        if let Some(v) = get("FERROSHOP_LOG_FORMAT") {
            self.log_format = parse_log_format("FERROSHOP_LOG_FORMAT", &v)?;
        }
        if let Some(v) = get("FERROSHOP_MAX_BODY_BYTES") {
            self.max_body_bytes = v
                .parse()
                .map_err(|_| bad("FERROSHOP_MAX_BODY_BYTES", "expected a number of bytes"))?;
        }
        if let Some(v) = get("FERROSHOP_TRUST_PROXY") {
            self.trust_proxy = parse_yes_no("FERROSHOP_TRUST_PROXY", &v)?;
        }
        self.mail.apply_env(&get)?;
        let decimals = match get("FERROSHOP_PRICE_DECIMALS") {
            Some(v) => Some(
                v.parse()
                    .map_err(|_| bad("FERROSHOP_PRICE_DECIMALS", "expected 0 to 4"))?,
            ),
            None => None,
        };
        self.currency.apply(
            "FERROSHOP_CURRENCY",
            get("FERROSHOP_CURRENCY").as_deref(),
            get("FERROSHOP_CURRENCY_SYMBOL").as_deref(),
            get("FERROSHOP_CURRENCY_POSITION").as_deref(),
            get("FERROSHOP_THOUSAND_SEPARATOR").as_deref(),
            get("FERROSHOP_DECIMAL_SEPARATOR").as_deref(),
            decimals,
        )?;
        self.catalog.apply_env(&get)?;
        self.checkout.apply_env(&get)?;
        self.coming_soon.apply_env(&get)?;
        self.payments.apply_env(&get)?;
        self.payments.check()?;
        reviews::apply_env(&mut self.reviews, &get)?;
        self.render.apply_env(&get)?;
        self.store_notice = store_notice::from_settings(self.store_notice.take(), &get)?;
        if self.max_body_bytes < 1024 {
            return Err(bad("max_body_bytes", "must be at least 1024"));
        }
        Ok(())
    }
}

pub fn parse_bind(setting: &str, value: &str) -> Result<SocketAddr, ConfigError> {
    value.trim().parse().map_err(|_| {
        bad(
            setting,
            format!("{value:?} is not an address like 127.0.0.1:8080"),
        )
    })
}

/// `https://shop.example` or `http://127.0.0.1:8080`: a scheme and a host, no path.
fn parse_public_url(setting: &str, value: &str) -> Result<String, ConfigError> {
    let v = value.trim().trim_end_matches('/');
    let host = v
        .strip_prefix("https://")
        .or_else(|| v.strip_prefix("http://"))
        .ok_or_else(|| bad(setting, "must be an http:// or https:// address"))?;
    if crate::shop_url::HostPort::parse(host).is_none() {
        return Err(bad(
            setting,
            "must be a scheme and a host name only, like https://shop.example",
        ));
    }
    Ok(v.to_ascii_lowercase())
}

fn parse_hosts(setting: &str, values: &[String]) -> Result<Vec<String>, ConfigError> {
    values
        .iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
        .map(|v| {
            crate::shop_url::HostPort::parse(v)
                .map(|h| h.to_string())
                .ok_or_else(|| {
                    bad(
                        setting,
                        format!("{v:?} is not a host name like shop.example or 127.0.0.1:8080"),
                    )
                })
        })
        .collect()
}

fn parse_log_format(setting: &str, value: &str) -> Result<LogFormat, ConfigError> {
    match value.trim() {
        "text" => Ok(LogFormat::Text),
        "json" => Ok(LogFormat::Json),
        _ => Err(bad(setting, "expected text or json")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rules::settings::test_env as env;

    #[test]
    fn environment_overrides_defaults() {
        let mut c = Config::default();
        c.apply_env(env(&[
            ("FERROSHOP_BIND", "0.0.0.0:9000"),
            ("FERROSHOP_CURRENCY", "eur"),
            ("FERROSHOP_CURRENCY_POSITION", "right_space"),
            ("FERROSHOP_CART_REDIRECT_AFTER_ADD", "yes"),
        ]))
        .unwrap();
        assert_eq!(c.bind.port(), 9000);
        assert_eq!(c.currency.code, "EUR");
        assert_eq!(c.currency.symbol, "€");
        assert_eq!(c.currency.suffix(), " €");
        assert!(c.cart_redirect_after_add);
    }

    #[test]
    fn a_bad_value_names_its_setting() {
        let err = Config::default()
            .apply_env(env(&[("FERROSHOP_BIND", "nowhere")]))
            .unwrap_err();
        assert_eq!(err.setting, "FERROSHOP_BIND");
        let err = Config::default()
            .apply_env(env(&[("FERROSHOP_PRICE_DECIMALS", "9")]))
            .unwrap_err();
        assert_eq!(err.setting, "FERROSHOP_CURRENCY");
    }

    #[test]
    fn the_file_is_read_and_unknown_keys_are_refused() {
        let mut c = Config::default();
        c.apply_file(
            "f.toml",
            "shop_name = \"Lumen\"\n[currency]\ncode = \"GBP\"\n",
        )
        .unwrap();
        assert_eq!(c.shop_name, "Lumen");
        assert_eq!(c.currency.symbol, "£");
        assert!(c.apply_file("f.toml", "colour = 1").is_err());
    }

    #[test]
    fn the_store_notice_comes_from_the_file_or_the_environment() {
        let mut c = Config::default();
        c.apply_file(
            "f.toml",
            "store_notice = \"Sale\"\nstore_notice_id = \"sale-1\"\n",
        )
        .unwrap();
        let notice = c.store_notice.clone().unwrap();
        assert_eq!((notice.text(), notice.id().as_str()), ("Sale", "sale-1"));
        c.apply_env(env(&[("FERROSHOP_STORE_NOTICE", "")])).unwrap();
        assert_eq!(c.store_notice, None, "an empty text takes the notice away");
        assert!(c.apply_file("f.toml", "store_notice_id = \"a b\"").is_err());
    }
}
