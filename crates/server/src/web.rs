//! Serving the storefront: the built React app's files, its `index.html` with a
//! server-rendered head (title, description, canonical link and Product JSON-LD, so
//! search engines and link previews see a product before any script runs), the
//! shop's images from the database, and the cart page's no-script remove links.

use askama::Template;
use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Extension;
use serde_json::json;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::cart::ajax::CART_NONCE;
use crate::cart::forms::{self, FormOutcome};
use crate::catalog::view::ViewContext;
use crate::http::params::Params;
use crate::http::store_api::StoreCtx;
use crate::markup::{rendered, trusted, Markup};
use crate::ssr::PageApi;
use crate::state::{AppState, SharedState};
use rules::catalog::index::{Catalog, IdOrSlug};
use rules::catalog::model::{Category, Media, Product, ProductKind, StockStatus};
use rules::html::strip_tags;
use rules::money::Money;

/// What the page head says about the page being served.
struct Head {
    title: String,
    description: Option<String>,
    canonical: Option<String>,
    image: Option<String>,
    json_ld: Option<serde_json::Value>,
    /// The page's place in the shop (BreadcrumbList JSON-LD), where it has one.
    breadcrumbs: Option<serde_json::Value>,
    /// Open Graph's type: `product` on a product page, `website` elsewhere.
    og_type: &'static str,
    /// The page's largest image, fetched first: a product's main photograph.
    preload: Option<ImagePreload>,
    /// Search engines are asked not to index the page (a shopper's own list).
    noindex: bool,
}

/// A `<link rel="preload" as="image">`, with the sources and sizes the page's `<img>`
/// gives, so the browser takes the copy it fetched early for that element.
struct ImagePreload {
    src: String,
    srcset: String,
    sizes: &'static str,
}

/// The product page's main image sizes (`MAIN_SIZES` in the storefront's
/// product-gallery.tsx; the two must agree for the preload to be the image used).
const PRODUCT_IMAGE_SIZES: &str = "(min-width: 1024px) 600px, 100vw";

#[derive(Template)]
#[template(path = "pages/head.html")]
struct PageHead<'a> {
    /// The storefront's settings, as `script_json` writes them.
    settings: Markup,
    description: Option<&'a str>,
    canonical: Option<&'a str>,
    title: &'a str,
    shop_name: &'a str,
    image: Option<&'a str>,
    /// The page's JSON-LD, as `script_json` writes it.
    json_ld: Option<Markup>,
    breadcrumbs: Option<Markup>,
    og_type: &'a str,
    preload: Option<&'a ImagePreload>,
    noindex: bool,
}

#[derive(Template)]
#[template(path = "pages/title.html")]
struct Title<'a> {
    title: &'a str,
}

/// What a page shows when the storefront was never built.
#[derive(Template)]
#[template(path = "pages/not_built.html")]
struct NotBuilt<'a> {
    shop_name: &'a str,
}

/// What a page is being served for: the request, its path's parts and the shop's
/// API (for rendering the page on the server).
struct PageRequest<'a> {
    parts: &'a axum::http::request::Parts,
    segments: &'a [&'a str],
    api: Option<&'a PageApi>,
    /// What the form this page answers did.
    notices: &'a [forms::Notice],
}

async fn render_index(
    state: &AppState,
    ctx: &StoreCtx,
    page: &PageRequest<'_>,
    head: &Head,
    status: StatusCode,
) -> Response {
    let Some(template) = &state.pages.index else {
        let body = rendered(&NotBuilt {
            shop_name: &state.config.shop_name,
        });
        return (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            body,
        )
            .into_response();
    };
    let c = &state.config.currency;
    let session_nonce = ctx.nonce(state, crate::http::store_api::STORE_API_NONCE);
    let settings = PageSettings {
        store_api_nonce: session_nonce.clone(),
        cart_nonce: ctx.nonce(state, CART_NONCE),
        wc_ajax_url: "/?wc-ajax=%%endpoint%%",
        store_api_root: "/wp-json/wc/store/v1",
        cart_url: "/cart",
        shop_name: &state.config.shop_name,
        cart_redirect_after_add: if state.config.cart_redirect_after_add {
            "yes"
        } else {
            "no"
        },
        i18n_view_cart: "View cart",
        currency: CurrencySettings {
            code: &c.code,
            symbol: &c.symbol,
            minor_unit: c.decimals,
            decimal_separator: &c.decimal_separator,
            thousand_separator: &c.thousand_separator,
            prefix: c.prefix(),
            suffix: c.suffix(),
        },
        checkout: checkout_settings(state, ctx),
        account: crate::checkout::accounts::page_account(state, ctx).await,
        notices: page.notices,
        store_notice: store_notice_settings(state, &page.parts.headers),
        coming_soon: coming_soon_settings(state, ctx).await,
        wishlist: crate::wishlist::page_settings(state, ctx),
    };
    // A page rendered for no one in particular is kept apart for those who dismissed
    // the store notice, whose page has none.
    let cache = if !page.notices.is_empty() {
        crate::ssr::PageCache::Never
    } else if state.config.store_notice.is_some() && settings.store_notice.is_none() {
        crate::ssr::PageCache::Shared("store-notice-hidden")
    } else {
        crate::ssr::PageCache::Shared("")
    };
    // Serialising a struct writes the text at once, with no map built first.
    let settings = serde_json::to_string(&settings).unwrap_or_else(|_| "{}".into());
    let app = crate::ssr::render_page(
        state,
        page.api,
        ctx,
        page.parts,
        page.segments,
        &settings,
        cache,
    )
    .await;
    let extra = rendered(&PageHead {
        settings: trusted(crate::ssr::escape_script_json(&settings)),
        description: head.description.as_deref(),
        canonical: head.canonical.as_deref(),
        title: &head.title,
        shop_name: &state.config.shop_name,
        image: head.image.as_deref(),
        json_ld: head.json_ld.as_ref().map(|ld| trusted(script_json(ld))),
        breadcrumbs: head.breadcrumbs.as_ref().map(|ld| trusted(script_json(ld))),
        og_type: head.og_type,
        preload: head.preload.as_ref(),
        noindex: head.noindex,
    });
    let title = rendered(&Title { title: &head.title });
    let styles = state
        .pages
        .assets
        .for_page(page.segments)
        .map_or("", |a| a.element.as_str());
    let html = template.fill(&crate::shell::PageFill {
        title: &title,
        head: &extra,
        styles,
        app: app.as_deref(),
        session_nonce: &session_nonce,
    });
    let mut res = (status, html).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    // The page carries this shopper's nonces: never cached for anyone else.
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    if head.noindex {
        res.headers_mut()
            .insert("x-robots-tag", HeaderValue::from_static("noindex"));
    }
    ctx.keep_session(state, res.headers_mut());
    res
}

/// What the checkout page needs: the classic calls' nonces for this shopper, the
/// checkout options and the payment methods.
/// The settings every page carries (`<script id="ferroshop-settings">`).
#[derive(serde::Serialize)]
struct PageSettings<'a> {
    store_api_nonce: String,
    cart_nonce: String,
    wc_ajax_url: &'static str,
    store_api_root: &'static str,
    cart_url: &'static str,
    shop_name: &'a str,
    cart_redirect_after_add: &'static str,
    i18n_view_cart: &'static str,
    currency: CurrencySettings<'a>,
    checkout: CheckoutSettings<'a>,
    account: serde_json::Value,
    notices: &'a [forms::Notice],
    /// The store notice, unless there is none or this shopper dismissed it.
    store_notice: Option<StoreNoticeSettings<'a>>,
    /// Staff looking at a shop in coming-soon mode, who have not dismissed its banner.
    coming_soon: Option<ComingSoonSettings>,
    /// The wishlist's calls, nonce and options.
    wishlist: serde_json::Value,
}

/// The coming-soon banner: where its dismissal is written (the platform's user call
/// for this account) and the nonce that call takes.
#[derive(serde::Serialize)]
struct ComingSoonSettings {
    rest_url: String,
    nonce: String,
}

async fn coming_soon_settings(state: &AppState, ctx: &StoreCtx) -> Option<ComingSoonSettings> {
    if !crate::coming_soon::staff_preview(state, &ctx.session) {
        return None;
    }
    let id = rules::customers::CustomerId(ctx.session.user_id);
    let meta = store::customers::meta(&state.db, id).await.ok()?;
    let dismissed = meta
        .iter()
        .any(|(key, value)| key == "coming_soon_banner_dismissed" && value == "yes");
    (!dismissed).then(|| ComingSoonSettings {
        rest_url: format!("/wp-json/wp/v2/users/{}", id.0),
        nonce: ctx.nonce(state, crate::customers::wp_users::WP_REST_NONCE),
    })
}

#[derive(serde::Serialize)]
struct StoreNoticeSettings<'a> {
    id: &'a str,
    text: &'a str,
}

/// The store notice for a page, or None where the shop has none or the request
/// carries its dismissal cookie: the page then never shows it, not even for a moment.
fn store_notice_settings<'a>(
    state: &'a AppState,
    headers: &HeaderMap,
) -> Option<StoreNoticeSettings<'a>> {
    let notice = state.config.store_notice.as_ref()?;
    let cookie = crate::cookies::read(headers, &notice.cookie_name());
    if notice.dismissed(cookie.as_deref()) {
        return None;
    }
    Some(StoreNoticeSettings {
        id: notice.id().as_str(),
        text: notice.text(),
    })
}

#[derive(serde::Serialize)]
struct CurrencySettings<'a> {
    code: &'a str,
    symbol: &'a str,
    minor_unit: u32,
    decimal_separator: &'a str,
    thousand_separator: &'a str,
    prefix: String,
    suffix: String,
}

#[derive(serde::Serialize)]
struct CheckoutSettings<'a> {
    nonces: CheckoutNonces,
    guest_checkout: bool,
    signup_at_checkout: bool,
    terms: Option<TermsSettings<'a>>,
    privacy_text: &'static str,
    i18n_checkout_error: &'static str,
    gateways: Vec<GatewaySettings<'a>>,
    default_country: &'a str,
    coupons_enabled: bool,
    order_notes: bool,
}

#[derive(serde::Serialize)]
struct CheckoutNonces {
    update_order_review: String,
    apply_coupon: String,
    remove_coupon: String,
    process_checkout: String,
}

#[derive(serde::Serialize)]
struct TermsSettings<'a> {
    text: &'a str,
    page_url: &'a str,
}

#[derive(serde::Serialize)]
struct GatewaySettings<'a> {
    id: &'a str,
    title: &'a str,
    description: &'a str,
    order_button_text: Option<&'a str>,
}

fn checkout_settings<'a>(state: &'a AppState, ctx: &StoreCtx) -> CheckoutSettings<'a> {
    use crate::checkout::ajax::{
        APPLY_COUPON_NONCE, PROCESS_CHECKOUT_NONCE, REMOVE_COUPON_NONCE, UPDATE_ORDER_REVIEW_NONCE,
    };
    let nonce = |action: &str| ctx.nonce(state, action);
    let checkout = &state.config.checkout;
    CheckoutSettings {
        nonces: CheckoutNonces {
            update_order_review: nonce(UPDATE_ORDER_REVIEW_NONCE),
            apply_coupon: nonce(APPLY_COUPON_NONCE),
            remove_coupon: nonce(REMOVE_COUPON_NONCE),
            process_checkout: nonce(PROCESS_CHECKOUT_NONCE),
        },
        guest_checkout: checkout.guest_checkout,
        signup_at_checkout: checkout.signup_at_checkout,
        terms: checkout.terms.as_ref().map(|t| TermsSettings {
            text: &t.text,
            page_url: &t.page_url,
        }),
        privacy_text: "Your personal data will be used to process your order, support your experience throughout this website, and for other purposes described in our privacy policy.",
        i18n_checkout_error: "Error processing checkout. Please try again.",
        gateways: checkout
            .gateways
            .list
            .iter()
            .map(|g| GatewaySettings {
                id: g.id,
                title: &g.title,
                description: &g.description,
                order_button_text: g.order_button_text.as_deref(),
            })
            .collect(),
        default_country: &checkout.default_country,
        coupons_enabled: true,
        order_notes: true,
    }
}

/// JSON safe inside a `<script>` element: no `<` can close it early.
fn script_json(v: &serde_json::Value) -> String {
    crate::ssr::escape_script_json(&v.to_string())
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
    let description = [&p.short_description, &p.description]
        .into_iter()
        .map(|text| shorten(&strip_tags(text), 160))
        .find(|text| !text.is_empty())
        .unwrap_or_else(|| format!("{} at {}.", p.name, state.config.shop_name));
    let media: Vec<&Media> = p
        .image_ids
        .iter()
        .filter_map(|id| catalog.media(*id))
        .collect();
    let images: Vec<String> = media.iter().map(|m| view.media_url(m)).collect();
    // The main image as the gallery shows it (the API's srcset for it).
    let preload = media.first().map(|m| {
        let image = crate::catalog::view::image_view(&view, m);
        ImagePreload {
            src: image.src,
            srcset: image.srcset,
            sizes: PRODUCT_IMAGE_SIZES,
        }
    });
    let prices = catalog.prices(p);
    let decimal = |minor: i64| {
        let plain = rules::money::CurrencyFormat {
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
    let mut trail: Vec<(String, String)> = p
        .category_ids
        .first()
        .map(|id| category_trail(catalog, base, *id))
        .unwrap_or_default();
    trail.push((p.name.clone(), url.clone()));
    Head {
        title: page_title(state, &p.name),
        description: Some(description),
        canonical: Some(url),
        image: images.first().cloned(),
        json_ld: Some(ld),
        breadcrumbs: Some(breadcrumb_list(base, &trail)),
        og_type: "product",
        preload,
        noindex: false,
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
        breadcrumbs: None,
        og_type: "website",
        preload: None,
        noindex: false,
    }
}

/// A wishlist page's head: "Wishlist", or a list's title for those it is shared
/// with; never indexed.
fn wishlist_head(state: &AppState, title: Option<&str>) -> Head {
    let mut head = plain_head(state, Some(title.unwrap_or("Wishlist")), None, None);
    head.noindex = true;
    head
}

/// A category and its ancestors, root first, as (name, address); bounded against a
/// parent loop in bad data.
fn category_trail(
    catalog: &Catalog,
    base: &str,
    id: rules::catalog::model::CategoryId,
) -> Vec<(String, String)> {
    let mut trail = Vec::new();
    let mut current = catalog.category(id);
    while let Some(c) = current {
        if trail.len() >= 10 {
            break;
        }
        trail.push((
            c.name.clone(),
            format!("{base}/product-category/{}/", c.slug),
        ));
        current = c.parent_id.and_then(|parent| catalog.category(parent));
    }
    trail.reverse();
    trail
}

/// BreadcrumbList JSON-LD: the home page, then `trail` (name, address), the page last.
fn breadcrumb_list(base: &str, trail: &[(String, String)]) -> serde_json::Value {
    let home = ("Home".to_string(), format!("{base}/"));
    let items: Vec<serde_json::Value> = std::iter::once(&home)
        .chain(trail)
        .enumerate()
        .map(|(n, (name, url))| {
            json!({"@type": "ListItem", "position": n + 1, "name": strip_tags(name), "item": url})
        })
        .collect();
    json!({"@context": "https://schema.org/", "@type": "BreadcrumbList", "itemListElement": items})
}

/// The head of a category's or brand's page.
fn term_head(
    state: &AppState,
    name: &str,
    description: &str,
    canonical: String,
) -> (Head, StatusCode) {
    let description = Some(shorten(&strip_tags(description), 160))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| format!("{name} at {}.", state.config.shop_name));
    (
        plain_head(state, Some(name), Some(description), Some(canonical)),
        StatusCode::OK,
    )
}

fn not_found(state: &AppState) -> (Head, StatusCode) {
    let description = format!(
        "This page is not at {}: browse the shop or search it instead.",
        state.config.shop_name
    );
    (
        plain_head(state, Some("Page not found"), Some(description), None),
        StatusCode::NOT_FOUND,
    )
}

/// The home page's JSON-LD: the shop as an organisation, and its site with the
/// search search engines may offer in their results.
fn site_json_ld(state: &AppState, base: &str) -> serde_json::Value {
    json!({
        "@context": "https://schema.org/",
        "@graph": [
            {
                "@type": "Organization",
                "@id": format!("{base}/#organization"),
                "name": state.config.shop_name,
                "url": format!("{base}/"),
            },
            {
                "@type": "WebSite",
                "@id": format!("{base}/#website"),
                "name": state.config.shop_name,
                "url": format!("{base}/"),
                "publisher": {"@id": format!("{base}/#organization")},
                "potentialAction": {
                    "@type": "SearchAction",
                    "target": {
                        "@type": "EntryPoint",
                        "urlTemplate": format!("{base}/shop/?s={{search_term_string}}"),
                    },
                    "query-input": "required name=search_term_string",
                },
            },
        ],
    })
}

/// The home and shop pages' description: the shop's top categories that have
/// products, by their menu order.
fn shop_description(state: &AppState, catalog: &Catalog, verb: &str) -> String {
    let mut top: Vec<&Category> = catalog
        .data
        .categories
        .iter()
        .filter(|c| c.parent_id.is_none() && catalog.category_count(c.id) > 0)
        .collect();
    top.sort_by_key(|c| (c.menu_order, c.id));
    let names: Vec<&str> = top.iter().take(4).map(|c| c.name.as_str()).collect();
    let shop = &state.config.shop_name;
    match names.as_slice() {
        [] => format!("{verb} online at {shop}."),
        [one] => format!("{verb} {one} at {shop}."),
        [first @ .., last] if top.len() <= 4 => {
            format!("{verb} {} and {last} at {shop}.", first.join(", "))
        }
        all => format!("{verb} {} and more at {shop}.", all.join(", ")),
    }
}

/// Any GET the other routes do not claim: a file of the built app, or a page of the
/// storefront (404 where the page names something the shop does not have).
pub async fn page(
    State(state): State<SharedState>,
    api: Option<Extension<PageApi>>,
    req: Request<Body>,
) -> Response {
    let api = api.map(|Extension(api)| api);
    let (parts, body) = req.into_parts();
    let read = parts.method == Method::GET || parts.method == Method::HEAD;
    // Pages take the original shop's forms by POST (add to cart, the cart's form).
    let form = parts.method == Method::POST && takes_forms(parts.uri.path());
    if !read && !form {
        let surface = crate::http::guard::Surface::of(&parts.uri);
        let mut res = surface.refuse(
            StatusCode::METHOD_NOT_ALLOWED,
            "rest_no_route",
            "No route was found matching the URL and request method.",
        );
        res.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return res;
    }
    let path = parts.uri.path().to_string();
    let query = parts.uri.query().map(str::to_string);
    let segments: Vec<&str> = path
        .trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let is_page = matches!(
        segments.first().copied(),
        None | Some(
            "shop"
                | "cart"
                | "product"
                | "product-category"
                | "brand"
                | "brands"
                | "checkout"
                | "my-account"
                | "order-tracking"
                | "contact"
                | "wishlist"
        )
    );
    if !is_page {
        // A file of the built app; hashed assets are cached for a year. Files need no
        // session: only a page does.
        let head_parts = parts.clone();
        if let Some(res) = static_file(&state, &path, Request::from_parts(parts, body)).await {
            return res;
        }
        return match StoreCtx::from_parts(&state, &head_parts).await {
            Ok(ctx) => {
                let (head, status) = not_found(&state);
                let page = PageRequest {
                    parts: &head_parts,
                    segments: &segments,
                    api: api.as_ref(),
                    notices: &[],
                };
                render_index(&state, &ctx, &page, &head, status).await
            }
            Err(res) => res,
        };
    }
    let ctx = match StoreCtx::from_parts(&state, &parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    if crate::coming_soon::closed_to(&state, &ctx.session, &segments) {
        return crate::coming_soon::page(&state);
    }
    let outcome = if form {
        match take_form(&state, &ctx, &parts, body, &segments).await {
            Ok(outcome) => outcome,
            Err(res) => return res,
        }
    } else {
        match follow_link(&state, &ctx, &parts, &path, query.as_deref()).await {
            Ok(outcome) => outcome,
            Err(res) => return res,
        }
    };
    let base = ctx.base_url.to_string();
    let catalog = state.catalog.get();
    let head = match segments.as_slice() {
        [] => {
            let mut head = plain_head(
                &state,
                None,
                Some(shop_description(&state, &catalog, "Shop")),
                Some(format!("{base}/")),
            );
            head.json_ld = Some(site_json_ld(&state, &base));
            Some((head, StatusCode::OK))
        }
        ["shop", ..] => Some((
            plain_head(
                &state,
                Some("Shop"),
                Some(shop_description(&state, &catalog, "Browse")),
                Some(format!("{base}/shop/")),
            ),
            StatusCode::OK,
        )),
        ["cart"] => {
            if let Some(res) = remove_link(&state, &ctx, query.as_deref()).await {
                return res;
            }
            Some((
                plain_head(
                    &state,
                    Some("Cart"),
                    Some(format!("Your shopping cart at {}.", state.config.shop_name)),
                    Some(format!("{base}/cart/")),
                ),
                StatusCode::OK,
            ))
        }
        ["product", slug] => Some(match catalog.shown_by_slug(slug) {
            Some(p) => {
                let mut head = product_head(&state, &catalog, &base, p);
                if let Some(ld) = head.json_ld.as_mut() {
                    crate::reviews::json_ld::add_reviews(&state, p, ld).await;
                }
                (head, StatusCode::OK)
            }
            None => not_found(&state),
        }),
        ["product-category", .., slug] => {
            let found = catalog
                .resolve_category(&IdOrSlug::Slug(slug.to_string()))
                .and_then(|id| catalog.category(id));
            Some(match found {
                Some(c) => {
                    let (mut head, status) = term_head(
                        &state,
                        &c.name,
                        &c.description,
                        format!("{base}/product-category/{}/", c.slug),
                    );
                    let trail = category_trail(&catalog, &base, c.id);
                    head.breadcrumbs = Some(breadcrumb_list(&base, &trail));
                    (head, status)
                }
                None => not_found(&state),
            })
        }
        ["brand", slug] => {
            let found = catalog
                .resolve_brand(&IdOrSlug::Slug(slug.to_string()))
                .and_then(|id| catalog.brand(id));
            Some(match found {
                Some(b) => {
                    let url = format!("{base}/brand/{}/", b.slug);
                    let (mut head, status) =
                        term_head(&state, &b.name, &b.description, url.clone());
                    head.breadcrumbs = Some(breadcrumb_list(&base, &[(b.name.clone(), url)]));
                    (head, status)
                }
                None => not_found(&state),
            })
        }
        ["brands"] => {
            let url = format!("{base}/brands/");
            let mut head = plain_head(
                &state,
                Some("Brands"),
                Some(format!(
                    "Every brand at {}, from A to Z.",
                    state.config.shop_name
                )),
                Some(url.clone()),
            );
            head.breadcrumbs = Some(breadcrumb_list(&base, &[("Brands".into(), url)]));
            Some((head, StatusCode::OK))
        }
        ["checkout", ..] => Some((
            plain_head(
                &state,
                Some("Checkout"),
                Some(format!("Check out at {}.", state.config.shop_name)),
                Some(format!("{base}/checkout/")),
            ),
            StatusCode::OK,
        )),
        ["my-account", ..] => Some((
            plain_head(
                &state,
                Some("My account"),
                Some(format!(
                    "Your account at {}: orders, addresses and account details.",
                    state.config.shop_name
                )),
                Some(format!("{base}/my-account/")),
            ),
            StatusCode::OK,
        )),
        ["order-tracking"] => Some((
            plain_head(
                &state,
                Some("Order tracking"),
                Some(format!(
                    "Track an order placed at {}.",
                    state.config.shop_name
                )),
                Some(format!("{base}/order-tracking/")),
            ),
            StatusCode::OK,
        )),
        ["contact"] => {
            let url = format!("{base}/contact/");
            let mut head = plain_head(
                &state,
                Some("Contact us"),
                Some(format!(
                    "Write to {} about a product, an order or anything else.",
                    state.config.shop_name
                )),
                Some(url.clone()),
            );
            head.breadcrumbs = Some(breadcrumb_list(&base, &[("Contact us".into(), url)]));
            Some((head, StatusCode::OK))
        }
        ["wishlist"] => Some((wishlist_head(&state, None), StatusCode::OK)),
        ["wishlist", key] => Some(match crate::wishlist::page_title(&state, &ctx, key).await {
            Some(title) => (wishlist_head(&state, Some(&title)), StatusCode::OK),
            None => (wishlist_head(&state, None), StatusCode::NOT_FOUND),
        }),
        _ => None,
    };
    let (head, status) = head.unwrap_or_else(|| not_found(&state));
    let page = PageRequest {
        parts: &parts,
        segments: &segments,
        api: api.as_ref(),
        notices: &outcome.notices,
    };
    let mut res = render_index(&state, &ctx, &page, &head, status).await;
    if let Some((hash, items)) = &outcome.cart {
        ctx.cart_cookies(&state, res.headers_mut(), hash, *items);
    }
    res
}

/// The pages that take forms by POST: any product page (its add-to-cart form), the
/// cart (its form, and add to cart), the shop's listings (add to cart from a card).
fn takes_forms(path: &str) -> bool {
    let first = path.trim_matches('/').split('/').next().unwrap_or("");
    matches!(
        first,
        "" | "shop" | "product" | "product-category" | "brand" | "cart"
    )
}

/// A form posted to a page: add to cart, or the cart page's update. The answer is the
/// page itself with notices (or the cart, when the shop sends shoppers there).
async fn take_form(
    state: &AppState,
    ctx: &StoreCtx,
    parts: &axum::http::request::Parts,
    body: Body,
    segments: &[&str],
) -> Result<FormOutcome, Response> {
    let params = match Params::read(&parts.headers, body, state.config.max_body_bytes).await {
        Ok(params) => params,
        Err(e) => {
            return Ok(FormOutcome {
                notices: vec![forms::Notice {
                    kind: "error",
                    message: e.message,
                    cart_link: false,
                }],
                cart: None,
            })
        }
    };
    if params.get("add-to-cart").is_some() || params.get("product_id").is_some() {
        let outcome = forms::add_to_cart(state, ctx, &params).await;
        if state.config.cart_redirect_after_add && segments != ["cart"] {
            if let Some((hash, items)) = &outcome.cart {
                return Err(to_cart_after_add(state, ctx, &params, hash, *items));
            }
        }
        return Ok(outcome);
    }
    let cart_form = ["update_cart", "cart", "remove_item"]
        .iter()
        .any(|field| params.get(field).is_some());
    if segments == ["cart"] && cart_form {
        return Ok(forms::update_cart(state, ctx, &params).await);
    }
    Err(crate::http::guard::Surface::of(&parts.uri).refuse(
        StatusCode::BAD_REQUEST,
        "ferroshop_unknown_form",
        "This page takes no such form.",
    ))
}

/// After an add to cart when the shop sends shoppers to the cart: there, saying what
/// was added.
fn to_cart_after_add(
    state: &AppState,
    ctx: &StoreCtx,
    params: &Params,
    hash: &str,
    items: i64,
) -> Response {
    let id = params
        .int("add-to-cart")
        .ok()
        .flatten()
        .or_else(|| params.int("product_id").ok().flatten())
        .unwrap_or(0);
    let mut res = Redirect::to(&format!("/cart/?added-to-cart={id}")).into_response();
    ctx.cart_cookies(state, res.headers_mut(), hash, items);
    res
}

/// The original shop's links that act on the cart: `?add-to-cart=ID` adds (then
/// sends the shopper to the same page without it, saying what was added), and
/// `?added-to-cart=ID` says so. A link followed from another site adds nothing.
async fn follow_link(
    state: &AppState,
    ctx: &StoreCtx,
    parts: &axum::http::request::Parts,
    path: &str,
    query: Option<&str>,
) -> Result<FormOutcome, Response> {
    let Some(query) = query else {
        return Ok(FormOutcome::default());
    };
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    let has = |name: &str| pairs.iter().any(|(k, _)| k == name);
    if has("add-to-cart") && parts.method == Method::GET {
        let acting = ["add-to-cart", "quantity", "variation_id", "product_id"];
        let rest: Vec<&(String, String)> = pairs
            .iter()
            .filter(|(k, _)| !acting.contains(&k.as_str()) && !k.starts_with("attribute_"))
            .filter(|(k, _)| k != "added-to-cart")
            .collect();
        let back = |extra: Option<(String, String)>| {
            let mut kept: Vec<(String, String)> = rest.iter().map(|p| (*p).clone()).collect();
            kept.extend(extra);
            let query = serde_urlencoded::to_string(&kept).unwrap_or_default();
            if query.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{query}")
            }
        };
        if !forms::link_allowed(state, &parts.headers) {
            return Err(Redirect::to(&back(None)).into_response());
        }
        let fields: serde_json::Map<String, serde_json::Value> = pairs
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        let params = Params(fields);
        let outcome = forms::add_to_cart(state, ctx, &params).await;
        let Some((hash, items)) = &outcome.cart else {
            // Refused: this page says why.
            return Ok(outcome);
        };
        let id = params.int("add-to-cart").ok().flatten().unwrap_or(0);
        let target = if state.config.cart_redirect_after_add {
            format!("/cart/?added-to-cart={id}")
        } else {
            back(Some(("added-to-cart".into(), id.to_string())))
        };
        let mut res = Redirect::to(&target).into_response();
        ctx.cart_cookies(state, res.headers_mut(), hash, *items);
        return Err(res);
    }
    let added = pairs
        .iter()
        .find(|(k, _)| k == "added-to-cart")
        .and_then(|(_, v)| v.parse::<i64>().ok())
        .and_then(|id| forms::added_notice(state, rules::catalog::model::ProductId(id), 1));
    // The review form without scripts sends the shopper back with what went wrong.
    let review_error = pairs
        .iter()
        .find(|(k, _)| k == crate::reviews::forms::ERROR_PARAM)
        .and_then(|(_, code)| crate::reviews::forms::problem_message(code))
        .map(|message| forms::Notice {
            kind: "error",
            message,
            cart_link: false,
        });
    Ok(FormOutcome {
        notices: added.into_iter().chain(review_error).collect(),
        cart: None,
    })
}

/// A file of the built storefront, if there is one at `path`.
async fn static_file(state: &AppState, path: &str, req: Request<Body>) -> Option<Response> {
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
            Some(res)
        }
        _ => None,
    }
}

/// `/cart/?remove_item=KEY&_wpnonce=N`: the mini-cart's remove link, followed when
/// scripts are off or the ajax call failed.
async fn remove_link(state: &AppState, ctx: &StoreCtx, query: Option<&str>) -> Option<Response> {
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
    let mut res = Redirect::to("/cart").into_response();
    if ctx.nonce_matches(state, CART_NONCE, Some(nonce)) {
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

/// `/media/{file}`: an image stored in the database; `?w=N` a photograph's WebP copy
/// N pixels wide, for the widths its `srcset` offers (any other width is a 404, so
/// no one can make the shop resize at will). A name that does not decode to text
/// names no image (the framework's own refusal would be a plain-text 400).
pub async fn media(
    State(state): State<SharedState>,
    file: Result<UrlPath<String>, PathRejection>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let Ok(UrlPath(file)) = file else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let valid = file.len() <= 200
        && file
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    if !valid {
        return StatusCode::NOT_FOUND.into_response();
    }
    let width = query.as_deref().and_then(|q| {
        q.split('&')
            .find_map(|pair| pair.strip_prefix("w="))
            .map(|w| w.parse::<u32>().unwrap_or(0))
    });
    if let Some(width) = width {
        if let Some(res) = media_copy(&state, &file, width, &headers).await {
            return res;
        }
    }
    let etag = format!("\"{}-{}\"", state.catalog.get().version, file);
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(etag.as_str())
    {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    match store::catalog::find_media(&state.db, &file).await {
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

/// A photograph's WebP copy, or None to serve the original instead (a copy that
/// could not be made: the original still shows, and the log says why).
async fn media_copy(
    state: &AppState,
    file: &str,
    width: u32,
    headers: &HeaderMap,
) -> Option<Response> {
    use crate::catalog::images::{has_copies, CopyError};
    let media = {
        let catalog = state.catalog.get();
        match catalog.media_named(file) {
            Some(m) => m.clone(),
            None => return Some(StatusCode::NOT_FOUND.into_response()),
        }
    };
    let offered = has_copies(&media)
        && u32::try_from(media.width).is_ok_and(|w| images::offers_width(w, width));
    if !offered {
        return Some(StatusCode::NOT_FOUND.into_response());
    }
    // A copy never changes: its name and width say what it is.
    let etag = format!("\"{file}-w{width}\"");
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(etag.as_str())
    {
        return Some(StatusCode::NOT_MODIFIED.into_response());
    }
    match state.images.copy(&state.db, &media, width).await {
        Ok(Some(webp)) => {
            let mut res = webp.into_response();
            let h = res.headers_mut();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/webp"));
            h.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
            );
            h.insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=86400"),
            );
            if let Ok(v) = HeaderValue::from_str(&etag) {
                h.insert(header::ETAG, v);
            }
            Some(res)
        }
        Ok(None) => Some(StatusCode::NOT_FOUND.into_response()),
        Err(CopyError::Store(e)) => Some(crate::error::ApiError::from(e).into_response()),
        Err(e) => {
            tracing::warn!(file, width, error = %e, "no WebP copy; serving the original");
            None
        }
    }
}
