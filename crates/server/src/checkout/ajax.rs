//! The classic checkout calls at `/?wc-ajax=NAME`: refreshing the order review, placing
//! the order, and applying and removing coupons, answered in the shapes the original
//! shop's checkout script reads (JSON with HTML fragments and notices, or bare notices).

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use super::place::{self, CheckoutAccount, CheckoutInput, PlaceError, Placed};
use super::review_html::{self, Notice, PaymentBox, ReviewContext};
use super::service::{self, CouponChangeError, RateError};
use crate::cart::pricing;
use crate::cart::service::{load, ChangeError};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::{parse_form, Params};
use crate::http::store_api::StoreCtx;
use crate::state::AppState;
use mail::MailContext;
use rules::address::fields::{self, Kind, Surface};
use rules::address::{Address, ADDRESS_FIELDS};
use rules::cart::model::StoredCart;
use store::StoreError;

/// Nonce actions of the classic checkout calls, as the original names them.
pub const UPDATE_ORDER_REVIEW_NONCE: &str = "update-order-review";
pub const APPLY_COUPON_NONCE: &str = "apply-coupon";
pub const REMOVE_COUPON_NONCE: &str = "remove-coupon";
pub const PROCESS_CHECKOUT_NONCE: &str = "woocommerce-process_checkout";

/// The longest address field kept; anything longer is cut, never stored whole.
const MAX_FIELD_CHARS: usize = 200;
const MAX_NOTE_CHARS: usize = 5000;
/// Shipping packages a form may name (the shop makes one).
const MAX_PACKAGES: usize = 16;

const UNABLE_TO_PROCESS: &str = "We were unable to process your order, please try again.";

/// The classic call names this module answers.
pub fn handles(name: &str) -> bool {
    matches!(
        name,
        "update_order_review" | "checkout" | "apply_coupon" | "remove_coupon"
    )
}

/// Runs one classic checkout call (`handles(name)` is true).
pub async fn dispatch(state: &AppState, name: &str, parts: &Parts, body: Body) -> Response {
    let ctx = match StoreCtx::from_parts(state, parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let mut res = match Params::read(&parts.headers, body, state.config.max_body_bytes).await {
        // A body that cannot be read is said to be so, in the call's own shape; it is
        // never taken for an empty form.
        Err(e) => unreadable(name, &e),
        Ok(params) => {
            let form = Form(params.0);
            match name {
                "update_order_review" => update_order_review(state, &ctx, &form).await,
                "checkout" => checkout(state, &ctx, &form).await,
                "apply_coupon" => apply_coupon(state, &ctx, &form).await,
                _ => remove_coupon(state, &ctx, &form).await,
            }
        }
    };
    ctx.keep_session(state, res.headers_mut());
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    res
}

/// The answer to a body that could not be read, in the shape the call's script reads.
fn unreadable(name: &str, e: &ApiError) -> Response {
    let notice = Notice::text(&e.message);
    let mut res = match name {
        "update_order_review" => json_value(
            StatusCode::OK,
            &json!({
                "result": "failure",
                "messages": review_html::error_notices(std::slice::from_ref(&notice)),
                "reload": false,
                "fragments": {},
            }),
        ),
        "checkout" => checkout_failure(std::slice::from_ref(&notice), false, false),
        _ => error_html(&notice),
    };
    *res.status_mut() = e.status;
    res
}

/// A posted form, read the way the original reads `$_POST`: only text values count as
/// text; arrays and objects where text is expected count as missing.
#[derive(Default)]
struct Form(Map<String, Value>);

impl Form {
    fn text(&self, name: &str) -> Option<String> {
        match self.0.get(name)? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// A field value as stored: trimmed and cut to a sane length.
    fn field(&self, name: &str, max_chars: usize) -> Option<String> {
        self.text(name)
            .map(|v| v.trim().chars().take(max_chars).collect())
    }

    /// PHP's `isset`: the key was sent, whatever its value.
    fn has(&self, name: &str) -> bool {
        self.0.get(name).is_some_and(|v| !v.is_null())
    }

    /// PHP's `! empty()`: sent and neither empty nor "0".
    fn ticked(&self, name: &str) -> bool {
        match self.0.get(name) {
            Some(Value::String(s)) => !s.is_empty() && s != "0",
            Some(Value::Bool(b)) => *b,
            Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
            Some(Value::Array(a)) => !a.is_empty(),
            Some(Value::Object(o)) => !o.is_empty(),
            _ => false,
        }
    }

    /// `shipping_method[i]`: the rate chosen per package index; anything else is ignored.
    fn shipping_methods(&self) -> Vec<(usize, String)> {
        let text = |v: &Value| v.as_str().map(|s| s.trim().to_string());
        match self.0.get("shipping_method") {
            Some(Value::Array(list)) => list
                .iter()
                .enumerate()
                .filter_map(|(i, v)| Some((i, text(v)?)))
                .collect(),
            Some(Value::Object(map)) => map
                .iter()
                .filter_map(|(k, v)| Some((k.parse().ok()?, text(v)?)))
                .collect(),
            _ => Vec::new(),
        }
        .into_iter()
        .filter(|(i, rate)| *i < MAX_PACKAGES && !rate.is_empty())
        .collect()
    }

    /// The `PREFIX_*` address fields that were sent, over `base`.
    fn address_over(&self, prefix: &str, mut base: Address) -> Address {
        for field in ADDRESS_FIELDS {
            if let Some(v) = self.field(&format!("{prefix}_{field}"), MAX_FIELD_CHARS) {
                *base.get_mut(field).expect("known field") = v;
            }
        }
        base.country = base.country.to_uppercase();
        base
    }
}

fn nonce_ok(state: &AppState, ctx: &StoreCtx, action: &str, given: Option<String>) -> bool {
    ctx.nonce_matches(state, action, given.as_deref())
}

/// The original's answer to a failed nonce check: 403 and `-1`.
fn forbidden() -> Response {
    html(StatusCode::FORBIDDEN, "-1".to_string())
}

fn html(status: StatusCode, body: String) -> Response {
    let mut res = (status, body).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=UTF-8"),
    );
    res
}

fn store_failure(e: StoreError) -> Response {
    ApiError::from(e).into_response()
}

fn change_failure(e: ChangeError) -> Response {
    match e {
        ChangeError::Store(e) => store_failure(e),
        ChangeError::Cart(c) => crate::cart::api::cart_error(c).into_response(),
    }
}

fn customer_of(ctx: &StoreCtx) -> Option<i64> {
    (ctx.session.user_id > 0).then_some(ctx.session.user_id)
}

/// Stores each chosen shipping rate; a rate not offered for the address is skipped, and
/// pricing falls back to the first one offered.
async fn choose_rates(state: &AppState, ctx: &StoreCtx, form: &Form) -> Result<(), ChangeError> {
    for (package, rate) in form.shipping_methods() {
        match service::select_shipping_rate(state, &ctx.session, ctx.now, package, &rate).await {
            Ok(_) | Err(RateError::UnknownPackage | RateError::UnknownRate) => {}
            Err(RateError::Store(e)) => return Err(e),
        }
    }
    Ok(())
}

async fn update_order_review(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, UPDATE_ORDER_REVIEW_NONCE, form.text("security")) {
        return forbidden();
    }
    let cart = match load(state, &ctx.session, ctx.now).await {
        Ok(c) => c,
        Err(e) => return store_failure(e),
    };
    if cart.items.is_empty() {
        // The original replaces the whole form with the notice.
        let notice =
            review_html::error_notices(&[review_html::session_expired(ctx.base_url.as_str())]);
        return json_value(
            StatusCode::OK,
            &json!({"fragments": {"form.woocommerce-checkout": notice}}),
        );
    }
    // The serialised form rides inside a field; one that cannot be read adds nothing
    // beyond the fields sent beside it.
    let posted = Form(
        form.text("post_data")
            .and_then(|s| parse_form(&s).ok())
            .unwrap_or_default(),
    );
    let (billing, shipping) = review_addresses(form, &posted, &cart);
    if let Err(e) =
        service::update_customer(state, &ctx.session, ctx.now, Some(billing), Some(shipping)).await
    {
        return change_failure(e);
    }
    if let Err(e) = choose_rates(state, ctx, form).await {
        return change_failure(e);
    }
    let cart = match load(state, &ctx.session, ctx.now).await {
        Ok(c) => c,
        Err(e) => return store_failure(e),
    };
    let chosen_payment = form.text("payment_method");
    let catalog = state.catalog.get();
    let located = pricing::with_default_location(state, &catalog, &cart);
    let pricing = match pricing::price_cart(state, &catalog, &located, ctx.now).await {
        Ok(p) => p,
        Err(e) => return store_failure(e),
    };
    let view = ReviewContext {
        base_url: ctx.base_url.as_str(),
        currency: &state.config.currency,
        catalog: &catalog,
    };
    let nonce = ctx.nonce(state, PROCESS_CHECKOUT_NONCE);
    let checkout = &state.config.checkout;
    let payment = review_html::checkout_payment(
        &view,
        &PaymentBox {
            gateways: &checkout.gateways.list,
            chosen: chosen_payment.as_deref(),
            needs_payment: pricing.total > 0,
            terms: checkout.terms.as_ref(),
            terms_checked: posted.has("terms"),
            nonce: &nonce,
            referer: "/?wc-ajax=update_order_review",
        },
    );
    // Coupons that stopped applying (expired, spend limits) are left out of the totals;
    // say why, as the original does when it recalculates.
    let problems: Vec<Notice> = pricing
        .coupon_problems
        .iter()
        .map(|p| {
            Notice::text(&p.error.message(&|m| {
                state
                    .config
                    .currency
                    .format_plain(rules::money::Money { minor: m })
            }))
        })
        .collect();
    let messages = review_html::error_notices(&problems);
    json_value(
        StatusCode::OK,
        &json!({
            "result": if problems.is_empty() { "success" } else { "failure" },
            "messages": messages,
            "reload": false,
            "fragments": {
                ".woocommerce-checkout-review-order-table": review_html::review_order_table(&view, &located, &pricing),
                ".woocommerce-checkout-payment": payment,
            },
        }),
    )
}

/// The addresses an order review sends: the billing location in `country`, `state`, …
/// and the shipping one in `s_country`, …; names, e-mail and phone come from the
/// serialised form. Fields not sent keep what the session had.
fn review_addresses(form: &Form, posted: &Form, cart: &StoredCart) -> (Address, Address) {
    const LOCATION: [(&str, &str); 6] = [
        ("country", "country"),
        ("state", "state"),
        ("postcode", "postcode"),
        ("city", "city"),
        ("address", "address_1"),
        ("address_2", "address_2"),
    ];
    let mut billing = cart.customer.billing.clone();
    let mut shipping = cart.customer.shipping.clone();
    for (name, field) in LOCATION {
        if let Some(v) = form.field(name, MAX_FIELD_CHARS) {
            *billing.get_mut(field).expect("known field") = v;
        }
        if let Some(v) = form.field(&format!("s_{name}"), MAX_FIELD_CHARS) {
            *shipping.get_mut(field).expect("known field") = v;
        }
    }
    for field in ["first_name", "last_name", "company", "phone", "email"] {
        if let Some(v) = posted.field(&format!("billing_{field}"), MAX_FIELD_CHARS) {
            *billing.get_mut(field).expect("known field") = v;
        }
    }
    let separate = posted.ticked("ship_to_different_address");
    for field in ["first_name", "last_name", "company", "phone"] {
        let value = if separate {
            posted.field(&format!("shipping_{field}"), MAX_FIELD_CHARS)
        } else {
            Some(billing.get(field).to_string())
        };
        if let Some(v) = value {
            *shipping.get_mut(field).expect("known field") = v;
        }
    }
    billing.country = billing.country.to_uppercase();
    shipping.country = shipping.country.to_uppercase();
    shipping.email.clear();
    (billing, shipping)
}

/// `{"result":"failure", …}` with the notices as one error list.
fn checkout_failure(notices: &[Notice], refresh: bool, reload: bool) -> Response {
    json_value(
        StatusCode::OK,
        &json!({
            "result": "failure",
            "messages": review_html::error_notices(notices),
            "refresh": refresh,
            "reload": reload,
        }),
    )
}

/// What a checkout form submits, read once.
struct CheckoutForm {
    billing: Address,
    shipping: Address,
    ship_separately: bool,
    note: String,
    payment_method: String,
    terms_accepted: bool,
    create_account: bool,
    password: String,
    totals_only: bool,
}

impl CheckoutForm {
    fn read(form: &Form) -> Self {
        let billing = form.address_over("billing", Address::default());
        let ship_separately = form.ticked("ship_to_different_address");
        // Without a separate address the goods go to the billing one.
        let mut shipping = if ship_separately {
            form.address_over("shipping", Address::default())
        } else {
            billing.clone()
        };
        shipping.email.clear();
        Self {
            billing,
            shipping,
            ship_separately,
            note: form
                .field("order_comments", MAX_NOTE_CHARS)
                .unwrap_or_default(),
            payment_method: form
                .field("payment_method", MAX_FIELD_CHARS)
                .unwrap_or_default(),
            terms_accepted: form.has("terms"),
            create_account: form.ticked("createaccount"),
            password: form.text("account_password").unwrap_or_default(),
            totals_only: form.has("woocommerce_checkout_update_totals"),
        }
    }

    fn input(&self, customer_id: Option<i64>, base_url: &str) -> CheckoutInput {
        CheckoutInput {
            billing: self.billing.clone(),
            shipping: self.shipping.clone(),
            customer_note: self.note.clone(),
            payment_method: self.payment_method.clone(),
            customer_id,
            created_via: "checkout",
            base_url: base_url.to_string(),
        }
    }
}

async fn checkout(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    let unable = || checkout_failure(&[Notice::text(UNABLE_TO_PROCESS)], true, false);
    let expired = || {
        checkout_failure(
            &[review_html::session_expired(ctx.base_url.as_str())],
            false,
            false,
        )
    };
    let cart = match load(state, &ctx.session, ctx.now).await {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "could not read the cart for a checkout");
            return unable();
        }
    };
    let nonce = form
        .text("woocommerce-process-checkout-nonce")
        .or_else(|| form.text("_wpnonce"));
    if !nonce_ok(state, ctx, PROCESS_CHECKOUT_NONCE, nonce) {
        // With no cart the nonce most likely failed because the session ran out.
        return if cart.items.is_empty() {
            expired()
        } else {
            unable()
        };
    }
    let submitted = CheckoutForm::read(form);
    if cart.items.is_empty() {
        // Only a resubmission of the order just placed gets anything but "expired".
        if cart.customer.last_order.is_none() {
            return expired();
        }
        let input = submitted.input(customer_of(ctx), ctx.base_url.as_str());
        return placed(
            state,
            ctx,
            place::place_order(state, &ctx.session, ctx.now, &input, None).await,
        );
    }

    // Like the original, the session keeps what was submitted even if it is refused.
    let stored = service::update_customer(
        state,
        &ctx.session,
        ctx.now,
        Some(submitted.billing.clone()),
        Some(submitted.shipping.clone()),
    )
    .await;
    let stored = match stored {
        Ok(_) => choose_rates(state, ctx, form).await,
        Err(e) => Err(e),
    };
    if let Err(e) = stored {
        tracing::error!(error = ?e, "could not store the checkout details");
        return unable();
    }
    let cart = match load(state, &ctx.session, ctx.now).await {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "could not read the cart for a checkout");
            return unable();
        }
    };
    let catalog = state.catalog.get();
    let pricing = match pricing::price_cart(state, &catalog, &cart, ctx.now).await {
        Ok(p) => p,
        Err(e) => {
            tracing::error!(error = %e, "could not price the cart for a checkout");
            return unable();
        }
    };

    let checkout = &state.config.checkout;
    let logged_in = customer_of(ctx).is_some();
    // Without guest checkout a visitor must sign in, or gets an account when the shop
    // lets checkouts create one.
    let account_needed = !logged_in && !checkout.guest_checkout;
    let create_account =
        !logged_in && checkout.signup_at_checkout && (submitted.create_account || account_needed);

    let mut notices = Vec::new();
    if account_needed && !checkout.signup_at_checkout {
        notices.push(Notice::text("You must be logged in to checkout."));
    }
    let mut problems = fields::validate(Kind::Billing, &submitted.billing, Surface::Classic);
    if submitted.ship_separately && pricing.needs_shipping {
        problems.extend(fields::validate(
            Kind::Shipping,
            &submitted.shipping,
            Surface::Classic,
        ));
    }
    notices.extend(
        problems
            .into_iter()
            .map(|p| Notice::markup(p.message).for_field(&p.field_id)),
    );
    if create_account && submitted.password.is_empty() {
        notices.push(
            Notice::markup("<strong>Create account password</strong> is a required field.")
                .for_field("account_password"),
        );
    }
    if !submitted.totals_only && checkout.terms.is_some() && !submitted.terms_accepted {
        notices.push(
            Notice::text(
                "Please read and accept the terms and conditions to proceed with your order.",
            )
            .for_field("terms"),
        );
    }
    if pricing.needs_shipping {
        if submitted.shipping.country.trim().is_empty() {
            notices.push(Notice::text("Please enter an address to continue."));
        } else if pricing.packages.is_empty()
            || pricing.packages.iter().any(|p| p.chosen_rate().is_none())
        {
            notices.push(Notice::text(&PlaceError::NoShippingMethod.message()));
        }
    }
    if pricing.total > 0 && checkout.gateways.find(&submitted.payment_method).is_none() {
        notices.push(Notice::text(&PlaceError::PaymentMethod.message()));
    }
    if !notices.is_empty() || submitted.totals_only {
        return checkout_failure(&notices, false, false);
    }

    let mut new_account = None;
    if create_account {
        match super::accounts::prepare_account(state, ctx, &submitted.billing, &submitted.password)
            .await
        {
            Ok(account) => new_account = Some(account),
            Err(e) if e.status.is_client_error() => {
                let mut res = checkout_failure(&[Notice::text(&e.message)], false, false);
                if let Some(secs) = e.retry_after_secs() {
                    res.headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
                }
                return res;
            }
            Err(e) => {
                tracing::error!(error = %e.message, "could not prepare the account asked for at checkout");
                return unable();
            }
        }
    }
    // Card details are read, and the attempt counted, before an order is made.
    let pay = if pricing.total > 0 {
        let data: Vec<(String, String)> = PAYMENT_FIELDS
            .iter()
            .filter_map(|name| form.text(name).map(|v| (name.to_string(), v)))
            .collect();
        match crate::payments::checkout::read_request(
            state,
            ctx,
            &submitted.payment_method,
            &submitted.billing.country,
            &data,
        ) {
            Ok(pay) => pay,
            Err(e) => return checkout_failure(&[Notice::text(&e.message)], false, false),
        }
    } else {
        None
    };
    if pay.is_some() {
        if let Err(e) =
            crate::payments::checkout::count_attempt(state, ctx, &submitted.billing.email).await
        {
            return checkout_failure(&[Notice::text(&e.message)], false, false);
        }
    }
    let input = submitted.input(customer_of(ctx), ctx.base_url.as_str());
    let mail = MailContext::new(&state.config.shop_name, ctx.base_url.as_str());
    let account = new_account.as_ref().map(|account| CheckoutAccount {
        account,
        mail: &mail,
    });
    let result = place::place_order(state, &ctx.session, ctx.now, &input, account).await;
    let new_customer = result
        .as_ref()
        .ok()
        .and_then(|p| p.login.as_ref())
        .map(|login| login.customer_id.0);
    let mut res = match (pay, result) {
        (Some(pay), Ok(p)) if !p.repeated && p.order.status.needs_payment() => {
            paid_at_provider(state, ctx, p, &pay).await
        }
        (_, result) => placed(state, ctx, result),
    };
    if let Some(id) = new_customer {
        // The account the order made is signed in: the guest's wishlists become its.
        crate::wishlist::on_login(state, ctx, id, res.headers_mut()).await;
    }
    res
}

/// The payment fields the card method's script adds to the checkout form.
const PAYMENT_FIELDS: [&str; 6] = [
    "wc-stripe-payment-method",
    "wc-stripe-payment-token",
    "wc-stripe-new-payment-method",
    "wc-stripe-payment-type",
    "wc-stripe-is-deferred-intent",
    "wc-stripe-blik-code",
];

/// Charges an order just placed with a card and answers as the original's script
/// reads it: the order-received page, a `#wc-stripe-confirm-pi:` fragment for a
/// challenge to finish in the page, or the provider's refusal as a notice.
async fn paid_at_provider(
    state: &AppState,
    ctx: &StoreCtx,
    placed: Placed,
    pay: &crate::payments::charge::PayRequest,
) -> Response {
    use crate::payments::charge::{charge, Charged};
    let customer = placed.order.customer_id.filter(|&c| c > 0);
    let mut session = ctx.session.clone();
    if let Some(login) = &placed.login {
        session.signed_in(login.customer_id.0, &login.token);
    }
    let mut res = match charge(
        state,
        &placed.order,
        pay,
        customer,
        ctx.base_url.as_str(),
        ctx.now,
    )
    .await
    {
        Ok(Charged::Paid(order)) => json_value(
            StatusCode::OK,
            &json!({
                "result": "success",
                "redirect": ctx.base_url.link(&order.received_path()),
                "order_id": order.id.0,
            }),
        ),
        Ok(Charged::NeedsAction {
            order,
            step,
            method_type,
            client_secret,
        }) => {
            // The original's script reads the fragment off the page it is on.
            let redirect = crate::payments::checkout::next_step_redirect(
                state,
                ctx,
                &session,
                &crate::payments::checkout::NeedsAction {
                    order: &order,
                    step: &step,
                    method_type,
                    client_secret: &client_secret,
                },
                "",
            );
            json_value(
                StatusCode::OK,
                &json!({
                    "result": "success",
                    "redirect": redirect,
                    "order_id": order.id.0,
                }),
            )
        }
        Ok(Charged::Declined { message, .. }) => {
            checkout_failure(&[Notice::text(&message)], false, false)
        }
        Err(e) => checkout_failure(&[Notice::text(&e.message())], false, false),
    };
    ctx.cart_cookies(state, res.headers_mut(), "", 0);
    if let Some(login) = &placed.login {
        login.set_cookie(state, &ctx.base_url, res.headers_mut());
    }
    res
}

/// The answer to a placed (or refused) order.
fn placed(state: &AppState, ctx: &StoreCtx, result: Result<Placed, PlaceError>) -> Response {
    let placed = match result {
        Ok(p) => p,
        Err(PlaceError::EmptyCart) => {
            return checkout_failure(
                &[review_html::session_expired(ctx.base_url.as_str())],
                false,
                false,
            )
        }
        Err(PlaceError::Store(e)) => {
            tracing::error!(error = %e, "could not place an order");
            return checkout_failure(&[Notice::text(UNABLE_TO_PROCESS)], true, false);
        }
        Err(e) => {
            // Stock, coupon and shipping problems change the totals: have the review redrawn.
            let refresh = matches!(
                e,
                PlaceError::OutOfStock { .. }
                    | PlaceError::Unavailable { .. }
                    | PlaceError::Coupon { .. }
                    | PlaceError::NoShippingMethod
                    | PlaceError::Busy
            );
            return checkout_failure(&[Notice::text(&e.message())], refresh, false);
        }
    };
    let mut res = json_value(
        StatusCode::OK,
        &json!({
            "result": "success",
            "redirect": ctx.base_url.link(&placed.redirect_path),
            "order_id": placed.order.id.0,
        }),
    );
    ctx.cart_cookies(state, res.headers_mut(), "", 0);
    if let Some(login) = &placed.login {
        // The account was made by the order's own transaction: sign it in.
        login.set_cookie(state, &ctx.base_url, res.headers_mut());
    }
    res
}

async fn apply_coupon(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, APPLY_COUPON_NONCE, form.text("security")) {
        return forbidden();
    }
    let code = form.text("coupon_code").unwrap_or_default();
    if code.trim().is_empty() {
        return error_html(&Notice::text("Please enter a coupon code."));
    }
    // A valid billing e-mail lets coupons limited to certain customers be checked.
    let email = form
        .text("billing_email")
        .and_then(|e| rules::customers::Email::parse(&e));
    match service::apply_coupon(
        state,
        &ctx.session,
        customer_of(ctx),
        ctx.now,
        &code,
        email.as_ref().map(|e| e.as_str()),
    )
    .await
    {
        Ok((cart, _)) => {
            let mut res = html(
                StatusCode::OK,
                review_html::success_notice(&Notice::text("Coupon code applied successfully.")),
            );
            with_cart_cookies(state, ctx, &mut res, &cart);
            res
        }
        Err(CouponChangeError::Refused(message) | CouponChangeError::NotApplied(message)) => {
            error_html(&Notice::text(&message))
        }
        Err(CouponChangeError::Store(e)) => store_failure(e),
    }
}

async fn remove_coupon(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, REMOVE_COUPON_NONCE, form.text("security")) {
        return forbidden();
    }
    let code = form.text("coupon").unwrap_or_default();
    if code.trim().is_empty() {
        return error_html(&Notice::text(
            "Sorry there was a problem removing this coupon.",
        ));
    }
    let removed = Notice::text("Coupon has been removed.");
    match service::remove_coupon(state, &ctx.session, ctx.now, &code).await {
        Ok(cart) => {
            let mut res = html(StatusCode::OK, review_html::success_notice(&removed));
            with_cart_cookies(state, ctx, &mut res, &cart);
            res
        }
        // The original says the same whether or not the coupon was applied.
        Err(CouponChangeError::NotApplied(_) | CouponChangeError::Refused(_)) => {
            html(StatusCode::OK, review_html::success_notice(&removed))
        }
        Err(CouponChangeError::Store(e)) => store_failure(e),
    }
}

fn error_html(notice: &Notice) -> Response {
    html(
        StatusCode::OK,
        review_html::error_notices(std::slice::from_ref(notice)),
    )
}

fn with_cart_cookies(state: &AppState, ctx: &StoreCtx, res: &mut Response, cart: &StoredCart) {
    ctx.cart_cookies(
        state,
        res.headers_mut(),
        &cart.hash(&state.config.currency.code),
        cart.items_count(),
    );
}
