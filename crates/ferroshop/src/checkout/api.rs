//! The Store API's checkout calls: the shopper's addresses and shipping choice, coupons,
//! the checkout itself, and paying for an existing order.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Map, Value};

use super::address::{Address, ADDRESS_FIELDS};
use super::fields::{self, Kind, Surface};
use super::place::{self, CheckoutInput, FieldProblem, PlaceError};
use super::service::{self, CouponChangeError, RateError};
use crate::cart::api::changed;
use crate::cart::service::ChangeError;
use crate::error::ApiError;
use crate::http::params::{as_int, Params};
use crate::http::store_api::{json_value, StoreCtx, StoreWrite};
use crate::orders::model::{OrderId, OrderStatus};
use crate::orders::view::checkout_json;
use crate::state::{AppState, SharedState};
use crate::store;

pub fn router() -> Router<SharedState> {
    Router::new()
        .route("/cart/update-customer", post(update_customer))
        .route("/cart/select-shipping-rate", post(select_shipping_rate))
        .route("/cart/apply-coupon", post(apply_coupon))
        .route("/cart/remove-coupon", post(remove_coupon))
        .route("/checkout", get(get_checkout).post(post_checkout))
        .route("/checkout/{id}", post(pay_for_order))
}

/// `rest_invalid_param` as the original writes it for a body parameter that failed
/// its schema (`data` of the detail is null).
fn invalid_param(param: &str, code: &str, message: &str) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "rest_invalid_param",
        format!("Invalid parameter(s): {param}"),
    )
    .with_data("params", json!({ param: message }))
    .with_data(
        "details",
        json!({ param: { "code": code, "message": message, "data": null } }),
    )
}

/// An address parameter: an object of strings (numbers are taken as text). Missing
/// fields are empty; unknown fields are ignored.
fn address_param(params: &Params, name: &str) -> Result<Option<Address>, ApiError> {
    let Some(value) = params.get(name) else {
        return Ok(None);
    };
    let Value::Object(map) = value else {
        return Err(invalid_param(
            name,
            "rest_invalid_type",
            &format!("{name} is not of type object."),
        ));
    };
    address_from_map(name, map).map(Some)
}

fn address_from_map(name: &str, map: &Map<String, Value>) -> Result<Address, ApiError> {
    let mut address = Address::default();
    for field in ADDRESS_FIELDS {
        let text = match map.get(field) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            Some(_) => {
                return Err(invalid_param(
                    name,
                    "rest_invalid_type",
                    &format!("{name}[{field}] is not of type string."),
                ))
            }
        };
        if text.chars().count() > 200 {
            return Err(invalid_param(
                name,
                "rest_invalid_param",
                &format!("{name}[{field}] is too long."),
            ));
        }
        *address.get_mut(field).expect("known field") = text.trim().to_string();
    }
    address.country = address.country.to_uppercase();
    Ok(address)
}

/// Format checks a Store API address gets on every call (required fields are only
/// checked when the order is placed).
fn check_format(name: &str, kind: Kind, address: &Address) -> Result<(), ApiError> {
    let problems = fields::validate(kind, address, Surface::StoreApi);
    // A partial address (no country yet) is fine until the order is placed.
    let blank_country = address.country.trim().is_empty();
    match problems
        .into_iter()
        .find(|p| p.code != "required" && !(blank_country && p.code == "invalid_country"))
    {
        Some(p) => Err(invalid_param(name, p.code, &p.message)),
        None => Ok(()),
    }
}

fn place_error(e: PlaceError) -> ApiError {
    if let PlaceError::Store(s) = e {
        return s.into();
    }
    ApiError::new(StatusCode::BAD_REQUEST, e.code(), e.message())
}

fn change_error(e: ChangeError) -> ApiError {
    match e {
        ChangeError::Store(s) => s.into(),
        ChangeError::Cart(c) => crate::cart::api::cart_error(c),
    }
}

async fn update_customer(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let result = async {
        let billing = address_param(&params, "billing_address")?;
        let mut shipping = address_param(&params, "shipping_address")?;
        let mut billing = billing;
        if let Some(b) = billing.as_mut() {
            check_format("billing_address", Kind::Billing, b)?;
            fields::normalize(b);
        }
        if let Some(s) = shipping.as_mut() {
            s.email.clear();
            check_format("shipping_address", Kind::Shipping, s)?;
            fields::normalize(s);
        }
        let cart = service::update_customer(&state, &ctx.session, ctx.now, billing, shipping)
            .await
            .map_err(change_error)?;
        Ok::<_, ApiError>(changed(&state, &ctx, StatusCode::OK, &cart).await)
    }
    .await;
    ctx.answer(&state, result)
}

async fn select_shipping_rate(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let result = async {
        let rate_id = params.string("rate_id")?.unwrap_or_default();
        if rate_id.trim().is_empty() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "woocommerce_rest_cart_missing_rate_id",
                "Invalid Rate ID.",
            ));
        }
        let package_id = match params.get("package_id") {
            None => 0,
            Some(v) => as_int(v)
                .filter(|&p| (0..=99).contains(&p))
                .ok_or_else(|| ApiError::not_integer("package_id"))?,
        };
        let cart = service::select_shipping_rate(
            &state,
            &ctx.session,
            ctx.now,
            package_id as usize,
            rate_id.trim(),
        )
        .await
        .map_err(|e| match e {
            RateError::UnknownPackage => ApiError::new(
                StatusCode::BAD_REQUEST,
                "woocommerce_rest_cart_invalid_shipping_package",
                "Invalid Package ID.",
            ),
            RateError::UnknownRate => ApiError::new(
                StatusCode::BAD_REQUEST,
                "woocommerce_rest_cart_invalid_rate_id",
                "Invalid Rate ID.",
            ),
            RateError::Store(e) => change_error(e),
        })?;
        Ok::<_, ApiError>(changed(&state, &ctx, StatusCode::OK, &cart).await)
    }
    .await;
    ctx.answer(&state, result)
}

fn customer_of(ctx: &StoreCtx) -> Option<i64> {
    (ctx.session.user_id > 0).then_some(ctx.session.user_id)
}

async fn apply_coupon(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let result = async {
        let code = params.string("code")?.unwrap_or_default();
        let (cart, _) = service::apply_coupon(
            &state,
            &ctx.session,
            customer_of(&ctx),
            ctx.now,
            &code,
            None,
        )
        .await
        .map_err(coupon_error)?;
        Ok::<_, ApiError>(changed(&state, &ctx, StatusCode::OK, &cart).await)
    }
    .await;
    ctx.answer(&state, result)
}

fn coupon_error(e: CouponChangeError) -> ApiError {
    match e {
        CouponChangeError::Refused(message) => ApiError::new(
            StatusCode::BAD_REQUEST,
            "woocommerce_rest_cart_coupon_error",
            message,
        ),
        CouponChangeError::NotApplied(message) => ApiError::new(
            StatusCode::BAD_REQUEST,
            "woocommerce_rest_cart_coupon_invalid_code",
            message,
        ),
        CouponChangeError::Store(s) => s.into(),
    }
}

async fn remove_coupon(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let result = async {
        let code = params.string("code")?.unwrap_or_default();
        let cart = service::remove_coupon(&state, &ctx.session, ctx.now, &code)
            .await
            .map_err(coupon_error)?;
        Ok::<_, ApiError>(changed(&state, &ctx, StatusCode::OK, &cart).await)
    }
    .await;
    ctx.answer(&state, result)
}

/// The draft order of this checkout. Unlike the cart, reading it needs the nonce.
async fn get_checkout(State(state): State<SharedState>, headers: HeaderMap) -> Response {
    let ctx = StoreCtx::new(&state, &headers);
    let result = async {
        ctx.check_nonce(&state, &Method::POST, &headers)?;
        let draft = service::draft_order(&state, &ctx.session, ctx.now)
            .await
            .map_err(change_error)?
            .ok_or_else(|| place_error(PlaceError::EmptyCart))?;
        Ok::<_, ApiError>(json_value(StatusCode::OK, &checkout_json(&draft, None)))
    }
    .await;
    ctx.answer(&state, result)
}

/// The parameters of a checkout, checked against their schema before anything else
/// happens (as in the original, such refusals carry no session headers).
struct CheckoutParams {
    billing: Address,
    shipping: Option<Address>,
    customer_note: String,
    payment_method: String,
    create_account: bool,
    password: String,
}

fn checkout_params(state: &AppState, params: &Params) -> Result<CheckoutParams, ApiError> {
    let payment_method = params.string("payment_method")?.unwrap_or_default();
    let gateways = &state.config.checkout.gateways;
    if !payment_method.is_empty() && gateways.find(&payment_method).is_none() {
        return Err(invalid_param(
            "payment_method",
            "rest_not_in_enum",
            &format!("payment_method is not one of {}.", gateways.ids_sentence()),
        ));
    }
    let billing = address_param(params, "billing_address")?.unwrap_or_default();
    check_format("billing_address", Kind::Billing, &billing)?;
    let mut shipping = address_param(params, "shipping_address")?;
    if let Some(s) = shipping.as_mut() {
        s.email.clear();
        check_format("shipping_address", Kind::Shipping, s)?;
    }
    let customer_note = params.string("customer_note")?.unwrap_or_default();
    if customer_note.chars().count() > 5000 {
        return Err(invalid_param(
            "customer_note",
            "rest_invalid_param",
            "customer_note is too long.",
        ));
    }
    let create_account = match params.get("create_account") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => matches!(s.as_str(), "1" | "true" | "yes" | "on"),
        Some(Value::Number(n)) => n.as_i64() == Some(1),
        Some(_) => {
            return Err(invalid_param(
                "create_account",
                "rest_invalid_type",
                "create_account is not of type boolean.",
            ))
        }
    };
    let password = params.string("customer_password")?.unwrap_or_default();
    Ok(CheckoutParams {
        billing,
        shipping,
        customer_note: customer_note.trim().to_string(),
        payment_method,
        create_account,
        password,
    })
}

/// Required fields, as a Store API error naming the address at fault.
fn required_fields(billing: &Address, shipping: Option<&Address>) -> Result<(), ApiError> {
    let check = |name: &str, problems: Vec<FieldProblem>| match problems.first() {
        Some(p) if p.code == "required" => {
            let kind = name.trim_end_matches("_address");
            let listed: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
            let message = format!(
                "There was a problem with the provided {kind} address: {}",
                listed.join(", ")
            );
            Err(invalid_param(name, p.code, &message).with_data(
                "fields",
                json!(problems
                    .iter()
                    .map(|p| json!({"field_id": p.field_id, "code": p.code, "message": p.message}))
                    .collect::<Vec<_>>()),
            ))
        }
        Some(p) => Err(invalid_param(name, p.code, &p.message).with_data(
            "fields",
            json!(problems
                .iter()
                .map(|p| json!({"field_id": p.field_id, "code": p.code, "message": p.message}))
                .collect::<Vec<_>>()),
        )),
        None => Ok(()),
    };
    check(
        "billing_address",
        fields::validate(Kind::Billing, billing, Surface::StoreApi),
    )?;
    if let Some(s) = shipping {
        check(
            "shipping_address",
            fields::validate(Kind::Shipping, s, Surface::StoreApi),
        )?;
    }
    Ok(())
}

async fn post_checkout(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let input = match checkout_params(&state, &params) {
        Ok(i) => i,
        Err(e) => return e.into_response(),
    };
    let result = async {
        let cart = crate::cart::service::load(&state, &ctx.session, ctx.now).await?;
        if cart.items.is_empty() && cart.customer.last_order.is_none() {
            return Err(place_error(PlaceError::EmptyCart));
        }
        let catalog = state.catalog.get();
        let pricing = place::price_cart(&state, &catalog, &cart, ctx.now).await?;
        // Without a separate shipping address the goods go to the billing address.
        let shipping = match &input.shipping {
            Some(s) if !s.is_empty() => s.clone(),
            _ => Address {
                email: String::new(),
                ..input.billing.clone()
            },
        };
        if !cart.items.is_empty() {
            required_fields(&input.billing, pricing.needs_shipping.then_some(&shipping))?;
            if pricing.total > 0 && input.payment_method.is_empty() {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "woocommerce_rest_checkout_missing_payment_method",
                    "Please select a payment method to continue.",
                ));
            }
        }
        let mut customer_id = customer_of(&ctx);
        if customer_id.is_none() && !state.config.checkout.guest_checkout && !input.create_account {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "woocommerce_rest_checkout_requires_account",
                "You must be logged in to checkout.",
            ));
        }
        let mut new_account = None;
        if customer_id.is_none() && input.create_account && !cart.items.is_empty() {
            if !state.config.checkout.signup_at_checkout && state.config.checkout.guest_checkout {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "woocommerce_rest_checkout_signup_disabled",
                    "Creating an account at checkout is not allowed.",
                ));
            }
            let id =
                super::accounts::create_at_checkout(&state, &ctx, &input.billing, &input.password)
                    .await?;
            customer_id = Some(id);
            new_account = Some(id);
        }
        let mut billing = input.billing.clone();
        fields::normalize(&mut billing);
        let mut shipping = shipping;
        fields::normalize(&mut shipping);
        let placed = place::place_order(
            &state,
            &ctx.session,
            ctx.now,
            &CheckoutInput {
                billing,
                shipping,
                customer_note: input.customer_note.clone(),
                payment_method: input.payment_method.clone(),
                customer_id,
                created_via: "store-api",
                base_url: ctx.base_url.clone(),
            },
        )
        .await
        .map_err(place_error)?;
        let redirect = format!("{}{}", ctx.base_url, placed.redirect_path);
        let mut res = json_value(
            StatusCode::OK,
            &checkout_json(&placed.order, Some(("success", &redirect))),
        );
        ctx.cart_cookies(&state, res.headers_mut(), "", 0);
        let mut signed_in = None;
        if let Some(id) = new_account {
            signed_in = Some(
                super::accounts::log_in_new_account(&state, &ctx, id, res.headers_mut()).await?,
            );
        }
        Ok::<_, ApiError>((res, signed_in))
    }
    .await;
    let mut ctx = ctx;
    let res = match result {
        Ok((res, signed_in)) => {
            // The answer's nonce is for the account the checkout just made.
            if let Some(user) = signed_in {
                ctx.session.user_id = user;
            }
            res
        }
        Err(e) => e.into_response(),
    };
    ctx.finish(&state, res)
}

/// Pays for an order placed earlier (the order-pay page): the key, and for guests the
/// billing e-mail, must match.
async fn pay_for_order(
    State(state): State<SharedState>,
    Path(id): Path<String>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let result = async {
        let invalid = || {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "woocommerce_rest_invalid_order",
                "Invalid order ID or key provided.",
            )
        };
        let id = id
            .parse::<i64>()
            .ok()
            .filter(|&i| i > 0)
            .ok_or_else(invalid)?;
        let key = params.string("key")?.unwrap_or_default();
        let email = params.string("billing_email")?.unwrap_or_default();
        let order = store::orders::find_order(&state.db, OrderId(id))
            .await?
            .filter(|o| o.status != OrderStatus::CheckoutDraft && !key.is_empty() && o.key == key)
            .ok_or_else(invalid)?;
        let owner = order.customer_id.filter(|&c| c > 0);
        let allowed = match owner {
            Some(c) => customer_of(&ctx) == Some(c),
            None => {
                !email.trim().is_empty()
                    && email
                        .trim()
                        .eq_ignore_ascii_case(order.billing.email.trim())
            }
        };
        if !allowed {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "woocommerce_rest_invalid_billing_email",
                "Invalid billing email provided.",
            ));
        }
        let billing = address_param(&params, "billing_address")?;
        if let Some(b) = &billing {
            check_format("billing_address", Kind::Billing, b)?;
        }
        let payment_method = params.string("payment_method")?.unwrap_or_default();
        let paid = super::pay::pay_existing(
            &state,
            &order,
            &payment_method,
            billing,
            &ctx.base_url,
            ctx.now,
        )
        .await
        .map_err(place_error)?;
        let redirect = format!("{}{}", ctx.base_url, paid.received_path());
        Ok::<_, ApiError>(json_value(
            StatusCode::OK,
            &checkout_json(&paid, Some(("success", &redirect))),
        ))
    }
    .await;
    ctx.answer(&state, result)
}
