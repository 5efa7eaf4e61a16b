//! Serving the storefront: the built React app's files, its `index.html` with a
//! server-rendered head (title, description, canonical link and Product JSON-LD, so
//! search engines and link previews see a product before any script runs), the
//! shop's images from the database, and the cart page's no-script remove links.

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::json;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::cart::ajax::CART_NONCE;
use crate::catalog::index::{Catalog, IdOrSlug};
use crate::catalog::model::{Product, ProductKind, StockStatus};
use crate::catalog::view::ViewContext;
use crate::html::{escape, strip_tags};
use crate::http::store_api::{base_url, StoreCtx};
use crate::money::Money;
use crate::state::{AppState, SharedState};

const TITLE_TAG: &str = "<title>Ferroshop</title>";
const HEAD_MARKER: &str = "<!--ferroshop:head-->";

/// The storefront's entry page, read once at start-up.
pub struct Pages {
    index: Option<String>,
    dir: PathBuf,
}

impl Pages {
    pub fn load(dir: &Path) -> Self {
        let index = std::fs::read_to_string(dir.join("index.html")).ok();
        if index.is_none() {
            tracing::warn!(dir = %dir.display(), "no built storefront found; the APIs work, pages show a notice (build with `make web`)");
        }
        Self {
            index,
            dir: dir.to_owned(),
        }
    }
}

/// What the page head says about the page being served.
struct Head {
    title: String,
    description: Option<String>,
    canonical: Option<String>,
    image: Option<String>,
    json_ld: Option<serde_json::Value>,
}

async fn render_index(
    state: &AppState,
    headers: &HeaderMap,
    head: &Head,
    status: StatusCode,
) -> Response {
    let Some(template) = &state.pages.index else {
        let body = format!(
            "<!doctype html><meta charset=utf-8><title>{}</title><p>The storefront has not been built. Run <code>make run</code> from the repository root.</p>",
            escape(&state.config.shop_name)
        );
        return (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            body,
        )
            .into_response();
    };
    let c = &state.config.currency;
    let settings = json!({
        "wc_ajax_url": "/?wc-ajax=%%endpoint%%",
        "store_api_root": "/wp-json/wc/store/v1",
        "cart_url": "/cart",
        "shop_name": state.config.shop_name,
        "cart_redirect_after_add": if state.config.cart_redirect_after_add { "yes" } else { "no" },
        "i18n_view_cart": "View cart",
        "currency": {
            "code": c.code, "symbol": c.symbol, "minor_unit": c.decimals,
            "decimal_separator": c.decimal_separator, "thousand_separator": c.thousand_separator,
            "prefix": c.prefix(), "suffix": c.suffix(),
        },
        "checkout": checkout_settings(state, headers),
        "account": crate::checkout::accounts::page_account(state, headers).await,
    });
    let mut extra = format!(
        "<script id=\"ferroshop-settings\" type=\"application/json\">{}</script>",
        script_json(&settings)
    );
    if let Some(d) = &head.description {
        extra.push_str(&format!(
            "<meta name=\"description\" content=\"{}\">",
            escape(d)
        ));
        extra.push_str(&format!(
            "<meta property=\"og:description\" content=\"{}\">",
            escape(d)
        ));
    }
    if let Some(url) = &head.canonical {
        extra.push_str(&format!(
            "<link rel=\"canonical\" href=\"{}\">",
            escape(url)
        ));
        extra.push_str(&format!(
            "<meta property=\"og:url\" content=\"{}\">",
            escape(url)
        ));
    }
    extra.push_str(&format!(
        "<meta property=\"og:title\" content=\"{}\">",
        escape(&head.title)
    ));
    extra.push_str(&format!(
        "<meta property=\"og:site_name\" content=\"{}\">",
        escape(&state.config.shop_name)
    ));
    if let Some(img) = &head.image {
        extra.push_str(&format!(
            "<meta property=\"og:image\" content=\"{}\">",
            escape(img)
        ));
    }
    if let Some(ld) = &head.json_ld {
        extra.push_str(&format!(
            "<script type=\"application/ld+json\">{}</script>",
            script_json(ld)
        ));
        extra.push_str("<meta property=\"og:type\" content=\"product\">");
    }
    let html = template
        .replacen(
            TITLE_TAG,
            &format!("<title>{}</title>", escape(&head.title)),
            1,
        )
        .replacen(HEAD_MARKER, &extra, 1);
    let mut res = (status, html).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

/// What the checkout page needs: the classic calls' nonces for this shopper, the
/// checkout options and the payment methods.
fn checkout_settings(state: &AppState, headers: &HeaderMap) -> serde_json::Value {
    use crate::checkout::ajax::{
        APPLY_COUPON_NONCE, PROCESS_CHECKOUT_NONCE, REMOVE_COUPON_NONCE, UPDATE_ORDER_REVIEW_NONCE,
    };
    let session = state.keys.session_from(headers);
    let now = crate::clock::now();
    let nonce = |action: &str| state.keys.nonce(action, session.user_id, now);
    let checkout = &state.config.checkout;
    json!({
        "nonces": {
            "update_order_review": nonce(UPDATE_ORDER_REVIEW_NONCE),
            "apply_coupon": nonce(APPLY_COUPON_NONCE),
            "remove_coupon": nonce(REMOVE_COUPON_NONCE),
            "process_checkout": nonce(PROCESS_CHECKOUT_NONCE),
        },
        "guest_checkout": checkout.guest_checkout,
        "signup_at_checkout": checkout.signup_at_checkout,
        "terms": checkout.terms.as_ref().map(|t| json!({"text": t.text, "page_url": t.page_url})),
        "privacy_text": "Your personal data will be used to process your order, support your experience throughout this website, and for other purposes described in our privacy policy.",
        "i18n_checkout_error": "Error processing checkout. Please try again.",
        "gateways": checkout.gateways.list.iter().map(|g| json!({
            "id": g.id, "title": g.title, "description": g.description,
            "order_button_text": g.order_button_text,
        })).collect::<Vec<_>>(),
        "default_country": checkout.default_country,
        "coupons_enabled": true,
        "order_notes": true,
    })
}

/// JSON safe inside a `<script>` element: no `<` can close it early.
fn script_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn page_title(state: &AppState, name: &str) -> String {
    format!("{name} – {}", state.config.shop_name)
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    format!("{}…", cut.trim_end())
}

fn product_head(state: &AppState, catalog: &Catalog, base: &str, p: &Product) -> Head {
    let view = ViewContext {
        base_url: base,
        currency: &state.config.currency,
    };
    let url = view.product_url(p, catalog);
    let description = shorten(&strip_tags(&p.short_description), 160);
    let images: Vec<String> = p
        .image_ids
        .iter()
        .filter_map(|id| catalog.media(*id))
        .map(|m| view.media_url(m))
        .collect();
    let prices = catalog.prices(p);
    let decimal = |minor: i64| {
        let plain = crate::money::CurrencyFormat {
            thousand_separator: String::new(),
            decimal_separator: ".".into(),
            ..state.config.currency.clone()
        };
        plain.format_number(Money::new(minor))
    };
    let availability = match catalog.stock_status(p) {
        StockStatus::InStock => "https://schema.org/InStock",
        StockStatus::OutOfStock => "https://schema.org/OutOfStock",
        StockStatus::OnBackorder => "https://schema.org/BackOrder",
    };
    let offers = match (p.kind, prices.range, prices.price) {
        (ProductKind::Variable, Some((lo, hi)), _) => Some(json!({
            "@type": "AggregateOffer",
            "lowPrice": decimal(lo),
            "highPrice": decimal(hi),
            "offerCount": catalog.variations_of(p.id).count(),
            "priceCurrency": state.config.currency.code,
            "availability": availability,
            "url": url,
        })),
        (_, _, Some(price)) => Some(json!({
            "@type": "Offer",
            "price": decimal(price),
            "priceCurrency": state.config.currency.code,
            "availability": availability,
            "url": url,
        })),
        _ => None,
    };
    let mut ld = json!({
        "@context": "https://schema.org/",
        "@type": "Product",
        "@id": format!("{url}#product"),
        "name": p.name,
        "url": url,
        "description": description,
        "image": images,
    });
    if !p.sku.is_empty() {
        ld["sku"] = json!(p.sku);
    }
    if let Some(brand) = p.brand_ids.first().and_then(|id| catalog.brand(*id)) {
        ld["brand"] = json!({"@type": "Brand", "name": brand.name});
    }
    if let Some(offers) = offers {
        ld["offers"] = offers;
    }
    if p.review_count > 0 {
        ld["aggregateRating"] = json!({
            "@type": "AggregateRating",
            "ratingValue": format!("{}.{:02}", p.rating_average_x100 / 100, p.rating_average_x100 % 100),
            "reviewCount": p.review_count,
        });
    }
    Head {
        title: page_title(state, &p.name),
        description: Some(description),
        canonical: Some(url),
        image: images.first().cloned(),
        json_ld: Some(ld),
    }
}

fn plain_head(
    state: &AppState,
    title: Option<&str>,
    description: Option<String>,
    canonical: Option<String>,
) -> Head {
    Head {
        title: title.map_or_else(|| state.config.shop_name.clone(), |t| page_title(state, t)),
        description,
        canonical,
        image: None,
        json_ld: None,
    }
}

/// The head of a category's or brand's page.
fn term_head(
    state: &AppState,
    name: &str,
    description: &str,
    canonical: String,
) -> (Head, StatusCode) {
    let description = Some(shorten(&strip_tags(description), 160)).filter(|d| !d.is_empty());
    (
        plain_head(state, Some(name), description, Some(canonical)),
        StatusCode::OK,
    )
}

fn not_found(state: &AppState) -> (Head, StatusCode) {
    (
        plain_head(state, Some("Page not found"), None, None),
        StatusCode::NOT_FOUND,
    )
}

/// Any GET the other routes do not claim: a file of the built app, or a page of the
/// storefront (404 where the page names something the shop does not have).
pub async fn page(
    State(state): State<SharedState>,
    method: Method,
    headers: HeaderMap,
    req: Request<Body>,
) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let base = base_url(&state, &headers);
    let catalog = state.catalog.get();
    let segments: Vec<&str> = path
        .trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let head = match segments.as_slice() {
        [] => Some((
            plain_head(&state, None, None, Some(format!("{base}/"))),
            StatusCode::OK,
        )),
        ["shop", ..] => Some((
            plain_head(&state, Some("Shop"), None, Some(format!("{base}/shop/"))),
            StatusCode::OK,
        )),
        ["cart"] => {
            if let Some(res) = remove_link(&state, &headers, query.as_deref()).await {
                return res;
            }
            Some((plain_head(&state, Some("Cart"), None, None), StatusCode::OK))
        }
        ["product", slug] => Some(match catalog.product_by_slug(slug) {
            Some(p) => (product_head(&state, &catalog, &base, p), StatusCode::OK),
            None => not_found(&state),
        }),
        ["product-category", .., slug] => {
            let found = catalog
                .resolve_category(&IdOrSlug::Slug(slug.to_string()))
                .and_then(|id| catalog.category(id));
            Some(match found {
                Some(c) => term_head(
                    &state,
                    &c.name,
                    &c.description,
                    format!("{base}/product-category/{}/", c.slug),
                ),
                None => not_found(&state),
            })
        }
        ["brand", slug] => {
            let found = catalog
                .resolve_brand(&IdOrSlug::Slug(slug.to_string()))
                .and_then(|id| catalog.brand(id));
            Some(match found {
                Some(b) => term_head(
                    &state,
                    &b.name,
                    &b.description,
                    format!("{base}/brand/{}/", b.slug),
                ),
                None => not_found(&state),
            })
        }
        ["checkout", ..] => Some((
            plain_head(&state, Some("Checkout"), None, None),
            StatusCode::OK,
        )),
        ["my-account", ..] => Some((
            plain_head(&state, Some("My account"), None, None),
            StatusCode::OK,
        )),
        ["order-tracking"] => Some((
            plain_head(&state, Some("Order tracking"), None, None),
            StatusCode::OK,
        )),
        _ => None,
    };
    if let Some((head, status)) = head {
        return render_index(&state, &headers, &head, status).await;
    }
    // A file of the built app; hashed assets are cached for a year.
    let immutable = path.starts_with("/assets/");
    match ServeDir::new(&state.pages.dir).oneshot(req).await {
        Ok(res) if res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED => {
            let mut res = res.into_response();
            let cache = if immutable {
                "public, max-age=31536000, immutable"
            } else {
                "public, max-age=3600"
            };
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
            res
        }
        _ => {
            let (head, status) = not_found(&state);
            render_index(&state, &headers, &head, status).await
        }
    }
}

/// `/cart/?remove_item=KEY&_wpnonce=N`: the mini-cart's remove link, followed when
/// scripts are off or the ajax call failed.
async fn remove_link(
    state: &AppState,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Option<Response> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query?).ok()?;
    let key = pairs
        .iter()
        .find(|(k, _)| k == "remove_item")
        .map(|(_, v)| v.clone())?;
    // Without a nonce the storefront's cart page removes the line itself, with its own.
    let nonce = pairs
        .iter()
        .find(|(k, _)| k == "_wpnonce")
        .map(|(_, v)| v.as_str())?;
    let ctx = StoreCtx::new(state, headers);
    let mut res = Redirect::to("/cart").into_response();
    if state
        .keys
        .verify_nonce(CART_NONCE, ctx.session.user_id, nonce, ctx.now)
    {
        if let Ok((cart, _)) =
            crate::cart::service::change(state, &ctx.session, ctx.now, |c| c.remove(&key)).await
        {
            ctx.cart_cookies(
                state,
                res.headers_mut(),
                &cart.hash(&state.config.currency.code),
                cart.items_count(),
            );
        }
    }
    Some(res)
}

/// `/media/{file}`: an image stored in the database.
pub async fn media(
    State(state): State<SharedState>,
    UrlPath(file): UrlPath<String>,
    headers: HeaderMap,
) -> Response {
    let valid = file.len() <= 200
        && file
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    if !valid {
        return StatusCode::NOT_FOUND.into_response();
    }
    let etag = format!("\"{}-{}\"", state.catalog.get().version, file);
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(etag.as_str())
    {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    match crate::store::catalog::find_media(&state.db, &file).await {
        Ok(Some((mime, body))) => {
            let mut res = body.into_response();
            let h = res.headers_mut();
            if let Ok(v) = HeaderValue::from_str(&mime) {
                h.insert(header::CONTENT_TYPE, v);
            }
            h.insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=86400"),
            );
            if let Ok(v) = HeaderValue::from_str(&etag) {
                h.insert(header::ETAG, v);
            }
            // Images are drawn by the shop, but an SVG must never run script.
            h.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
            );
            res
        }
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => crate::error::ApiError::from(e).into_response(),
    }
}

/// The query's `wc-ajax` name, if any.
pub fn wc_ajax_name(query: Option<&str>) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query?).ok()?;
    pairs
        .into_iter()
        .find(|(k, _)| k == "wc-ajax")
        .map(|(_, v)| v)
}

pub fn unknown_ajax(name: &str) -> Response {
    let body = json!({"success": false, "data": {"code": "unknown_action", "message": format!("Unknown action: {}.", name.chars().take(64).collect::<String>())}});
    crate::http::store_api::json_value(StatusCode::BAD_REQUEST, &body)
}
