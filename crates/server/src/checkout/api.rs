//! The Store API's checkout calls: the shopper's addresses and shipping choice, coupons,
//! the checkout itself, and paying for an existing order.

use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use super::place::{self, CheckoutAccount, CheckoutInput, PlaceError};
use super::service::{self, CouponChangeError, RateError};
use crate::cart::api::changed;
use crate::cart::pricing;
use crate::cart::service::ChangeError;
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::{as_int, Params};
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::{StoreCtx, StoreWrite};
use crate::orders::view::checkout_json;
use crate::state::{AppState, SharedState};
use mail::MailContext;
use rules::address::fields::FieldProblem;
use rules::address::fields::{self, Kind, Surface};
use rules::address::{Address, ADDRESS_FIELDS};
use rules::orders::model::OrderId;

pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .post("/cart/update-customer", update_customer)
        .post("/cart/select-shipping-rate", select_shipping_rate)
        .post("/cart/apply-coupon", apply_coupon)
        .post("/cart/remove-coupon", remove_coupon)
        .get("/checkout", get_checkout)
        .post("/checkout", post_checkout)
        .post("/checkout/{id}", pay_for_order)
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

/// An address that failed its checks: the parameter, its first problem (which the
/// original names), and every problem found.
struct AddressFault {
    param: &'static str,
    code: &'static str,
    message: String,
    problems: Vec<FieldProblem>,
}

/// `rest_invalid_param` for addresses at fault. As in the original each address
/// parameter carries its first problem; every field at fault is listed as well, by
/// the checkout form's field id (`billing_postcode`), in `params`, `details` and
/// `fields`, so a form can mark all of them at once.
fn address_error(faults: Vec<AddressFault>) -> ApiError {
    let names: Vec<&str> = faults.iter().map(|f| f.param).collect();
    let mut params = Map::new();
    let mut details = Map::new();
    for f in &faults {
        params.insert(f.param.into(), json!(f.message));
        details.insert(
            f.param.into(),
            json!({ "code": f.code, "message": f.message, "data": null }),
        );
    }
    let mut listed = Vec::new();
    for p in faults.iter().flat_map(|f| &f.problems) {
        params
            .entry(p.field_id.clone())
            .or_insert_with(|| json!(p.message));
        details
            .entry(p.field_id.clone())
            .or_insert_with(|| json!({ "code": p.code, "message": p.message, "data": null }));
        listed.push(json!({"field_id": p.field_id, "code": p.code, "message": p.message}));
    }
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "rest_invalid_param",
        format!("Invalid parameter(s): {}", names.join(", ")),
    )
    .with_data("params", Value::Object(params))
    .with_data("details", Value::Object(details))
    .with_data("fields", Value::Array(listed))
}

/// Format checks a Store API address gets on every call (required fields are only
/// checked when the order is placed). With `with_required`, a faulty address also
/// lists its missing fields, so a checkout hears of every problem at once.
fn check_format(
    name: &'static str,
    kind: Kind,
    address: &Address,
    with_required: bool,
) -> Option<AddressFault> {
    // A partial address (no country yet) is fine until the order is placed.
    let blank_country = address.country.trim().is_empty();
    let problems: Vec<FieldProblem> = fields::validate(kind, address, Surface::StoreApi)
        .into_iter()
        .filter(|p| !(blank_country && p.code == "invalid_country"))
        .collect();
    let lead = problems.iter().find(|p| p.code != "required")?;
    let (code, message) = (lead.code, lead.message.clone());
    let problems = problems
        .into_iter()
        .filter(|p| with_required || p.code != "required")
        .collect();
    Some(AddressFault {
        param: name,
        code,
        message,
        problems,
    })
}

/// The format checks of the addresses a call gives, as one error naming all of them.
fn check_formats(
    addresses: &[(&'static str, Kind, Option<&Address>)],
    with_required: bool,
) -> Result<(), ApiError> {
    let faults: Vec<AddressFault> = addresses
        .iter()
        .filter_map(|(name, kind, address)| check_format(name, *kind, (*address)?, with_required))
        .collect();
    if faults.is_empty() {
        Ok(())
    } else {
        Err(address_error(faults))
    }
}

fn place_error(e: PlaceError) -> ApiError {
    match e {
        PlaceError::Store(s) => s.into(),
        PlaceError::Account(a) => a.into(),
        e => ApiError::new(StatusCode::BAD_REQUEST, e.code(), e.message()),
    }
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
        let mut billing = address_param(&params, "billing_address")?;
        let mut shipping = address_param(&params, "shipping_address")?;
        if let Some(s) = shipping.as_mut() {
            s.email.clear();
        }
        check_formats(
            &[
                ("billing_address", Kind::Billing, billing.as_ref()),
                ("shipping_address", Kind::Shipping, shipping.as_ref()),
            ],
            false,
        )?;
        for address in billing.iter_mut().chain(shipping.iter_mut()) {
            fields::normalize(address);
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
async fn get_checkout(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    headers: HeaderMap,
) -> Response {
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
    /// `payment_data`: what the payment method's script sent, as key and value.
    payment_data: Vec<(String, String)>,
}

/// `payment_data`: a list of `{key, value}`; anything else is refused.
fn payment_data_param(params: &Params) -> Result<Vec<(String, String)>, ApiError> {
    let invalid = || {
        invalid_param(
            "payment_data",
            "rest_invalid_type",
            "payment_data is not of type array.",
        )
    };
    match params.get("payment_data") {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .take(64)
            .map(|item| {
                let key = item
                    .get("key")
                    .and_then(Value::as_str)
                    .ok_or_else(invalid)?;
                let value = match item.get("value") {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Bool(b)) => b.to_string(),
                    Some(Value::Number(n)) => n.to_string(),
                    None | Some(Value::Null) => String::new(),
                    Some(_) => return Err(invalid()),
                };
                Ok((
                    key.chars().take(100).collect(),
                    value.chars().take(500).collect(),
                ))
            })
            .collect(),
        Some(_) => Err(invalid()),
    }
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
    let mut shipping = address_param(params, "shipping_address")?;
    if let Some(s) = shipping.as_mut() {
        s.email.clear();
    }
    check_formats(
        &[
            ("billing_address", Kind::Billing, Some(&billing)),
            ("shipping_address", Kind::Shipping, shipping.as_ref()),
        ],
        true,
    )?;
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
    let payment_data = payment_data_param(params)?;
    Ok(CheckoutParams {
        payment_data,
        billing,
        shipping,
        customer_note: customer_note.trim().to_string(),
        payment_method,
        create_account,
        password,
    })
}

/// Required fields, as a Store API error naming each address at fault and every
/// field missing in it.
fn required_fields(billing: &Address, shipping: Option<&Address>) -> Result<(), ApiError> {
    let fault = |name: &'static str, problems: Vec<FieldProblem>| {
        let first = problems.first()?;
        let (code, message) = if first.code == "required" {
            let kind = name.trim_end_matches("_address");
            let listed: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
            let message = format!(
                "There was a problem with the provided {kind} address: {}",
                listed.join(", ")
            );
            (first.code, message)
        } else {
            (first.code, first.message.clone())
        };
        Some(AddressFault {
            param: name,
            code,
            message,
            problems,
        })
    };
    let mut faults = Vec::new();
    faults.extend(fault(
        "billing_address",
        fields::validate(Kind::Billing, billing, Surface::StoreApi),
    ));
    if let Some(s) = shipping {
        faults.extend(fault(
            "shipping_address",
            fields::validate(Kind::Shipping, s, Surface::StoreApi),
        ));
    }
    if faults.is_empty() {
        Ok(())
    } else {
        Err(address_error(faults))
    }
}

async fn post_checkout(
    State(state): State<SharedState>,
    StoreWrite {
        ctx,
        mut params,
        headers,
    }: StoreWrite,
) -> Response {
    // An express checkout's wallet names states and writes phone numbers its own way.
    match crate::payments::express::checkout_context(&state, &ctx, &headers) {
        Ok(true) => crate::payments::express::normalize_checkout_addresses(&mut params),
        Ok(false) => {}
        Err(e) => return ctx.finish(&state, e.into_response()),
    }
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
        let pricing = pricing::price_cart(&state, &catalog, &cart, ctx.now).await?;
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
        // The card details are read before an order is made: a checkout without them
        // places nothing.
        let pay = if cart.items.is_empty() || pricing.total <= 0 {
            None
        } else {
            crate::payments::checkout::read_request(
                &state,
                &ctx,
                &input.payment_method,
                &input.billing.country,
                &input.payment_data,
            )?
        };
        if pay.is_some() {
            crate::payments::checkout::count_attempt(&state, &ctx, &input.billing.email).await?;
        }
        let customer_id = customer_of(&ctx);
        if customer_id.is_none() && !state.config.checkout.guest_checkout && !input.create_account {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "woocommerce_rest_checkout_requires_account",
                "You must be logged in to checkout.",
            ));
        }
        let mut billing = input.billing.clone();
        fields::normalize(&mut billing);
        let mut shipping = shipping;
        fields::normalize(&mut shipping);
        let mut new_account = None;
        if customer_id.is_none() && input.create_account && !cart.items.is_empty() {
            if !state.config.checkout.signup_at_checkout && state.config.checkout.guest_checkout {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "woocommerce_rest_checkout_signup_disabled",
                    "Creating an account at checkout is not allowed.",
                ));
            }
            new_account = Some(
                super::accounts::prepare_account(&state, &ctx, &billing, &input.password).await?,
            );
        }
        let mail = MailContext::new(&state.config.shop_name, ctx.base_url.as_str());
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
                base_url: ctx.base_url.to_string(),
            },
            new_account.as_ref().map(|account| CheckoutAccount {
                account,
                mail: &mail,
            }),
        )
        .await
        .map_err(place_error)?;
        let mut placed = placed;
        if !placed.repeated && pay.is_some() {
            // Paid through a wallet: the order says which.
            placed.order = crate::payments::express::name_wallet(
                &state,
                placed.order,
                &input.payment_method,
                &input.payment_data,
                ctx.now,
            )
            .await?;
        }
        // The same checkout sent again after its provider payment did not go through
        // (a failed wallet, a closed challenge): the order waits on its payment page,
        // never thanked as if paid.
        if placed.repeated && placed.order.status.needs_payment() {
            let provider_paid = state
                .config
                .checkout
                .gateways
                .find(&placed.order.payment_method)
                .is_some_and(|g| g.provider_method().is_some());
            if provider_paid {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "woocommerce_rest_checkout_process_payment_error",
                    rules::payments::messages::NOT_PAID_YET,
                )
                .with_data("order_id", Value::from(placed.order.id.0))
                .with_data(
                    "pay_url",
                    Value::from(ctx.base_url.link(&placed.order.pay_path())),
                ));
            }
        }
        let mut res = match pay.filter(|_| !placed.repeated && placed.order.status.needs_payment())
        {
            Some(pay) => {
                // The session as the answer leaves it: signed in to the account the
                // checkout made, if any, whose nonce the 3-D Secure step carries.
                let mut session = ctx.session.clone();
                if let Some(login) = &placed.login {
                    session.signed_in(login.customer_id.0, &login.token);
                }
                crate::payments::checkout::pay_placed_order(
                    &state,
                    &ctx,
                    &session,
                    &placed.order,
                    &pay,
                    "/checkout/",
                )
                .await?
            }
            None => {
                let redirect = ctx.base_url.link(&placed.redirect_path);
                json_value(
                    StatusCode::OK,
                    &checkout_json(&placed.order, Some(("success", &redirect))),
                )
            }
        };
        ctx.cart_cookies(&state, res.headers_mut(), "", 0);
        Ok::<_, ApiError>((res, placed.login))
    }
    .await;
    let mut ctx = ctx;
    let res = match result {
        Ok((mut res, login)) => {
            // The account the checkout just made is signed in; the answer's nonce is its.
            if let Some(login) = login {
                super::accounts::sign_in_new_account(&state, &mut ctx, &login, res.headers_mut());
                crate::wishlist::on_login(&state, &ctx, login.customer_id.0, res.headers_mut())
                    .await;
            }
            res
        }
        Err(e) => e.into_response(),
    };
    ctx.finish(&state, res)
}

/// `?key=…&billing_email=…` of the pay-for-order call.
#[derive(Default, serde::Deserialize)]
struct OrderQuery {
    #[serde(default)]
    key: String,
    #[serde(default)]
    billing_email: String,
}

impl OrderQuery {
    fn parse(query: Option<&str>) -> Self {
        query
            .and_then(|q| serde_urlencoded::from_str(q).ok())
            .unwrap_or_default()
    }
}

/// Pays for an order placed earlier (the order-pay page): the key, and for guests the
/// billing e-mail, must match.
async fn pay_for_order(
    State(state): State<SharedState>,
    PathText(id): PathText,
    RawQuery(query): RawQuery,
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
        // The order is named by the address (`?key=…&billing_email=…`), as in the
        // original; everything the payment changes comes from the body.
        let named = OrderQuery::parse(query.as_deref());
        let (key, email) = (named.key, named.billing_email);
        let order = crate::orders::service::find_by_key(&state.db, OrderId(id), &key)
            .await?
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
        // An express payment sends the address the wallet ships to.
        let mut shipping = address_param(&params, "shipping_address")?;
        if let Some(s) = shipping.as_mut() {
            s.email.clear();
        }
        check_formats(
            &[
                ("billing_address", Kind::Billing, billing.as_ref()),
                ("shipping_address", Kind::Shipping, shipping.as_ref()),
            ],
            false,
        )?;
        for address in shipping.iter_mut() {
            fields::normalize(address);
        }
        let payment_method = params.string("payment_method")?.unwrap_or_default();
        let data = payment_data_param(&params)?;
        let country = billing
            .as_ref()
            .map_or(&order.billing.country, |b| &b.country);
        if let Some(pay) =
            crate::payments::checkout::read_request(&state, &ctx, &payment_method, country, &data)?
        {
            crate::payments::checkout::count_attempt(&state, &ctx, &order.billing.email).await?;
            let order = super::pay::update_addresses(&state, &order, billing, shipping, ctx.now)
                .await
                .map_err(place_error)?;
            let order = crate::payments::express::name_wallet(
                &state,
                order,
                &payment_method,
                &data,
                ctx.now,
            )
            .await?;
            let back = order.pay_path();
            return crate::payments::checkout::pay_placed_order(
                &state,
                &ctx,
                &ctx.session,
                &order,
                &pay,
                &back,
            )
            .await;
        }
        let paid = super::pay::pay_existing(
            &state,
            &order,
            &payment_method,
            billing,
            shipping,
            ctx.base_url.as_str(),
            ctx.now,
        )
        .await
        .map_err(place_error)?;
        let redirect = ctx.base_url.link(&paid.received_path());
        Ok::<_, ApiError>(json_value(
            StatusCode::OK,
            &checkout_json(&paid, Some(("success", &redirect))),
        ))
    }
    .await;
    ctx.answer(&state, result)
}
