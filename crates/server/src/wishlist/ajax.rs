//! The list table's calls, `POST /?wc-ajax=tinvwl`: removing items (the owner),
//! moving them into the cart (anyone who can see the list; they leave it only for its
//! owner), `get_data`, and managing one's lists (`create_list`, `rename_list`,
//! `delete_list`). Every call needs the session's `wp_rest` nonce and is counted per
//! client before its body is read.

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::add::{counted, fields_refusal, refusal};
use super::fields::{self, Fields};
use super::{list_json, view, wishlists_data, Shopper};
use crate::cart::ajax::{add as add_to_cart, AddError};
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::http::store_api::StoreCtx;
use crate::state::AppState;
use rules::catalog::model::{ProductId, ProductKind};
use rules::html::escape;
use rules::wishlist::{self as rules_wl, dialog_html, icon, ShareKey};
use store::wishlists::{self as lists, Item, Wishlist};
use store::StoreResult;

const ACTIONS: &[&str] = &[
    "remove",
    "remove_selected",
    "add_to_cart_single",
    "add_to_cart_selected",
    "add_to_cart_all",
    "get_data",
    "create_list",
    "rename_list",
    "delete_list",
];

pub async fn dispatch(state: &AppState, parts: &Parts, body: Body) -> Response {
    if parts.method != Method::POST {
        let mut res = refusal(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            rules_wl::SOMETHING_WENT_WRONG,
        );
        res.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        return res;
    }
    let ctx = match StoreCtx::from_parts(state, parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let mut res = match counted(state, &ctx).await {
        Some(res) => res,
        None => match fields::read(&parts.headers, body).await {
            Err(e) => fields_refusal(e),
            Ok(fields) => answer(state, &ctx, parts, &fields).await,
        },
    };
    ctx.keep_session(state, res.headers_mut());
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// What an action did, before it is written as the answer.
#[derive(Default)]
struct Outcome {
    status: bool,
    /// HTML, escaped.
    messages: Vec<String>,
    redirect: Option<String>,
    /// The cart after items went into it: (hash, items).
    cart: Option<(String, i64)>,
    /// The list the answer is about (its table is `content`).
    list: Option<Wishlist>,
    /// A list created: named in the answer.
    created: Option<Wishlist>,
}

impl Outcome {
    fn failed(message: &str) -> Self {
        Self {
            messages: vec![escape(message)],
            ..Self::default()
        }
    }
}

async fn answer(state: &AppState, ctx: &StoreCtx, parts: &Parts, fields: &Fields) -> Response {
    if !ctx.form_nonce_ok(state, &parts.headers, fields.one("tinvwl-security")) {
        return refusal(
            StatusCode::FORBIDDEN,
            "invalid_nonce",
            rules_wl::SOMETHING_WENT_WRONG,
        );
    }
    let action = fields.text("tinvwl-action");
    if !ACTIONS.contains(&action) {
        let body = json!({
            "status": false,
            "icon": icon(false),
            "msg": dialog_html(false, &[escape(rules_wl::SOMETHING_WENT_WRONG)], None),
        });
        return json_value(StatusCode::BAD_REQUEST, &body);
    }
    let per_page = match fields.text("tinvwl-per-page") {
        "" => rules_wl::DEFAULT_PER_PAGE,
        v => match v.parse::<i64>() {
            Ok(n) => n.clamp(1, rules_wl::MAX_PER_PAGE),
            Err(_) => {
                return refusal(
                    StatusCode::BAD_REQUEST,
                    "invalid_param",
                    rules_wl::SOMETHING_WENT_WRONG,
                )
            }
        },
    };
    let paged = match fields.text("tinvwl-paged") {
        "" => 1,
        v => match v.parse::<i64>() {
            Ok(n) => n,
            Err(_) => {
                return refusal(
                    StatusCode::BAD_REQUEST,
                    "invalid_param",
                    rules_wl::SOMETHING_WENT_WRONG,
                )
            }
        },
    };
    let mut shopper = Shopper::of(ctx);
    let result = run(state, ctx, &mut shopper, action, fields).await;
    let outcome = match result {
        Ok(Ok(o)) => o,
        Ok(Err(res)) => return res,
        Err(e) => {
            tracing::error!(error = %e, action, "a wishlist table call failed");
            return refusal(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                rules_wl::SOMETHING_WENT_WRONG,
            );
        }
    };
    match written(
        state, ctx, &shopper, action, fields, outcome, paged, per_page,
    )
    .await
    {
        Ok(res) => res,
        Err(e) => {
            tracing::error!(error = %e, action, "a wishlist table answer could not be written");
            refusal(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                rules_wl::SOMETHING_WENT_WRONG,
            )
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn written(
    state: &AppState,
    ctx: &StoreCtx,
    shopper: &Shopper,
    action: &str,
    fields: &Fields,
    outcome: Outcome,
    paged: i64,
    per_page: i64,
) -> StoreResult<Response> {
    let want_stats = rules_wl::truthy(fields.one("stats"));
    let (data, counter) =
        wishlists_data(state, shopper.owner(), want_stats.then_some(&[][..])).await?;
    let mut body = json!({
        "status": outcome.status,
        "action": action,
        "icon": icon(outcome.status),
        "wishlists_data": data,
    });
    if !outcome.messages.is_empty() {
        body["msg"] = json!(dialog_html(outcome.status, &outcome.messages, None));
    }
    if let Some(url) = &outcome.redirect {
        body["redirect"] = json!(url);
    }
    if let Some(list) = &outcome.created {
        body["wishlist"] = list_json(list, true);
    }
    if action != "get_data" {
        // The list as it is now (an item count changed), for the plugin's client.
        let list = match &outcome.list {
            Some(l) => lists::by_id(&state.db, l.id).await?,
            None => None,
        };
        let is_owner = list.as_ref().is_some_and(|l| l.owned_by(shopper.owner()));
        let page = view::list_page(state, ctx, list.as_ref(), is_owner, paged, per_page).await?;
        body["content"] = json!(view::table_html(&page));
    }
    let mut res = json_value(StatusCode::OK, &body);
    if let Some((hash, items)) = &outcome.cart {
        ctx.cart_cookies(state, res.headers_mut(), hash, *items);
    }
    shopper
        .cookies(state, ctx, res.headers_mut(), counter, action != "get_data")
        .await;
    Ok(res)
}

/// The list a call names by `tinvwl-sharekey`, or the shopper's default list. A key
/// that is not a key is a bad request; a key of no list is answered as not found.
async fn list_named(
    state: &AppState,
    shopper: &Shopper,
    fields: &Fields,
) -> StoreResult<Result<Option<Wishlist>, Response>> {
    let key = fields.text("tinvwl-sharekey");
    if key.is_empty() {
        return Ok(Ok(match shopper.owner() {
            Some(owner) => lists::default_of(&state.db, owner).await?,
            None => None,
        }));
    }
    let Some(key) = ShareKey::parse(key) else {
        return Ok(Err(refusal(
            StatusCode::BAD_REQUEST,
            "invalid_sharekey",
            rules_wl::NOT_FOUND,
        )));
    };
    match lists::by_share_key(&state.db, key.as_str()).await? {
        Some(list) => Ok(Ok(Some(list))),
        None => Ok(Err(refusal(
            StatusCode::NOT_FOUND,
            "wishlist_not_found",
            rules_wl::NOT_FOUND,
        ))),
    }
}

/// Item ids from `tinvwl-products[]`: at most a full list's worth, each a number; or
/// the code of the refusal.
fn item_ids(fields: &Fields) -> Result<Vec<i64>, &'static str> {
    let raw = fields.all("tinvwl-products");
    if raw.len() > rules_wl::MAX_ITEMS as usize {
        return Err("too_many_items");
    }
    let mut ids = Vec::with_capacity(raw.len());
    for v in raw {
        match v.trim().parse::<i64>() {
            Ok(id) if id > 0 => ids.push(id),
            _ => return Err("invalid_param"),
        }
    }
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

fn bad_ids(code: &str) -> Response {
    refusal(
        StatusCode::BAD_REQUEST,
        code,
        rules_wl::SOMETHING_WENT_WRONG,
    )
}

/// An item's name as the table shows it.
fn item_name(state: &AppState, item: &Item) -> String {
    let catalog = state.catalog.get();
    let id = if item.variation_id > 0 {
        item.variation_id
    } else {
        item.product_id
    };
    catalog
        .product(ProductId(id))
        .map_or_else(|| format!("#{id}"), |p| p.name.clone())
}

async fn run(
    state: &AppState,
    ctx: &StoreCtx,
    shopper: &mut Shopper,
    action: &str,
    fields: &Fields,
) -> StoreResult<Result<Outcome, Response>> {
    if action == "create_list" {
        return create_list(state, ctx, shopper, fields).await.map(Ok);
    }
    let list = match list_named(state, shopper, fields).await? {
        Ok(list) => list,
        Err(res) => return Ok(Err(res)),
    };
    let is_owner = list.as_ref().is_some_and(|l| l.owned_by(shopper.owner()));
    let mut outcome = Outcome {
        list: list.clone(),
        ..Outcome::default()
    };
    let owner_only = matches!(
        action,
        "remove" | "remove_selected" | "rename_list" | "delete_list"
    );
    if action == "get_data" {
        outcome.status = true;
        return Ok(Ok(outcome));
    }
    let Some(list) = list else {
        // No list yet: nothing to act on.
        return Ok(Ok(Outcome::failed(rules_wl::SOMETHING_WENT_WRONG)));
    };
    if owner_only && !is_owner {
        return Ok(Ok(Outcome {
            list: Some(list),
            ..Outcome::failed(rules_wl::SOMETHING_WENT_WRONG)
        }));
    }
    match action {
        "remove" | "remove_selected" => {
            let ids = if action == "remove" {
                match fields.text("tinvwl-product_id").parse::<i64>() {
                    Ok(id) if id > 0 => vec![id],
                    _ => Vec::new(),
                }
            } else {
                match item_ids(fields) {
                    Ok(ids) => ids,
                    Err(code) => return Ok(Err(bad_ids(code))),
                }
            };
            let removed = lists::remove_items(&state.db, list.id, &ids).await?;
            if removed.is_empty() {
                outcome
                    .messages
                    .push(escape(rules_wl::SOMETHING_WENT_WRONG));
            } else {
                let names: Vec<String> = removed.iter().map(|i| item_name(state, i)).collect();
                outcome.status = true;
                outcome.messages.push(rules_wl::removed_message(&names));
            }
        }
        "add_to_cart_single" | "add_to_cart_selected" | "add_to_cart_all" => {
            let items = match action {
                "add_to_cart_all" => {
                    lists::items_page(&state.db, list.id, 0, rules_wl::MAX_ITEMS).await?
                }
                "add_to_cart_single" => match fields.text("tinvwl-product_id").parse::<i64>() {
                    Ok(id) if id > 0 => lists::items_by_ids(&state.db, list.id, &[id]).await?,
                    _ => Vec::new(),
                },
                _ => match item_ids(fields) {
                    Ok(ids) => lists::items_by_ids(&state.db, list.id, &ids).await?,
                    Err(code) => return Ok(Err(bad_ids(code))),
                },
            };
            if items.is_empty() {
                outcome
                    .messages
                    .push(escape(rules_wl::SOMETHING_WENT_WRONG));
            } else {
                to_cart(state, ctx, &list, is_owner, &items, &mut outcome).await?;
            }
        }
        "rename_list" => match rules_wl::normalize_title(fields.text("tinvwl-name")) {
            Some(title) => {
                lists::rename_list(&state.db, list.id, &title, ctx.now).await?;
                outcome.status = true;
            }
            None => outcome.messages.push(escape(TITLE_NEEDED)),
        },
        "delete_list" => {
            if list.is_default {
                outcome
                    .messages
                    .push(escape("The default wishlist cannot be deleted."));
            } else {
                outcome.status = lists::delete_list(&state.db, list.id).await?;
                outcome.list = None;
            }
        }
        _ => {}
    }
    outcome.list.get_or_insert(list);
    if action == "delete_list" && outcome.status {
        outcome.list = None;
    }
    Ok(Ok(outcome))
}

const TITLE_NEEDED: &str = "Please give the wishlist a name of 1 to 100 characters.";

async fn create_list(
    state: &AppState,
    ctx: &StoreCtx,
    shopper: &mut Shopper,
    fields: &Fields,
) -> StoreResult<Outcome> {
    let Some(title) = rules_wl::normalize_title(fields.text("tinvwl-name")) else {
        return Ok(Outcome::failed(TITLE_NEEDED));
    };
    let owner = shopper.owner_for_write();
    let default = super::ensure_default(&state.db, owner, ctx.now).await?;
    Ok(
        match super::create_named(&state.db, owner, default.id, &title, ctx.now).await? {
            Some(list) => Outcome {
                status: true,
                list: Some(list.clone()),
                created: Some(list),
                ..Outcome::default()
            },
            None => Outcome::failed(rules_wl::TOO_MANY_LISTS),
        },
    )
}

/// Moves items into the shopper's cart through the cart's own add (stock, sold
/// individually, purchasable); each that went in leaves the list when the shopper
/// owns it.
async fn to_cart(
    state: &AppState,
    ctx: &StoreCtx,
    list: &Wishlist,
    is_owner: bool,
    items: &[Item],
    outcome: &mut Outcome,
) -> StoreResult<()> {
    let mut added_names = Vec::new();
    let mut moved = Vec::new();
    let mut errors = Vec::new();
    for item in items {
        let catalog = state.catalog.get();
        let Some(product) = catalog.shown(ProductId(item.product_id)) else {
            errors.push(escape(rules_wl::SOMETHING_WENT_WRONG));
            continue;
        };
        if product.kind == ProductKind::Variable && item.variation_id == 0 {
            errors.push(rules_wl::choose_options_message(&product.name));
            if items.len() == 1 {
                outcome.redirect = Some(ctx.view(state).product_url(product, &catalog));
            }
            continue;
        }
        let mut params = serde_json::Map::new();
        params.insert("product_id".into(), json!(item.product_id));
        if item.variation_id > 0 {
            params.insert("variation_id".into(), json!(item.variation_id));
        }
        // The least the product may be bought in (one, unless it says more).
        let least = catalog
            .shown(ProductId(if item.variation_id > 0 {
                item.variation_id
            } else {
                item.product_id
            }))
            .map_or(1, |p| p.min_quantity.max(1));
        params.insert("quantity".into(), json!(least));
        let name = item_name(state, item);
        match add_to_cart(state, ctx, &Params(params)).await {
            Ok(added) => {
                outcome.cart = Some((
                    added.cart.hash(&state.config.currency.code),
                    added.cart.items_count(),
                ));
                added_names.push(name);
                moved.push(item.id);
            }
            Err(AddError::Refused(r)) => {
                errors
                    .push(escape(&r.message.unwrap_or_else(|| {
                        rules_wl::SOMETHING_WENT_WRONG.to_string()
                    })));
            }
            Err(AddError::Store(e)) => return Err(e),
        }
    }
    if !added_names.is_empty() {
        outcome.status = true;
        outcome
            .messages
            .push(rules_wl::added_to_cart_message(&added_names));
        if is_owner {
            lists::remove_items(&state.db, list.id, &moved).await?;
        }
        if state.config.cart_redirect_after_add {
            outcome.redirect = Some(ctx.base_url.link("/cart/"));
        }
    }
    outcome.messages.extend(errors);
    Ok(())
}
