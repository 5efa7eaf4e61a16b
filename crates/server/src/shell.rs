//! The storefront's built entry page, files and styles, the engines that render its
//! pages on the server, and the cache of pages rendered for no one in particular,
//! set up at start-up.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use quick_cache::sync::Cache;
use render::{Limits, Renderer};

use crate::config::RenderConfig;

/// The storefront's entry page, read once at start-up.
pub struct Pages {
    pub index: Option<IndexTemplate>,
    pub dir: PathBuf,
    /// Renders pages on the server; None when off or the server bundle is missing
    /// (pages are then the bare app, rendered by the browser).
    pub renderer: Option<Renderer>,
    /// Each page's own code and styles.
    pub assets: PageAssets,
    /// Pages rendered for visitors without a session.
    pub cache: PageCache,
}

impl Pages {
    pub fn load(dir: &Path, render: &RenderConfig) -> Self {
        let index = std::fs::read_to_string(dir.join("index.html")).ok();
        if index.is_none() {
            tracing::warn!(dir = %dir.display(), "no built storefront found; the APIs work, pages show a notice (build with `make web`)");
        }
        let renderer = if render.enabled && index.is_some() {
            start_renderer(&render.bundle_path(dir), render)
        } else {
            None
        };
        let assets = PageAssets::load(dir);
        let index = index.map(|page| IndexTemplate::new(&inline_shell_styles(&page, &assets)));
        Self {
            index,
            dir: dir.to_owned(),
            renderer,
            assets,
            cache: PageCache::default(),
        }
    }
}

fn start_renderer(bundle: &Path, config: &RenderConfig) -> Option<Renderer> {
    let Ok(source) = std::fs::read_to_string(bundle) else {
        tracing::warn!(bundle = %bundle.display(), "no server bundle found; pages are rendered by the browser (build with `make web`)");
        return None;
    };
    let limits = Limits {
        engines: config.engines,
        memory_per_engine: config.memory_mb << 20,
        render_time: Duration::from_millis(config.timeout_ms),
        ..Limits::default()
    };
    let started = std::time::Instant::now();
    match Renderer::start(&source, limits) {
        Ok(renderer) => {
            tracing::info!(
                engines = config.engines,
                ms = started.elapsed().as_millis() as u64,
                "server rendering ready"
            );
            Some(renderer)
        }
        Err(e) => {
            tracing::error!(bundle = %bundle.display(), error = %e, "the server bundle did not load; pages are rendered by the browser");
            None
        }
    }
}

/// The page cache's size: the HTML and data it holds, in bytes.
const PAGE_CACHE_BYTES: u64 = 32 << 20;

/// A rendered page as the page cache keeps it: its root element, ready to go in.
pub struct CachedPage {
    pub page: Arc<AppHtml>,
    pub catalog_version: i64,
    pub made: Instant,
}

#[derive(Clone)]
pub struct PageWeight;

impl quick_cache::Weighter<String, Arc<CachedPage>> for PageWeight {
    fn weight(&self, key: &String, page: &Arc<CachedPage>) -> u64 {
        (key.len() + page.page.len()) as u64
    }
}

pub struct PageCache(pub Cache<String, Arc<CachedPage>, PageWeight>);

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
    /// Both as the elements of the page's head (see `route_style`), made once.
    pub element: String,
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
    "src/app/routes/brands.tsx",
    "src/app/routes/product.tsx",
    "src/app/routes/cart.tsx",
    "src/app/routes/checkout.tsx",
    "src/app/routes/order-received.tsx",
    "src/app/routes/order-pay.tsx",
    "src/app/routes/order-tracking.tsx",
    "src/app/routes/account.tsx",
    "src/app/routes/contact.tsx",
    "src/app/routes/wishlist.tsx",
];

/// Parts a page renders on the server but whose code the browser fetches apart (the
/// product page's reviews): their styles come with the page, so nothing moves when
/// the code arrives.
const ROUTE_COMPANIONS: &[(&str, &str)] = &[(
    "src/app/routes/product.tsx",
    "src/features/reviews/components/product-reviews.tsx",
)];

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
                let companions = ROUTE_COMPANIONS
                    .iter()
                    .filter(|(route, _)| route == module)
                    .flat_map(|(_, part)| collect(&manifest, part).1);
                let mut own: Vec<&str> = Vec::new();
                for sheet in collect(&manifest, module).1.into_iter().chain(companions) {
                    if !shell_files.contains(&sheet) && !own.contains(&sheet) {
                        own.push(sheet);
                    }
                }
                let mut assets = RouteAssets {
                    style: read(&own),
                    files: own.iter().map(|f| format!("/{f}")).collect(),
                    element: String::new(),
                };
                assets.element = route_style(&assets);
                (*module, assets)
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
            ["brands"] => "src/app/routes/brands.tsx",
            ["product", _] => "src/app/routes/product.tsx",
            ["cart"] => "src/app/routes/cart.tsx",
            ["checkout"] => "src/app/routes/checkout.tsx",
            ["checkout", "order-received", _] => "src/app/routes/order-received.tsx",
            ["checkout", "order-pay", _] => "src/app/routes/order-pay.tsx",
            ["order-tracking"] => "src/app/routes/order-tracking.tsx",
            ["contact"] => "src/app/routes/contact.tsx",
            ["wishlist", ..] => "src/app/routes/wishlist.tsx",
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

/// The title the built entry page carries, which each page replaces.
pub const TITLE_TAG: &str = "<title>Ferroshop</title>";
/// Where each page's head (meta tags, settings, structured data) goes.
pub const HEAD_MARKER: &str = "<!--ferroshop:head-->";
/// The app's empty root element, which a rendered page fills.
pub const ROOT: &str = "<div id=\"root\"></div>";

/// Where a rendered page holds the visitor's own session nonce (the review form's
/// field without scripts): a rendered page may be served to many visitors, so the
/// nonce goes in as the page is sent, never into the render.
pub const SESSION_NONCE_SLOT: &str = "@@ferroshop:session-nonce@@";

/// A page rendered on the server, as it goes in the entry page: the root element
/// with the app's HTML, and the data it was rendered with beside it, cut where the
/// session's nonce goes (once, when the render is made).
pub struct AppHtml {
    pieces: Vec<String>,
}

impl AppHtml {
    pub fn new(html: &str) -> Self {
        Self {
            pieces: html.split(SESSION_NONCE_SLOT).map(str::to_string).collect(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.pieces.iter().map(String::len).sum()
    }

    /// The HTML with `nonce` in each slot.
    fn write(&self, out: &mut String, nonce: &str) {
        for (i, piece) in self.pieces.iter().enumerate() {
            if i > 0 {
                out.push_str(nonce);
            }
            out.push_str(piece);
        }
    }

    /// The HTML as rendered, slots and all (tests).
    pub fn as_rendered(&self) -> String {
        self.pieces.join(SESSION_NONCE_SLOT)
    }
}

/// The entry page cut where each page fills it in, so a page is written in one pass
/// into one buffer rather than copied once per place.
pub struct IndexTemplate {
    pieces: Vec<Piece>,
    text_len: usize,
}

enum Piece {
    Text(String),
    Title,
    Head,
    Styles,
    Root,
}

/// What one page puts into the entry page.
pub struct PageFill<'a> {
    pub title: &'a str,
    pub head: &'a str,
    pub styles: &'a str,
    /// None: the bare app, rendered by the browser.
    pub app: Option<&'a AppHtml>,
    /// This visitor's Store API nonce, for the app's session-nonce slots.
    pub session_nonce: &'a str,
}

impl IndexTemplate {
    pub fn new(index: &str) -> Self {
        let mut marks: Vec<(usize, &str, Piece)> = [
            (TITLE_TAG, Piece::Title),
            (HEAD_MARKER, Piece::Head),
            (STYLES_MARKER, Piece::Styles),
            (ROOT, Piece::Root),
        ]
        .into_iter()
        .filter_map(|(mark, piece)| index.find(mark).map(|at| (at, mark, piece)))
        .collect();
        marks.sort_by_key(|(at, _, _)| *at);
        let mut pieces = Vec::new();
        let mut from = 0;
        for (at, mark, piece) in marks {
            pieces.push(Piece::Text(index[from..at].to_string()));
            pieces.push(piece);
            from = at + mark.len();
        }
        pieces.push(Piece::Text(index[from..].to_string()));
        Self {
            pieces,
            text_len: index.len(),
        }
    }

    pub fn fill(&self, page: &PageFill) -> String {
        let mut out = String::with_capacity(
            self.text_len
                + page.title.len()
                + page.head.len()
                + page.styles.len()
                + page.app.map_or(0, AppHtml::len)
                + 64,
        );
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Title => out.push_str(page.title),
                Piece::Head => out.push_str(page.head),
                Piece::Styles => out.push_str(page.styles),
                Piece::Root => match page.app {
                    Some(app) => app.write(&mut out, page.session_nonce),
                    None => out.push_str(ROOT),
                },
            }
        }
        out
    }
}

#[cfg(test)]
mod template_tests {
    use super::*;

    #[test]
    fn a_page_fills_each_place_once_and_the_bare_app_keeps_its_root() {
        let index = format!(
            "<head>{TITLE_TAG}<style>a</style>{STYLES_MARKER}{HEAD_MARKER}</head><body>{ROOT}<p>{ROOT}</p></body>"
        );
        let template = IndexTemplate::new(&index);
        let app = AppHtml::new("<div id=\"root\">shop</div>");
        let page = template.fill(&PageFill {
            title: "<title>Beanie</title>",
            head: "<meta name=\"description\" content=\"warm\">",
            styles: "<style>b</style>",
            app: Some(&app),
            session_nonce: "n",
        });
        assert_eq!(
            page,
            format!("<head><title>Beanie</title><style>a</style><style>b</style><meta name=\"description\" content=\"warm\"></head><body><div id=\"root\">shop</div><p>{ROOT}</p></body>")
        );
        let bare = template.fill(&PageFill {
            title: "",
            head: "",
            styles: "",
            app: None,
            session_nonce: "n",
        });
        assert_eq!(
            bare,
            format!("<head><style>a</style></head><body>{ROOT}<p>{ROOT}</p></body>")
        );
    }

    #[test]
    fn each_visitor_gets_their_own_nonce_in_a_page_rendered_once() {
        let template = IndexTemplate::new(&format!("<body>{ROOT}</body>"));
        let app = AppHtml::new(&format!(
            "<div id=\"root\"><input value=\"{SESSION_NONCE_SLOT}\"><i>{SESSION_NONCE_SLOT}</i></div>"
        ));
        let fill = |nonce| {
            template.fill(&PageFill {
                title: "",
                head: "",
                styles: "",
                app: Some(&app),
                session_nonce: nonce,
            })
        };
        assert_eq!(
            fill("abc123"),
            "<body><div id=\"root\"><input value=\"abc123\"><i>abc123</i></div></body>"
        );
        assert!(fill("zzz").contains("value=\"zzz\""));
        assert!(!fill("zzz").contains(SESSION_NONCE_SLOT));
    }
}
