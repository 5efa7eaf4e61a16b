//! The storefront's built entry page and files, and the engines that render its
//! pages on the server, found at start-up.

use std::path::{Path, PathBuf};
use std::time::Duration;

use render::{Limits, Renderer};

use crate::config::RenderConfig;
use crate::ssr::{PageAssets, PageCache};

/// The storefront's entry page, read once at start-up.
pub struct Pages {
    pub index: Option<String>,
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
        let index = index.map(|page| crate::ssr::inline_shell_styles(&page, &assets));
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
