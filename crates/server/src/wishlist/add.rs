//! Adding to (or, in the simple flow, removing from) a wishlist from a product page or
//! card: a form POST to the page's own address carrying `tinv_wishlist_id`, as the
//! plugin's client sends it. Other POSTs to pages (the product form's add to cart, the
//! cart's form) pass on untouched: a POST is looked at only when its path is a page's
//! and its body a form, and then only its first `MAX_BODY` bytes.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::json;

use super::fields::{self, Fields, FieldsError};
use super::{list_json, list_url, wishlists_data, Shopper, MAX_BODY};
use crate::http::json::json_value;
use crate::http::store_api::StoreCtx;
use crate::rate_limit::{self, Action};
use crate::state::AppState;
use rules::catalog::model::{ProductId, ProductKind};
use rules::wishlist::{self as rules_wl, dialog_html, fill, icon};
use store::wishlists::{self as lists, Added, Owner, Wishlist};

/// Whether a request could be the add call, from its method, path and type alone.
pub fn may_be_add(req: &Request) -> bool {
    if req.method() != Method::POST {
        return false;
    }
    let path = req.uri().path();
    if path.starts_with("/wp-json")
        || path.starts_with("/wp-admin")
        || path.starts_with("/wp-comments-post.php")
        || path.starts_with("/media/")
        || path.starts_with("/assets/")
    {
        return false;
    }
    let content_type = fields::content_type(req.headers());
    fields::is_multipart(&content_type) || fields::is_urlencoded(&content_type)
}

/// A body whose first bytes were read to look at, then handed on whole.
struct Prefixed {
    head: Option<Bytes>,
    rest: Body,
}

impl HttpBody for Prefixed {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        if let Some(head) = self.head.take() {
            return Poll::Ready(Some(Ok(http_body::Frame::data(head))));
        }
        Pin::new(&mut self.rest).poll_frame(cx)
    }
}

/// What the first `MAX_BODY` bytes of a body were.
enum Peeked {
    Whole(Bytes),
    /// There is more: these bytes, and the rest of the body.
    Longer(Bytes, Body),
}

async fn peek(mut body: Body) -> Result<Peeked, axum::Error> {
    let mut head = Vec::new();
    loop {
        let frame = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await;
        match frame {
            None => return Ok(Peeked::Whole(Bytes::from(head))),
            Some(Err(e)) => return Err(e),
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    head.extend_from_slice(&data);
                    if head.len() > MAX_BODY {
                        return Ok(Peeked::Longer(Bytes::from(head), body));
                    }
                }
            }
        }
    }
}

/// Takes the add call, or hands the request on with its body as it came.
pub async fn intercept(state: &AppState, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let content_type = fields::content_type(&parts.headers);
    match peek(body).await {
        Ok(Peeked::Whole(bytes)) => {
            if fields::names_wishlist_id(&content_type, &bytes) {
                return dispatch(state, parts, bytes).await;
            }
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Peeked::Longer(head, rest)) => {
            if fields::names_wishlist_id(&content_type, &head[..MAX_BODY.min(head.len())]) {
                return refusal(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    rules_wl::SOMETHING_WENT_WRONG,
                );
            }
            let body = Body::new(Prefixed {
                head: Some(head),
                rest,
            });
            next.run(Request::from_parts(parts, body)).await
        }
        Err(_) => refusal(
            StatusCode::BAD_REQUEST,
            "unreadable",
            rules_wl::SOMETHING_WENT_WRONG,
        ),
    }
}

/// `{status: false, icon, msg: <dialog>, code}` with a status of its own.
pub fn refusal(status: StatusCode, code: &str, message: &str) -> Response {
    let body = json!({
        "status": false,
        "icon": icon(false),
        "msg": dialog_html(false, &[rules::html::escape(message)], None),
        "code": code,
    });
    let mut res = json_value(status, &body);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn dispatch(state: &AppState, parts: Parts, bytes: Bytes) -> Response {
    let ctx = match StoreCtx::from_parts(state, &parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let mut res = answer(state, &ctx, &parts, bytes).await;
    ctx.keep_session(state, res.headers_mut());
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// The client's count, before the fields are parsed.
pub async fn counted(state: &AppState, ctx: &StoreCtx) -> Option<Response> {
    let client = rate_limit::limits(Action::Wishlist, None, ctx.client);
    match rate_limit::attempt(&state.db, Action::Wishlist, &client, ctx.now).await {
        Ok(Ok(())) => None,
        Ok(Err(l)) => {
            let message = l.to_api().message;
            let mut res = refusal(StatusCode::TOO_MANY_REQUESTS, "too_many_requests", &message);
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(l.retry_after_secs));
            Some(res)
        }
        Err(e) => {
            tracing::error!(error = %e, "a wishlist call's rate limit could not be counted");
            Some(refusal(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                rules_wl::SOMETHING_WENT_WRONG,
            ))
        }
    }
}

pub fn fields_refusal(e: FieldsError) -> Response {
    match e {
        FieldsError::TooLarge => refusal(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            rules_wl::SOMETHING_WENT_WRONG,
        ),
        FieldsError::Unreadable => refusal(
            StatusCode::BAD_REQUEST,
            "unreadable",
            rules_wl::SOMETHING_WENT_WRONG,
        ),
    }
}

async fn answer(state: &AppState, ctx: &StoreCtx, parts: &Parts, bytes: Bytes) -> Response {
    if let Some(res) = counted(state, ctx).await {
        return res;
    }
    let fields = match fields::parse(&parts.headers, bytes).await {
        Ok(f) => f,
        Err(e) => return fields_refusal(e),
    };
    if !ctx.form_nonce_ok(state, &parts.headers, fields.one("_wpnonce")) {
        return refusal(
            StatusCode::FORBIDDEN,
            "invalid_nonce",
            rules_wl::SOMETHING_WENT_WRONG,
        );
    }
    let mut shopper = Shopper::of(ctx);
    match add(state, ctx, &mut shopper, &fields).await {
        Ok(mut res) => {
            let owner = shopper.owner();
            let counter = match owner {
                Some(o) if shopper.is_customer() => lists::default_of(&state.db, o)
                    .await
                    .ok()
                    .flatten()
                    .map_or(0, |l| l.item_count),
                _ => 0,
            };
            shopper
                .cookies(state, ctx, res.headers_mut(), counter, true)
                .await;
            res
        }
        Err(e) => {
            tracing::error!(error = %e, "an add to wishlist failed");
            refusal(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                rules_wl::SOMETHING_WENT_WRONG,
            )
        }
    }
}

/// The product and variation a form names, checked against the catalogue.
enum Target {
    Item {
        product: ProductId,
        variation: i64,
        name: String,
        sku: String,
    },
    /// A variable product's parent without a variation.
    NeedsOptions,
    Unknown,
}

fn target_of(state: &AppState, fields: &Fields) -> Target {
    let int = |name: &str| fields.text(name).parse::<i64>().ok();
    let Some(id) = int("product_id").filter(|id| *id > 0) else {
        return Target::Unknown;
    };
    let catalog = state.catalog.get();
    let Some(mut product) = catalog.shown(ProductId(id)) else {
        return Target::Unknown;
    };
    let mut variation = int("product_variation")
        .filter(|v| *v > 0)
        .or_else(|| int("form[variation_id]").filter(|v| *v > 0))
        .unwrap_or(0);
    if product.kind == ProductKind::Variation {
        // A variation named as the product: its parent, with it as the variation.
        if variation != 0 && variation != product.id.0 {
            return Target::Unknown;
        }
        variation = product.id.0;
        match product.parent_id.and_then(|p| catalog.shown(p)) {
            Some(parent) => product = parent,
            None => return Target::Unknown,
        }
    }
    if variation > 0 {
        let belongs = product.kind == ProductKind::Variable
            && catalog.shown(ProductId(variation)).is_some_and(|v| {
                v.kind == ProductKind::Variation && v.parent_id == Some(product.id)
            });
        if !belongs {
            return Target::Unknown;
        }
        let v = catalog.shown(ProductId(variation)).expect("checked above");
        return Target::Item {
            product: product.id,
            variation,
            name: v.name.clone(),
            sku: v.sku.clone(),
        };
    }
    if product.kind == ProductKind::Variable && !state.config.wishlist.allow_parent_variable {
        return Target::NeedsOptions;
    }
    Target::Item {
        product: product.id,
        variation: 0,
        name: product.name.clone(),
        sku: product.sku.clone(),
    }
}

/// The list the form names: one of the shopper's own by ID, a new one by name, or
/// their default list. None when the ID is not theirs or the name is no title.
enum Chosen {
    List(Wishlist),
    NotTheirs,
    TooMany,
}

async fn chosen_list(
    state: &AppState,
    ctx: &StoreCtx,
    owner: Owner<'_>,
    fields: &Fields,
) -> store::StoreResult<Chosen> {
    let id = fields.text("tinv_wishlist_id");
    if !id.is_empty() {
        let Ok(id) = id.parse::<i64>() else {
            return Ok(Chosen::NotTheirs);
        };
        return Ok(match lists::by_id(&state.db, id).await? {
            Some(list) if list.owned_by(Some(owner)) => Chosen::List(list),
            _ => Chosen::NotTheirs,
        });
    }
    let default = super::ensure_default(&state.db, owner, ctx.now).await?;
    let name = fields.text("tinv_wishlist_name");
    if name.is_empty() {
        return Ok(Chosen::List(default));
    }
    let Some(title) = rules_wl::normalize_title(name) else {
        return Ok(Chosen::NotTheirs);
    };
    Ok(
        match super::create_named(&state.db, owner, default.id, &title, ctx.now).await? {
            Some(list) => Chosen::List(list),
            None => Chosen::TooMany,
        },
    )
}

async fn add(
    state: &AppState,
    ctx: &StoreCtx,
    shopper: &mut Shopper,
    fields: &Fields,
) -> store::StoreResult<Response> {
    let settings = state.config.wishlist;
    let want_stats = rules_wl::truthy(fields.one("stats"));
    let requested = fields.text("product_id").parse::<i64>().unwrap_or(0);
    let mut body = json!({"action": "add_to_wishlist"});
    let mut messages: Vec<String> = Vec::new();
    let mut status = false;
    let mut list_for_answer: Option<Wishlist> = None;
    let target = target_of(state, fields);
    match target {
        Target::Unknown => messages.push(rules::html::escape(rules_wl::SOMETHING_WENT_WRONG)),
        Target::NeedsOptions => messages.push(rules::html::escape(rules_wl::MAKE_A_SELECTION)),
        Target::Item {
            product,
            variation,
            name,
            sku,
        } => {
            let owner = shopper.owner_for_write();
            match chosen_list(state, ctx, owner, fields).await? {
                Chosen::NotTheirs => {
                    messages.push(rules::html::escape(rules_wl::SOMETHING_WENT_WRONG))
                }
                Chosen::TooMany => messages.push(rules::html::escape(rules_wl::TOO_MANY_LISTS)),
                Chosen::List(list) => {
                    let removing =
                        settings.simple_flow && fields.text("product_action") == "remove";
                    if removing {
                        if let Some(item) =
                            lists::find_item(&state.db, list.id, product.0, variation).await?
                        {
                            lists::remove_items(&state.db, list.id, &[item.id]).await?;
                        }
                        body["removed"] = json!(true);
                        messages.push(rules::html::escape(rules_wl::TEXT_REMOVED_FROM));
                    } else {
                        match lists::add_item(
                            &state.db,
                            list.id,
                            product.0,
                            variation,
                            ctx.now,
                            rules_wl::MAX_ITEMS,
                        )
                        .await?
                        {
                            Added::Added(_) => {
                                status = true;
                                messages.push(fill(
                                    rules_wl::TEXT_ADDED_TO,
                                    &name,
                                    &sku,
                                    &list.title,
                                ));
                            }
                            Added::AlreadyIn => messages.push(fill(
                                rules_wl::TEXT_ALREADY_IN,
                                &name,
                                &sku,
                                &list.title,
                            )),
                            Added::Full => messages.push(rules::html::escape(rules_wl::LIST_FULL)),
                        }
                    }
                    list_for_answer = Some(list);
                }
            }
        }
    }
    let wishlist_url = match &list_for_answer {
        Some(list) => list_url(ctx, list),
        None => ctx.base_url.link("/wishlist/"),
    };
    body["status"] = json!(status);
    body["icon"] = json!(icon(status));
    body["wishlist_url"] = json!(wishlist_url);
    if settings.show_notice && !messages.is_empty() {
        body["msg"] = json!(dialog_html(status, &messages, Some(&wishlist_url)));
    }
    if let Some(list) = &list_for_answer {
        body["wishlist"] = list_json(list, true);
    }
    if status && settings.redirect && settings.show_notice {
        body["redirect"] = json!(wishlist_url);
    }
    if !settings.show_notice && !status && !settings.simple_flow {
        body["force_redirect"] = json!(wishlist_url);
    }
    if settings.simple_flow {
        body["make_remove"] = json!(status);
    }
    let extra = [requested];
    let (data, _) =
        wishlists_data(state, shopper.owner(), want_stats.then_some(&extra[..])).await?;
    body["wishlists_data"] = data;
    Ok(json_value(StatusCode::OK, &body))
}
