//! Pages rendered on the server: the storefront's own components, run by the
//! `render` crate's engines, with their data from the shop's API in process. The
//! finished HTML goes inside the page's root element and the data it was rendered
//! with beside it (the page's styles are in its head: see `shell`).
//!
//! A visitor the shop does not know yet (no session: crawlers, link previews, a first
//! visit) sees catalogue pages that are the same for everyone: those are kept for a
//! second per page, query and catalogue version, so a burst of such visits renders
//! each page once. Everyone else's pages are rendered for them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request};
use axum::Router;
use render::{FetchAnswer, Fetcher, Rendered};
use tower::ServiceExt;

use crate::http::store_api::StoreCtx;
use crate::session::SessionSource;
use crate::shell::{AppHtml, CachedPage};
use crate::state::AppState;

/// The shop's API, for the renders' data; built once with the app.
#[derive(Clone)]
pub struct PageApi(pub Router);

/// How long a page rendered for no one in particular is served again: stock and
/// prices shown are never older than this.
const PAGE_CACHE_TTL: Duration = Duration::from_secs(1);
/// An API answer a render may read; a larger one is refused.
const API_ANSWER_LIMIT: usize = 4 << 20;

/// Whether the page at `segments` shows the same to every visitor without a session.
fn shared_page(segments: &[&str]) -> bool {
    matches!(
        segments,
        [] | ["shop", ..] | ["product-category", ..] | ["brand", _] | ["brands"] | ["product", _]
    )
}

/// Whether a page may come from (and go to) the cache of pages rendered for no one in
/// particular.
#[derive(Debug, Clone, Copy)]
pub enum PageCache {
    /// The page says something to this request alone (what its form did).
    Never,
    /// The page is the same for every visitor without a session whose page settings
    /// share this variant (a page without the dismissed store notice is kept apart).
    Shared(&'static str),
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
    cache: PageCache,
) -> Option<Arc<AppHtml>> {
    let renderer = state.pages.renderer.as_ref()?;
    let api = api?;
    let url = match request.uri.query() {
        Some(q) => format!("{}?{q}", request.uri.path()),
        None => request.uri.path().to_string(),
    };
    let catalog_version = state.catalog.get().version;
    let variant = match cache {
        PageCache::Shared(variant)
            if ctx.session.source == SessionSource::New && shared_page(segments) =>
        {
            Some(variant)
        }
        _ => None,
    };
    let shared = variant.is_some();
    // No address holds a NUL, so no variant's key is another page's.
    let key = format!("{url}\0{}", variant.unwrap_or_default());
    if shared {
        if let Some(hit) = state.pages.cache.0.get(&key) {
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
                engine_kb = page.engine_bytes / 1024,
                "page rendered"
            );
            let page = Arc::new(app_html(&page));
            if shared {
                state.pages.cache.0.insert(
                    key,
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

/// The root element with the rendered app, and its data beside it.
pub fn app_html(page: &Rendered) -> AppHtml {
    let mut out = String::with_capacity(page.html.len() + page.state.len() + 128);
    out.push_str("<div id=\"root\">");
    out.push_str(&page.html);
    out.push_str("</div>\n    <script id=\"ferroshop-state\" type=\"application/json\">");
    push_script_json(&mut out, &page.state);
    out.push_str("</script>");
    AppHtml::new(&out)
}

/// JSON text safe inside a `<script>` element: no `<` can close it early.
pub fn escape_script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    push_script_json(&mut out, json);
    out
}

/// Appends `json` with `<`, `>` and `&` written as JSON escapes, in one pass.
fn push_script_json(out: &mut String, json: &str) {
    let mut from = 0;
    for (at, byte) in json.bytes().enumerate() {
        let escaped = match byte {
            b'<' => "\\u003c",
            b'>' => "\\u003e",
            b'&' => "\\u0026",
            _ => continue,
        };
        out.push_str(&json[from..at]);
        out.push_str(escaped);
        from = at + 1;
    }
    out.push_str(&json[from..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_cannot_close_it_or_start_markup() {
        let json = r#"{"name":"</script><script>alert(1)</script>","note":"a & b > c <!--"}"#;
        let escaped = escape_script_json(json);
        assert!(!escaped.contains('<') && !escaped.contains('>') && !escaped.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(json).unwrap()
        );
        assert_eq!(escape_script_json("plain"), "plain");
        assert_eq!(escape_script_json("é<"), "é\\u003c");
    }

    #[test]
    fn the_app_goes_in_its_root_with_its_data_beside_it() {
        let page = Rendered {
            html: "<main>Beanie</main>".into(),
            state: r#"{"q":"</script>"}"#.into(),
            ..Rendered::default()
        };
        assert_eq!(
            app_html(&page).as_rendered(),
            "<div id=\"root\"><main>Beanie</main></div>\n    <script id=\"ferroshop-state\" type=\"application/json\">{\"q\":\"\\u003c/script\\u003e\"}</script>"
        );
    }
}
