//! The storefront's order calls: one order by its key (thank-you and order-pay pages),
//! guest lookup by number and billing e-mail, and a customer's own orders.

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use serde::Deserialize;
use serde_json::json;

use super::view;
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::{StoreCtx, StoreWrite};
use crate::rate_limit::{self, Action};
use crate::state::{AppState, SharedState};
use rules::orders::model::{Order, OrderId, OrderStatus};

pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .post("/orders/lookup", lookup_order)
        .get("/orders/{id}", get_order)
        .get("/account/orders", list_my_orders)
        .get("/account/orders/{id}", get_my_order)
}

fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "ferroshop_order_not_found",
        "Sorry, this order is invalid and cannot be viewed.",
    )
}

fn render(state: &AppState, ctx: &StoreCtx, order: &Order) -> Response {
    json_value(
        StatusCode::OK,
        &view::order_json(
            order,
            &state.config.currency,
            &state.config.checkout.gateways,
            ctx.base_url.as_str(),
        ),
    )
}

fn parse_id(raw: &str) -> Result<OrderId, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|&id| id > 0)
        .map(OrderId)
        .ok_or_else(not_found)
}

#[derive(Deserialize)]
struct KeyQuery {
    #[serde(default)]
    key: String,
}

/// An order shown to whoever holds its key, as the original's thank-you page does.
async fn get_order(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
    RawQuery(query): RawQuery,
) -> Response {
    let key = query
        .and_then(|q| serde_urlencoded::from_str::<KeyQuery>(&q).ok())
        .map(|q| q.key)
        .unwrap_or_default();
    let result = async {
        let id = parse_id(&id)?;
        let order = super::service::find_by_key(&state.db, id, &key)
            .await?
            .ok_or_else(not_found)?;
        Ok::<_, ApiError>(render(&state, &ctx, &order))
    }
    .await;
    ctx.answer(&state, result)
}

/// Guest order lookup: the order number and the billing e-mail must both match.
async fn lookup_order(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let result = async {
        let number = params.string("order_number")?.unwrap_or_default();
        let email = params.string("billing_email")?.unwrap_or_default();
        let number = number.trim().trim_start_matches('#');
        if number.is_empty() || email.trim().is_empty() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "ferroshop_order_lookup_incomplete",
                "Please enter a valid order ID and billing email.",
            ));
        }
        let lookup_failed = || {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "ferroshop_order_not_found",
                "Sorry, the order could not be found. Please contact us if you are having difficulty finding your order details.",
            )
        };
        // Counted per address and per client before anything is looked up, so orders
        // cannot be enumerated by e-mail or by number.
        let limits =
            rate_limit::limits(Action::OrderLookup, Some(&email.trim().to_lowercase()), ctx.client);
        if let Err(limited) =
            rate_limit::attempt(&state.db, Action::OrderLookup, &limits, ctx.now).await?
        {
            return Err(limited.to_api());
        }
        let id = number
            .parse::<i64>()
            .ok()
            .filter(|&id| id > 0)
            .ok_or_else(lookup_failed)?;
        let order = store::orders::find_by_number_and_email(&state.db, OrderId(id), &email)
            .await?
            .ok_or_else(lookup_failed)?;
        Ok(render(&state, &ctx, &order))
    }
    .await;
    ctx.answer(&state, result)
}

/// The customer whose orders these are: a valid, unrevoked login.
fn logged_in(ctx: &StoreCtx) -> Result<i64, ApiError> {
    match ctx.session.user_id {
        id if id > 0 => Ok(id),
        _ => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "ferroshop_not_logged_in",
            "You must be logged in.",
        )),
    }
}

#[derive(Deserialize)]
struct PageQuery {
    page: Option<String>,
    per_page: Option<String>,
}

async fn list_my_orders(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    RawQuery(query): RawQuery,
) -> Response {
    let result = async {
        let customer = logged_in(&ctx)?;
        let q = query.and_then(|q| serde_urlencoded::from_str::<PageQuery>(&q).ok());
        let int = |name: &str, v: Option<&String>, default: i64| -> Result<i64, ApiError> {
            match v {
                None => Ok(default),
                Some(s) => s.trim().parse().map_err(|_| ApiError::not_integer(name)),
            }
        };
        let page = int("page", q.as_ref().and_then(|q| q.page.as_ref()), 1)?;
        let per_page = int("per_page", q.as_ref().and_then(|q| q.per_page.as_ref()), 10)?;
        if page < 1 {
            return Err(ApiError::invalid_param(
                "page",
                "page must be greater than or equal to 1",
                "rest_out_of_bounds",
            ));
        }
        if !(1..=100).contains(&per_page) {
            return Err(ApiError::invalid_param(
                "per_page",
                "per_page must be between 1 (inclusive) and 100 (inclusive)",
                "rest_out_of_bounds",
            ));
        }
        let (orders, total) = store::orders::list_customer_orders(
            &state.db,
            customer,
            (page - 1).saturating_mul(per_page),
            per_page,
        )
        .await?;
        let list: Vec<_> = orders
            .iter()
            .map(|o| view::summary(o, &state.config.currency))
            .collect();
        let mut res = json_value(StatusCode::OK, &json!(list));
        let pages = (total + per_page - 1) / per_page;
        let h = res.headers_mut();
        h.insert("x-wp-total", HeaderValue::from(total));
        h.insert("x-wp-totalpages", HeaderValue::from(pages));
        Ok(res)
    }
    .await;
    ctx.answer(&state, result)
}

async fn get_my_order(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
) -> Response {
    let result = async {
        let customer = logged_in(&ctx)?;
        let id = parse_id(&id)?;
        let order = store::orders::find_order(&state.db, id)
            .await?
            .filter(|o| o.customer_id == Some(customer) && o.status != OrderStatus::CheckoutDraft)
            .ok_or_else(not_found)?;
        Ok::<_, ApiError>(render(&state, &ctx, &order))
    }
    .await;
    ctx.answer(&state, result)
}
