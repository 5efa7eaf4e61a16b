//! Pages rendered on the server: the storefront's own components, run by the
//! `render` crate's engines, with their data from the shop's API in process. The
//! finished HTML goes inside the page's root element, the data it was rendered with
//! beside it, and the page's own code and styles are named in its head so the
//! browser fetches them at once.
//!
//! A visitor the shop does not know yet (no session: crawlers, link previews, a first
//! visit) sees catalogue pages that are the same for everyone: those are kept for a
//! second per page, query and catalogue version, so a burst of such visits renders
//! each page once. Everyone else's pages are rendered for them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request};
use axum::Router;
use quick_cache::sync::Cache;
use render::{FetchAnswer, Fetcher, Rendered};
use tower::ServiceExt;

use crate::http::store_api::StoreCtx;
use crate::session::SessionSource;
use crate::state::AppState;

/// The shop's API, for the renders' data; built once with the app.
#[derive(Clone)]
pub struct PageApi(pub Router);

/// A rendered page as the page cache keeps it.
pub struct CachedPage {
    page: Arc<Rendered>,
    catalog_version: i64,
    made: Instant,
}

/// How long a page rendered for no one in particular is served again: stock and
/// prices shown are never older than this.
const PAGE_CACHE_TTL: Duration = Duration::from_secs(1);
/// The page cache's size: the HTML and data it holds, in bytes.
const PAGE_CACHE_BYTES: u64 = 32 << 20;
/// An API answer a render may read; a larger one is refused.
const API_ANSWER_LIMIT: usize = 4 << 20;

#[derive(Clone)]
struct PageWeight;

impl quick_cache::Weighter<String, Arc<CachedPage>> for PageWeight {
    fn weight(&self, key: &String, page: &Arc<CachedPage>) -> u64 {
        (key.len() + page.page.html.len() + page.page.state.len()) as u64
    }
}

pub struct PageCache(Cache<String, Arc<CachedPage>, PageWeight>);

impl Default for PageCache {
    fn default() -> Self {
        Self(Cache::with_weighter(1024, PAGE_CACHE_BYTES, PageWeight))
    }
}

/// The styles each page needs for its first paint, from the storefront build's
/// manifest, put in the page itself: the shell's (the app's own and its global
/// styles) and each page's (its chunk and every chunk it imports). A page then paints
/// with no request but its own; its code follows after the first paint (boot.ts).
#[derive(Default)]
pub struct PageAssets {
    /// Every page's styles.
    pub shell: String,
    /// Their files (`/assets/…`).
    pub shell_files: Vec<String>,
    by_route: HashMap<&'static str, RouteAssets>,
}

#[derive(Default, Clone)]
pub struct RouteAssets {
    /// The page's own styles, beyond the shell's.
    pub style: String,
    /// Their files (`/assets/…`).
    pub files: Vec<String>,
}

#[derive(serde::Deserialize)]
struct ManifestChunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    css: Vec<String>,
}

/// The app's module: its styles belong to every page.
const APP_MODULE: &str = "src/main.tsx";

/// Each page's module in the storefront's source, as the manifest names it.
const ROUTE_MODULES: &[&str] = &[
    "src/app/routes/home.tsx",
    "src/app/routes/shop.tsx",
    "src/app/routes/category.tsx",
    "src/app/routes/brand.tsx",
    "src/app/routes/product.tsx",
    "src/app/routes/cart.tsx",
    "src/app/routes/checkout.tsx",
    "src/app/routes/order-received.tsx",
    "src/app/routes/order-pay.tsx",
    "src/app/routes/order-tracking.tsx",
    "src/app/routes/account.tsx",
];

impl PageAssets {
    pub fn load(web_dir: &Path) -> Self {
        let Ok(text) = std::fs::read_to_string(web_dir.join(".vite/manifest.json")) else {
            return Self::default();
        };
        let Ok(manifest) = serde_json::from_str::<HashMap<String, ManifestChunk>>(&text) else {
            tracing::warn!("the storefront's manifest did not parse; pages load their styles");
            return Self::default();
        };
        let read = |files: &[&str]| -> String {
            files
                .iter()
                .filter_map(|f| std::fs::read_to_string(web_dir.join(f)).ok())
                .collect::<Vec<_>>()
                .join("\n")
        };
        let mut shell_files: Vec<&str> = manifest
            .iter()
            .filter(|(key, _)| key.ends_with(".html"))
            .flat_map(|(key, _)| collect(&manifest, key).1)
            .collect();
        for sheet in collect(&manifest, APP_MODULE).1 {
            if !shell_files.contains(&sheet) {
                shell_files.push(sheet);
            }
        }
        let by_route = ROUTE_MODULES
            .iter()
            .filter(|module| manifest.contains_key(**module))
            .map(|module| {
                let own: Vec<&str> = collect(&manifest, module)
                    .1
                    .into_iter()
                    .filter(|f| !shell_files.contains(f))
                    .collect();
                let files = own.iter().map(|f| format!("/{f}")).collect();
                (
                    *module,
                    RouteAssets {
                        style: read(&own),
                        files,
                    },
                )
            })
            .collect();
        Self {
            shell: read(&shell_files),
            shell_files: shell_files.iter().map(|f| format!("/{f}")).collect(),
            by_route,
        }
    }

    /// What the page at `segments` needs.
    pub fn for_page(&self, segments: &[&str]) -> Option<&RouteAssets> {
        let module = match segments {
            [] => "src/app/routes/home.tsx",
            ["shop", ..] => "src/app/routes/shop.tsx",
            ["product-category", ..] => "src/app/routes/category.tsx",
            ["brand", _] => "src/app/routes/brand.tsx",
            ["product", _] => "src/app/routes/product.tsx",
            ["cart"] => "src/app/routes/cart.tsx",
            ["checkout"] => "src/app/routes/checkout.tsx",
            ["checkout", "order-received", _] => "src/app/routes/order-received.tsx",
            ["checkout", "order-pay", _] => "src/app/routes/order-pay.tsx",
            ["order-tracking"] => "src/app/routes/order-tracking.tsx",
            ["my-account", ..] => "src/app/routes/account.tsx",
            _ => return None,
        };
        self.by_route.get(module)
    }
}

/// A chunk's files and styles, its imports' first (the order a browser needs them).
fn collect<'m>(
    manifest: &'m HashMap<String, ManifestChunk>,
    key: &str,
) -> (Vec<&'m str>, Vec<&'m str>) {
    fn walk<'m>(
        manifest: &'m HashMap<String, ManifestChunk>,
        key: &str,
        scripts: &mut Vec<&'m str>,
        styles: &mut Vec<&'m str>,
    ) {
        let Some(chunk) = manifest.get(key) else {
            return;
        };
        if scripts.contains(&chunk.file.as_str()) {
            return;
        }
        scripts.push(&chunk.file);
        for import in &chunk.imports {
            walk(manifest, import, scripts, styles);
        }
        for sheet in &chunk.css {
            if !styles.contains(&sheet.as_str()) {
                styles.push(sheet);
            }
        }
    }
    let (mut scripts, mut styles) = (Vec::new(), Vec::new());
    walk(manifest, key, &mut scripts, &mut styles);
    (scripts, styles)
}

/// Whether the page at `segments` shows the same to every visitor without a session.
fn shared_page(segments: &[&str]) -> bool {
    matches!(
        segments,
        [] | ["shop", ..] | ["product-category", ..] | ["brand", _] | ["product", _]
    )
}

/// The page's app HTML and data, rendered (or from the page cache); None when the
/// page is to be the bare app (no engines, or the render failed: logged).
pub async fn render_page(
    state: &AppState,
    api: Option<&PageApi>,
    ctx: &StoreCtx,
    request: &axum::http::request::Parts,
    segments: &[&str],
    settings: &str,
    cacheable: bool,
) -> Option<Arc<Rendered>> {
    let renderer = state.pages.renderer.as_ref()?;
    let api = api?;
    let url = match request.uri.query() {
        Some(q) => format!("{}?{q}", request.uri.path()),
        None => request.uri.path().to_string(),
    };
    let catalog_version = state.catalog.get().version;
    let shared = cacheable && ctx.session.source == SessionSource::New && shared_page(segments);
    if shared {
        if let Some(hit) = state.pages.cache.0.get(&url) {
            if hit.catalog_version == catalog_version && hit.made.elapsed() < PAGE_CACHE_TTL {
                return Some(hit.page.clone());
            }
        }
    }
    let input = serde_json::json!({ "url": url, "settings": settings }).to_string();
    let fetch = in_process(api, ctx, request);
    let started = Instant::now();
    match renderer.render(input, fetch).await {
        Ok(page) => {
            tracing::debug!(
                url,
                rounds = page.rounds,
                fetches = page.fetches,
                us = started.elapsed().as_micros() as u64,
                "page rendered"
            );
            let page = Arc::new(page);
            if shared {
                state.pages.cache.0.insert(
                    url,
                    Arc::new(CachedPage {
                        page: page.clone(),
                        catalog_version,
                        made: Instant::now(),
                    }),
                );
            }
            Some(page)
        }
        Err(e) => {
            tracing::warn!(url, error = %e, "server render failed; the page is rendered by the browser");
            None
        }
    }
}

/// The render's API calls: GETs of the shop's own API, answered in process for the
/// page's visitor (their cookies, the page's address), on the engine's thread.
fn in_process(api: &PageApi, ctx: &StoreCtx, request: &axum::http::request::Parts) -> Fetcher {
    let router = api.0.clone();
    let handle = tokio::runtime::Handle::current();
    let cookie = request.headers.get(header::COOKIE).cloned();
    let base = ctx.base_url.clone();
    Box::new(move |method: &str, url: &str| {
        let refused = |status| FetchAnswer {
            status,
            ..FetchAnswer::default()
        };
        if method != "GET" || !url.starts_with("/wp-json/") {
            return refused(404);
        }
        let mut builder = Request::get(url).header(header::ACCEPT, "application/json");
        if let Some(cookie) = &cookie {
            builder = builder.header(header::COOKIE, cookie.clone());
        }
        let Ok(mut req) = builder.body(Body::empty()) else {
            return refused(400);
        };
        req.extensions_mut().insert(base.clone());
        let answer = handle.block_on(async {
            let res = router.clone().oneshot(req).await.ok()?;
            let (parts, body) = res.into_parts();
            let body = axum::body::to_bytes(body, API_ANSWER_LIMIT).await.ok()?;
            Some((parts, body))
        });
        let Some((parts, body)) = answer else {
            return refused(503);
        };
        let mut headers = String::new();
        for (name, value) in &parts.headers {
            if name == header::SET_COOKIE {
                continue;
            }
            if let Ok(value) = value.to_str() {
                headers.push_str(name.as_str());
                headers.push_str(": ");
                headers.push_str(value);
                headers.push('\n');
            }
        }
        FetchAnswer {
            status: parts.status.as_u16(),
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    })
}

/// The page with the rendered app in its root element and its data beside it.
pub fn compose(index: &str, page: &Rendered) -> String {
    const ROOT: &str = "<div id=\"root\"></div>";
    let state = escape_script_json(&page.state);
    let filled = format!(
        "<div id=\"root\">{}</div>\n    <script id=\"ferroshop-state\" type=\"application/json\">{state}</script>",
        page.html
    );
    index.replacen(ROOT, &filled, 1)
}

/// JSON text safe inside a `<script>` element: no `<` can close it early.
pub fn escape_script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// Where a page's own styles go: after the shell's.
pub const STYLES_MARKER: &str = "<!--ferroshop:styles-->";

/// The page's own styles, as an element of its head.
pub fn route_style(assets: &RouteAssets) -> String {
    if assets.style.is_empty() {
        return String::new();
    }
    format!(
        "<style>{}</style>{}",
        assets.style.replace("</", "<\\/"),
        placeholders(&assets.files)
    )
}

/// Disabled links to the inlined files (never fetched): the app's loader, seeing a
/// page's styles already linked, does not fetch and apply them a second time.
fn placeholders(files: &[String]) -> String {
    files
        .iter()
        .map(|f| format!("<link rel=\"stylesheet\" href=\"{f}\" disabled>"))
        .collect()
}

/// The built entry page with its stylesheet links replaced by the shell's styles,
/// inline, where the first of them was.
pub fn inline_shell_styles(index: &str, assets: &PageAssets) -> String {
    if assets.shell.is_empty() {
        return index.to_string();
    }
    let mut out = String::with_capacity(index.len() + assets.shell.len());
    let mut placed = false;
    for line in index.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("<link rel=\"stylesheet\"") && trimmed.contains("href=\"/assets/") {
            if !placed {
                out.push_str(&format!(
                    "    <style>{}</style>{}{STYLES_MARKER}\n",
                    assets.shell.replace("</", "<\\/"),
                    placeholders(&assets.shell_files)
                ));
                placed = true;
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
