//! What search engines read besides the pages: `robots.txt` and the sitemaps. Every
//! link in them starts with the shop's own address (`shop_url`), never with whatever
//! host a request names.
//!
//! `/sitemap.xml` lists the shop's pages, its categories and brands that have products
//! to show, and every product shown in the catalogue or found by search, in that order.
//! Up to `URLS_PER_FILE` addresses it is one list; past that it is an index of files
//! `/sitemaps/N.xml` of at most that many each, as the sitemaps protocol requires.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use rules::catalog::index::Catalog;
use rules::catalog::model::{ProductKind, ProductStatus};
use tokio::sync::Semaphore;

use crate::shop_url::BaseUrl;
use crate::state::SharedState;

/// The sitemaps protocol's limit of addresses per file.
pub const URLS_PER_FILE: usize = 50_000;

#[derive(Template)]
#[template(path = "seo/robots.txt", escape = "none")]
struct Robots<'a> {
    sitemap: &'a str,
}

struct Entry {
    loc: String,
    lastmod: Option<String>,
}

#[derive(Template)]
#[template(path = "seo/urlset.xml")]
struct UrlSet<'a> {
    entries: &'a [Entry],
}

#[derive(Template)]
#[template(path = "seo/sitemap_index.xml")]
struct SitemapIndex<'a> {
    files: &'a [String],
}

pub async fn robots(Extension(base): Extension<BaseUrl>) -> Response {
    let body = Robots {
        sitemap: &base.link("/sitemap.xml"),
    }
    .render()
    .unwrap_or_default();
    answer("text/plain; charset=utf-8", body, None)
}

pub async fn sitemap(
    State(state): State<SharedState>,
    Extension(base): Extension<BaseUrl>,
    req: Request,
) -> Response {
    let catalog = state.catalog.get();
    if let Some(res) = unchanged(&catalog, &base, 0, &req) {
        return res;
    }
    let files = files(count(&catalog), URLS_PER_FILE);
    if files == 0 {
        return rendered(catalog, base, 0, 0).await;
    }
    let links: Vec<String> = (1..=files)
        .map(|n| base.link(&format!("/sitemaps/{n}.xml")))
        .collect();
    let body = SitemapIndex { files: &links }.render().unwrap_or_default();
    let tag = etag(&catalog, &base, 0);
    answer(XML, body, Some(tag))
}

/// `/sitemaps/N.xml`: the N-th file of a split sitemap (from 1). Any other name, or a
/// file past the last, is the storefront's page-not-found.
pub async fn sitemap_file(
    State(state): State<SharedState>,
    Extension(base): Extension<BaseUrl>,
    Path(file): Path<String>,
    req: Request,
) -> Response {
    let catalog = state.catalog.get();
    match file_start(&file, count(&catalog), URLS_PER_FILE) {
        Some(from) => {
            let n = from / URLS_PER_FILE + 1;
            if let Some(res) = unchanged(&catalog, &base, n, &req) {
                return res;
            }
            rendered(catalog, base, from, n).await
        }
        None => {
            let api = req.extensions().get::<crate::ssr::PageApi>().cloned();
            crate::web::page(State(state), api.map(Extension), req).await
        }
    }
}

/// One list of up to `URLS_PER_FILE` addresses, written off the async threads and one
/// at a time per instance: 50,000 addresses take milliseconds to write (and more to
/// compress), and a flood of sitemap requests must not take the shop's threads.
async fn rendered(catalog: Arc<Catalog>, base: BaseUrl, from: usize, n: usize) -> Response {
    static WRITING: Semaphore = Semaphore::const_new(1);
    let Ok(_turn) = WRITING.acquire().await else {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    let tag = etag(&catalog, &base, n);
    let written = tokio::task::spawn_blocking(move || {
        url_set(&entries(&catalog, &base, from, URLS_PER_FILE))
    })
    .await;
    match written {
        Ok(body) => answer(XML, body, Some(tag)),
        Err(_) => crate::error::ApiError::internal().into_response(),
    }
}

/// A sitemap changes only with the catalogue: a crawler that asks again with the tag
/// it was given gets a 304, and nothing is written again.
fn etag(catalog: &Catalog, base: &BaseUrl, n: usize) -> HeaderValue {
    let mut hasher = std::hash::DefaultHasher::new();
    base.as_str().hash(&mut hasher);
    HeaderValue::from_str(&format!(
        "\"{}-{n}-{:x}\"",
        catalog.version,
        hasher.finish()
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("\"0\""))
}

fn unchanged(catalog: &Catalog, base: &BaseUrl, n: usize, req: &Request) -> Option<Response> {
    let tag = etag(catalog, base, n);
    let asked = req.headers().get(header::IF_NONE_MATCH)?.to_str().ok()?;
    let matches = asked
        .split(',')
        .any(|t| t.trim() == "*" || t.trim().as_bytes() == tag.as_bytes());
    matches.then(|| {
        let mut res = StatusCode::NOT_MODIFIED.into_response();
        res.headers_mut().insert(header::ETAG, tag);
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE));
        res
    })
}

/// How many files a sitemap of `total` addresses is split into: 0 when it is one list.
fn files(total: usize, per_file: usize) -> usize {
    if total <= per_file {
        0
    } else {
        total.div_ceil(per_file)
    }
}

/// Where the file named `name` (`N.xml`, N from 1, no leading zeros) starts in the
/// whole list, if the sitemap is split and has that file.
fn file_start(name: &str, total: usize, per_file: usize) -> Option<usize> {
    let number = name.strip_suffix(".xml")?;
    if number.is_empty() || number.starts_with('0') || number.len() > 9 {
        return None;
    }
    let n: usize = number.parse().ok()?;
    (n <= files(total, per_file)).then(|| (n - 1) * per_file)
}

const CACHE: &str = "public, max-age=3600";

const XML: &str = "application/xml; charset=utf-8";

fn answer(content_type: &'static str, body: String, etag: Option<HeaderValue>) -> Response {
    let mut res = (StatusCode::OK, body).into_response();
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE));
    if let Some(etag) = etag {
        headers.insert(header::ETAG, etag);
    }
    res
}

fn url_set(entries: &[Entry]) -> String {
    UrlSet { entries }.render().unwrap_or_default()
}

/// The shop's own pages that search engines should know.
const PAGES: [&str; 4] = ["/", "/shop/", "/brands/", "/contact/"];

fn listed(p: &rules::catalog::model::Product) -> bool {
    p.kind != ProductKind::Variation
        && p.status == ProductStatus::Publish
        && (p.visibility.in_catalog() || p.visibility.in_search())
}

fn count(catalog: &Catalog) -> usize {
    PAGES.len() + terms(catalog).count() + catalog.top_level().filter(|p| listed(p)).count()
}

/// The paths of the categories and brands that have something to show.
fn terms(catalog: &Catalog) -> impl Iterator<Item = String> + '_ {
    let categories = catalog
        .data
        .categories
        .iter()
        .filter(|c| catalog.category_count(c.id) > 0)
        .map(|c| format!("/product-category/{}/", c.slug));
    let brands = catalog
        .data
        .brands
        .iter()
        .filter(|b| catalog.brand_count(b.id) > 0)
        .map(|b| format!("/brand/{}/", b.slug));
    categories.chain(brands)
}

/// Up to `take` entries of the whole list, from position `skip`.
fn entries(catalog: &Catalog, base: &BaseUrl, skip: usize, take: usize) -> Vec<Entry> {
    let pages = PAGES.iter().map(|path| Entry {
        loc: base.link(path),
        lastmod: None,
    });
    let terms = terms(catalog).map(|path| Entry {
        loc: base.link(&path),
        lastmod: None,
    });
    let products = catalog.top_level().filter(|p| listed(p)).map(|p| Entry {
        loc: base.link(&format!("/product/{}/", p.slug)),
        lastmod: Some(rules::clock::w3c_date(p.updated_at)),
    });
    pages
        .chain(terms)
        .chain(products)
        .skip(skip)
        .take(take)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sitemap_is_split_only_past_the_limit() {
        assert_eq!(files(0, 3), 0);
        assert_eq!(files(3, 3), 0);
        assert_eq!(files(4, 3), 2);
        assert_eq!(files(9, 3), 3);
        assert_eq!(files(10, 3), 4);
        assert_eq!(files(50_000, URLS_PER_FILE), 0);
        assert_eq!(files(100_003, URLS_PER_FILE), 3);
    }

    #[test]
    fn each_file_starts_where_the_one_before_ended() {
        assert_eq!(file_start("1.xml", 10, 3), Some(0));
        assert_eq!(file_start("2.xml", 10, 3), Some(3));
        assert_eq!(file_start("4.xml", 10, 3), Some(9));
        assert_eq!(file_start("5.xml", 10, 3), None, "past the last file");
        assert_eq!(file_start("1.xml", 3, 3), None, "not split: no files");
        for name in [
            "0.xml",
            "01.xml",
            ".xml",
            "1",
            "1.xml.gz",
            "-1.xml",
            "x.xml",
            "99999999999999999999.xml",
        ] {
            assert_eq!(file_start(name, 10, 3), None, "{name}");
        }
    }
}
