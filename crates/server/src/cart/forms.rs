//! The cart without scripts, as the original shop takes it: the product form posted
//! to its page, the `?add-to-cart=ID` link, and the cart page's form (quantities,
//! "Update cart"). Each answers with the page and a notice saying what happened.

use axum::http::HeaderMap;
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::ajax::{add, AddError, CART_NONCE};
use crate::http::params::Params;
use crate::http::store_api::StoreCtx;
use crate::state::AppState;
use rules::catalog::model::ProductId;

/// A message shown at the top of the page that answers a form.
#[derive(Debug, Clone, Serialize)]
pub struct Notice {
    /// `success` or `error`.
    pub kind: &'static str,
    pub message: String,
    /// The notice offers a link to the cart.
    pub cart_link: bool,
}

impl Notice {
    fn error(message: impl Into<String>) -> Self {
        Self {
            kind: "error",
            message: message.into(),
            cart_link: false,
        }
    }

    fn success(message: impl Into<String>, cart_link: bool) -> Self {
        Self {
            kind: "success",
            message: message.into(),
            cart_link,
        }
    }
}

/// What a form did: the notices to show, and the cart's state for its cookies.
#[derive(Default)]
pub struct FormOutcome {
    pub notices: Vec<Notice>,
    /// (cart hash, items) after a change.
    pub cart: Option<(String, i64)>,
}

const GENERIC_REFUSAL: &str = "Sorry, this product cannot be purchased.";
const CART_UPDATED: &str = "Cart updated.";
const STALE_FORM: &str = "This page has expired: the cart was not changed. Please try again.";

/// "“Beanie” has been added to your cart." (with the quantity when more than one).
pub fn added_notice(state: &AppState, product: ProductId, quantity: i64) -> Option<Notice> {
    let catalog = state.catalog.get();
    let p = catalog.shown(product)?;
    let name = rules::html::strip_tags(&p.name);
    let message = if quantity > 1 {
        format!("{quantity} × “{name}” have been added to your cart.")
    } else {
        format!("“{name}” has been added to your cart.")
    };
    Some(Notice::success(message, true))
}

/// The original shop's add-to-cart fields, posted to a page or given in a link.
pub async fn add_to_cart(state: &AppState, ctx: &StoreCtx, params: &Params) -> FormOutcome {
    match add(state, ctx, params).await {
        Ok(added) => FormOutcome {
            notices: added_notice(state, added.product, added.quantity)
                .into_iter()
                .collect(),
            cart: Some((
                added.cart.hash(&state.config.currency.code),
                added.cart.items_count(),
            )),
        },
        Err(AddError::Refused(r)) => FormOutcome {
            notices: vec![Notice::error(
                r.message.unwrap_or_else(|| GENERIC_REFUSAL.into()),
            )],
            cart: None,
        },
        Err(AddError::Store(e)) => {
            tracing::error!(error = %e, "add to cart from a form failed");
            FormOutcome {
                notices: vec![Notice::error(GENERIC_REFUSAL)],
                cart: None,
            }
        }
    }
}

/// The cart page's form: `cart[KEY][qty]` per line (0 removes it), with the cart
/// page's nonce (`woocommerce-cart-nonce`).
pub async fn update_cart(state: &AppState, ctx: &StoreCtx, params: &Params) -> FormOutcome {
    let nonce = params
        .string("woocommerce-cart-nonce")
        .ok()
        .flatten()
        .or_else(|| params.string("_wpnonce").ok().flatten());
    if !ctx.nonce_matches(state, CART_NONCE, nonce.as_deref()) {
        return FormOutcome {
            notices: vec![Notice::error(STALE_FORM)],
            cart: None,
        };
    }
    if let Ok(Some(key)) = params.string("remove_item") {
        return remove_line(state, ctx, &key).await;
    }
    let wanted = quantities(params);
    let mut notices = Vec::new();
    let mut cart = None;
    for (key, quantity) in wanted {
        let mut fields = Map::new();
        fields.insert("key".into(), json!(key));
        let line = Params(fields.clone());
        let result = if quantity <= 0 {
            crate::cart::api::remove_item_inner(state, ctx, &line).await
        } else {
            fields.insert("quantity".into(), json!(quantity));
            crate::cart::api::update_item_inner(state, ctx, &Params(fields)).await
        };
        match result {
            Ok(updated) => {
                cart = Some((
                    updated.hash(&state.config.currency.code),
                    updated.items_count(),
                ))
            }
            Err(e) => notices.push(Notice::error(rules::html::strip_tags(&e.message))),
        }
    }
    if notices.is_empty() {
        notices.push(Notice::success(CART_UPDATED, false));
    }
    FormOutcome { notices, cart }
}

/// The cart form's remove button for one line.
async fn remove_line(state: &AppState, ctx: &StoreCtx, key: &str) -> FormOutcome {
    let name = match crate::cart::service::load(state, &ctx.session, ctx.now).await {
        Ok(cart) => cart.line(key).and_then(|line| {
            let catalog = state.catalog.get();
            let product = catalog.product(line.id)?;
            let parent = product
                .parent_id
                .and_then(|id| catalog.product(id))
                .unwrap_or(product);
            Some(rules::html::strip_tags(&parent.name))
        }),
        Err(_) => None,
    };
    let mut fields = Map::new();
    fields.insert("key".into(), json!(key));
    match crate::cart::api::remove_item_inner(state, ctx, &Params(fields)).await {
        Ok(cart) => FormOutcome {
            notices: vec![Notice::success(
                match name {
                    Some(name) => format!("“{name}” removed."),
                    None => "Item removed.".into(),
                },
                false,
            )],
            cart: Some((cart.hash(&state.config.currency.code), cart.items_count())),
        },
        Err(e) => FormOutcome {
            notices: vec![Notice::error(rules::html::strip_tags(&e.message))],
            cart: None,
        },
    }
}

/// The lines' quantities from the `cart[KEY][qty]` fields; at most one hundred lines
/// are read.
fn quantities(params: &Params) -> Vec<(String, i64)> {
    let mut found = Vec::new();
    if let Some(Value::Object(lines)) = params.get("cart") {
        for (key, line) in lines.iter().take(100) {
            if let Some(q) = line.get("qty").and_then(crate::http::params::as_int) {
                found.push((key.clone(), q));
            }
        }
    }
    found.truncate(100);
    found
}

/// Whether a GET that changes the cart (the `?add-to-cart=ID` link) came from the
/// shop's own pages, a bookmark or a typed address, and not from another site.
pub fn link_allowed(state: &AppState, headers: &HeaderMap) -> bool {
    !state.address.is_cross_site(headers)
}
