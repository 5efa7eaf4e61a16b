//! The wallet sheet's calls (`?wc-ajax=wc_stripe_NAME`, POST, each with its `security`
//! nonce): the cart as the sheet shows it, shipping options for the wallet's address,
//! the rate chosen, addresses made ready for checkout, and the product page's own cart
//! (filled, emptied, or quoted before it is filled). Each works on the session the
//! request names, which for the product page is the cart its `Cart-Token` names.
//! Prices, shipping and taxes come from the checkout's pricing.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Map, Value};

use rules::address::locale::CountryCode;
use rules::address::{wallet, Address, CustomerDetails, ADDRESS_FIELDS};
use rules::cart::model::{resolve, Addition, CartError, StoredCart};
use rules::catalog::index::Catalog;
use rules::catalog::model::ProductId;
use rules::payments::messages;
use rules::pricing::totals::Pricing;
use rules::stock::StockLevel;
use store::sessions;
use store::StoreError;

use super::display::{self, cart_display, product_display};
use super::nonces;
use crate::cart::pricing::{price_cart, with_default_location};
use crate::cart::service::{self, ChangeError};
use crate::checkout::service::{select_shipping_rate, RateError};
use crate::http::json::json_value;
use crate::http::store_api::StoreCtx;
use crate::payments::answer::{bad_nonce, failure, Form};
use crate::rate_limit::{self, Action};
use crate::session::SessionSource;
use crate::state::AppState;

/// The longest address field taken, as the Store API takes them.
const MAX_FIELD_CHARS: usize = 200;
/// The most packages a shipping choice may name.
const MAX_PACKAGES: usize = 10;

fn nonce_ok(state: &AppState, ctx: &StoreCtx, form: &Form, action: &str) -> bool {
    ctx.nonce_matches(state, action, form.text("security").as_deref())
}

fn store_failure(e: StoreError) -> Response {
    tracing::error!(error = %e, "an express checkout call could not read or write the cart");
    failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR)
}

fn change_failure(e: ChangeError) -> Response {
    match e {
        ChangeError::Store(e) => store_failure(e),
        ChangeError::Cart(e) => failure(StatusCode::BAD_REQUEST, &cart_message(e)),
    }
}

/// The shop's words for a refused cart change, as the Store API gives them.
fn cart_message(e: CartError) -> String {
    crate::cart::api::cart_error(e)
        .message
        .replace("&quot;", "\"")
}

/// Counts a call that prices and writes a cart against the client's allowance.
async fn count(state: &AppState, ctx: &StoreCtx) -> Result<(), Response> {
    let limits = rate_limit::limits(Action::ExpressCheckout, None, ctx.client);
    match rate_limit::attempt(&state.db, Action::ExpressCheckout, &limits, ctx.now).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(limited)) => Err(failure(
            StatusCode::TOO_MANY_REQUESTS,
            &limited.to_api().message,
        )),
        Err(e) => Err(store_failure(e)),
    }
}

/// `is_product_page`: the product page's sheet lists each line; the cart's shows a
/// subtotal (the original's reading: absent means itemised).
fn itemized(form: &Form) -> bool {
    form.text("is_product_page")
        .is_none_or(|v| matches!(v.as_str(), "1" | "true" | "yes" | "on"))
}

/// A cart priced as the Store API shows it: for the shopper's addresses, or the shop's
/// default location until they give one.
async fn priced(
    state: &AppState,
    catalog: &Catalog,
    cart: &StoredCart,
    now: i64,
) -> Result<Pricing, StoreError> {
    let located = with_default_location(state, catalog, cart);
    price_cart(state, catalog, &located, now).await
}

/// The cart cookies after a change, for a shopper whose cart the cookies follow (a
/// product page's own cart has none).
fn after_change(state: &AppState, ctx: &StoreCtx, res: &mut Response, cart: &StoredCart) {
    if ctx.session.source != SessionSource::CartToken {
        ctx.cart_cookies(
            state,
            res.headers_mut(),
            &cart.hash(&state.config.currency.code),
            cart.items_count(),
        );
    }
}

/// wc_stripe_get_cart_details: `{shipping_required, order_data: {currency,
/// country_code, displayItems, total}}`.
pub(super) async fn get_cart_details(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::GET_CART_DETAILS) {
        return bad_nonce();
    }
    let catalog = state.catalog.get();
    let cart = match service::load(state, &ctx.session, ctx.now).await {
        Ok(c) => c,
        Err(e) => return store_failure(e),
    };
    let pricing = match priced(state, &catalog, &cart, ctx.now).await {
        Ok(p) => p,
        Err(e) => return store_failure(e),
    };
    let mut order_data = cart_display(state, &catalog, &pricing, false);
    order_data["currency"] = json!(display::currency(state));
    order_data["country_code"] = json!(display::country_code(state));
    json_value(
        StatusCode::OK,
        &json!({"shipping_required": pricing.needs_shipping, "order_data": order_data}),
    )
}

/// A text field of the wallet's: missing is empty; anything but text (or a number) is
/// refused, and so is a field longer than the Store API takes.
fn text_field(form: &Form, name: &str) -> Result<String, String> {
    let text = match form.0.get(name) {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => return Err(format!("{name} is not text.")),
    };
    if text.chars().count() > MAX_FIELD_CHARS {
        return Err(format!("{name} is too long."));
    }
    Ok(text)
}

/// The wallet's shipping address (`country`, `state`, `postcode`, `city`, `address`,
/// `address_2`), made ready for checkout.
fn wallet_location(form: &Form) -> Result<Address, String> {
    let address = Address {
        country: text_field(form, "country")?,
        state: text_field(form, "state")?,
        postcode: text_field(form, "postcode")?,
        city: text_field(form, "city")?,
        address_1: text_field(form, "address")?,
        address_2: text_field(form, "address_2")?,
        ..Address::default()
    };
    Ok(wallet::normalize(&address))
}

/// Where the wallet ships to becomes the cart's shipping address, and its location
/// the billing one's (as the original sets the customer's location), so shipping and
/// taxes are those the checkout will charge.
fn locate(customer: &mut CustomerDetails, at: &Address) {
    let shipping = &mut customer.shipping;
    shipping.country = at.country.clone();
    shipping.state = at.state.clone();
    shipping.postcode = at.postcode.clone();
    shipping.city = at.city.clone();
    shipping.address_1 = at.address_1.clone();
    shipping.address_2 = at.address_2.clone();
    let billing = &mut customer.billing;
    billing.country = at.country.clone();
    billing.state = at.state.clone();
    billing.postcode = at.postcode.clone();
    billing.city = at.city.clone();
}

fn no_shipping(display: Value, status: StatusCode, message: &str) -> Response {
    let mut body = display;
    body["result"] = json!("invalid_shipping_address");
    body["message"] = json!(message);
    json_value(status, &body)
}

/// wc_stripe_get_shipping_options: the rates for the wallet's address, the one chosen
/// before first (the sheet applies the first), with the cart priced for it:
/// `{result: "success", shipping_options: [{id, label, detail, amount}], displayItems,
/// total}`, or `{result: "invalid_shipping_address"}` when nothing ships there.
pub(super) async fn get_shipping_options(
    state: &AppState,
    ctx: &StoreCtx,
    form: &Form,
) -> Response {
    if !nonce_ok(state, ctx, form, nonces::SHIPPING) {
        return bad_nonce();
    }
    let itemized = itemized(form);
    let address = match wallet_location(form) {
        Ok(a) => a,
        Err(message) => return no_shipping(json!({}), StatusCode::BAD_REQUEST, &message),
    };
    if let Err(res) = count(state, ctx).await {
        return res;
    }
    let catalog = state.catalog.get();
    let found = match sessions::find_session(&state.db, ctx.session.id.as_str(), ctx.now).await {
        Ok(f) => f,
        Err(e) => return store_failure(e),
    };
    let current = match &found {
        Some(record) => match service::read(state, record, ctx.now).await {
            Ok(c) => c,
            Err(e) => return store_failure(e),
        },
        None => StoredCart::default(),
    };
    let unchanged = match priced(state, &catalog, &current, ctx.now).await {
        Ok(p) => cart_display(state, &catalog, &p, itemized),
        Err(e) => return store_failure(e),
    };
    let unknown = "Unable to find shipping method for address.";
    if current.items.is_empty() || CountryCode::parse(&address.country).is_err() {
        return no_shipping(unchanged, StatusCode::OK, unknown);
    }
    let mut trial = current.clone();
    locate(&mut trial.customer, &address);
    let quoted = match price_cart(state, &catalog, &trial, ctx.now).await {
        Ok(p) => p,
        Err(e) => return store_failure(e),
    };
    let ships = quoted.needs_shipping
        && !quoted.packages.is_empty()
        && quoted.packages.iter().all(|p| !p.rates.is_empty());
    if !ships {
        return no_shipping(unchanged, StatusCode::OK, unknown);
    }
    let mut options = Vec::new();
    for package in &quoted.packages {
        let mut rates: Vec<_> = package.rates.iter().collect();
        // The rate chosen (the one chosen before, while it is still offered) first.
        rates.sort_by_key(|r| Some(&r.rate.rate_id) != package.chosen.as_ref());
        for r in rates {
            options.push(json!({
                "id": r.rate.rate_id,
                "label": r.rate.label,
                "displayName": r.rate.label,
                "detail": "",
                "amount": r.tax.net,
            }));
        }
    }
    let chosen: Vec<String> = quoted
        .packages
        .iter()
        .map(|p| p.chosen.clone().unwrap_or_default())
        .collect();
    let stored = service::change_found(state, &ctx.session, ctx.now, found, |cart| {
        locate(&mut cart.customer, &address);
        cart.customer.chosen_shipping = chosen.clone();
        Ok(())
    })
    .await;
    let cart = match stored {
        Ok((cart, ())) => cart,
        Err(e) => return change_failure(e),
    };
    let mut body = match priced(state, &catalog, &cart, ctx.now).await {
        Ok(p) => cart_display(state, &catalog, &p, itemized),
        Err(e) => return store_failure(e),
    };
    body["result"] = json!("success");
    body["shipping_options"] = Value::Array(options);
    json_value(StatusCode::OK, &body)
}

/// `shipping_method`: the rate ids chosen, one per package (`shipping_method[]=…`,
/// `shipping_method[0]=…`, or a single id).
fn rate_choices(form: &Form) -> Result<Vec<String>, &'static str> {
    let missing = "Please choose a shipping method.";
    let ids: Vec<String> = match form.0.get("shipping_method") {
        None => return Err(missing),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or("A shipping method is not text.")
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("shipping_method is not a list of rate ids."),
    };
    if ids.is_empty() || ids.iter().all(|id| id.trim().is_empty()) {
        return Err(missing);
    }
    if ids.len() > MAX_PACKAGES || ids.iter().any(|id| id.chars().count() > MAX_FIELD_CHARS) {
        return Err("Invalid Rate ID.");
    }
    Ok(ids.into_iter().map(|id| id.trim().to_string()).collect())
}

/// wc_stripe_update_shipping_method: chooses the rates (each must be offered for the
/// cart's address) and answers `{result: "success", displayItems, total}`.
pub(super) async fn update_shipping_method(
    state: &AppState,
    ctx: &StoreCtx,
    form: &Form,
) -> Response {
    let refused = |status: StatusCode, message: &str| {
        json_value(
            status,
            &json!({"result": "invalid_shipping_method", "message": message}),
        )
    };
    if !nonce_ok(state, ctx, form, nonces::UPDATE_SHIPPING) {
        return bad_nonce();
    }
    let ids = match rate_choices(form) {
        Ok(ids) => ids,
        Err(message) => return refused(StatusCode::BAD_REQUEST, message),
    };
    if let Err(res) = count(state, ctx).await {
        return res;
    }
    let mut cart = None;
    for (package, id) in ids.iter().enumerate().filter(|(_, id)| !id.is_empty()) {
        match select_shipping_rate(state, &ctx.session, ctx.now, package, id).await {
            Ok(c) => cart = Some(c),
            Err(RateError::UnknownPackage) => {
                return refused(StatusCode::BAD_REQUEST, "Invalid Package ID.")
            }
            Err(RateError::UnknownRate) => {
                return refused(StatusCode::BAD_REQUEST, "Invalid Rate ID.")
            }
            Err(RateError::Store(e)) => return change_failure(e),
        }
    }
    let Some(cart) = cart else {
        return refused(StatusCode::BAD_REQUEST, "Please choose a shipping method.");
    };
    let catalog = state.catalog.get();
    let mut body = match priced(state, &catalog, &cart, ctx.now).await {
        Ok(p) => cart_display(state, &catalog, &p, itemized(form)),
        Err(e) => return store_failure(e),
    };
    body["result"] = json!("success");
    json_value(StatusCode::OK, &body)
}

/// An address object of `data`: text fields under the shop's names; missing ones are
/// empty.
fn address_object(value: &Value, name: &str) -> Result<Address, String> {
    let Value::Object(map) = value else {
        return Err(format!("{name} is not an address."));
    };
    let mut address = Address::default();
    for field in ADDRESS_FIELDS {
        let text = match map.get(field) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            Some(_) => return Err(format!("{name}[{field}] is not text.")),
        };
        if text.chars().count() > MAX_FIELD_CHARS {
            return Err(format!("{name}[{field}] is too long."));
        }
        *address.get_mut(field).expect("a known field") = text;
    }
    Ok(address)
}

/// wc_stripe_normalize_address: `data[billing_address]` and `data[shipping_address]`
/// made ready for checkout (`rules::address::wallet::normalize`); answers them under
/// the same names.
pub(super) fn normalize_address(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::NORMALIZE_ADDRESS) {
        return bad_nonce();
    }
    let Some(Value::Object(data)) = form.0.get("data") else {
        return failure(
            StatusCode::BAD_REQUEST,
            "data must hold billing_address and shipping_address.",
        );
    };
    let mut out = Map::new();
    for name in ["billing_address", "shipping_address"] {
        let Some(value) = data.get(name).filter(|v| !v.is_null()) else {
            continue;
        };
        match address_object(value, name) {
            Ok(address) => {
                let mut normalized = json!(wallet::normalize(&address));
                // A shipping address has no e-mail, as the Store API shows it.
                if let (Value::Object(fields), "shipping_address") = (&mut normalized, name) {
                    fields.remove("email");
                }
                out.insert(name.to_string(), normalized);
            }
            Err(message) => return failure(StatusCode::BAD_REQUEST, &message),
        }
    }
    if out.is_empty() {
        return failure(
            StatusCode::BAD_REQUEST,
            "data must hold billing_address and shipping_address.",
        );
    }
    json_value(StatusCode::OK, &Value::Object(out))
}

/// What the product page asks for: a product (`product_id`), how many (`qty`,
/// default 1) and, for a variable product, its options (`attributes`, a map of
/// `attribute_pa_…` to value).
struct ProductRequest {
    id: ProductId,
    quantity: i64,
    chosen: Vec<(String, String)>,
}

fn product_request(form: &Form) -> Result<ProductRequest, String> {
    let id = form
        .id("product_id")
        .ok_or_else(|| "product_id must name a product.".to_string())?;
    let quantity = match form.0.get("qty") {
        None | Some(Value::Null) => 1,
        Some(_) => form
            .text("qty")
            .and_then(|q| q.parse::<i64>().ok())
            .filter(|q| (1..=rules::cart::model::STORE_MAX_QUANTITY).contains(q))
            .ok_or_else(|| "qty must be a whole number of at least 1.".to_string())?,
    };
    let chosen = match form.0.get("attributes") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(map)) if map.len() <= 32 => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) if k.len() <= 100 && s.len() <= MAX_FIELD_CHARS => {
                    Ok((k.clone(), s.clone()))
                }
                _ => Err(format!(
                    "attributes[{}] is not an option's value.",
                    k.chars().take(100).collect::<String>()
                )),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("attributes must map each option to its value.".into()),
    };
    Ok(ProductRequest {
        id: ProductId(id),
        quantity,
        chosen,
    })
}

/// The product's live stock, and the session's row read with it (one query), or why
/// it cannot be sold.
async fn stock_of(
    state: &AppState,
    ctx: &StoreCtx,
    addition: &Addition<'_>,
) -> Result<(Option<sessions::SessionRecord>, StockLevel), Response> {
    match sessions::find_session_and_stock(
        &state.db,
        ctx.session.id.as_str(),
        ctx.now,
        addition.product.id,
    )
    .await
    {
        Ok(Some(found)) => Ok(found),
        Ok(None) => Err(failure(
            StatusCode::BAD_REQUEST,
            &cart_message(CartError::InvalidProduct),
        )),
        Err(e) => Err(store_failure(e)),
    }
}

/// wc_stripe_add_to_cart: the product page's purchase becomes the cart's only content
/// (the cart is emptied first, as in the original, so the sheet's total is the
/// product's); answers `{result: "success", displayItems, total}`. On the product
/// page this is the page's own cart, named by its `Cart-Token`.
pub(super) async fn add_to_cart(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::ADD_TO_CART) {
        return bad_nonce();
    }
    let request = match product_request(form) {
        Ok(r) => r,
        Err(message) => return failure(StatusCode::BAD_REQUEST, &message),
    };
    if let Err(res) = count(state, ctx).await {
        return res;
    }
    let catalog = state.catalog.get();
    let addition = match resolve(&catalog, request.id, &request.chosen) {
        Ok(a) => a,
        Err(e) => return failure(StatusCode::BAD_REQUEST, &cart_message(e)),
    };
    let (found, stock) = match stock_of(state, ctx, &addition).await {
        Ok(f) => f,
        Err(res) => return res,
    };
    let changed = service::change_found(state, &ctx.session, ctx.now, found, |cart| {
        cart.items.clear();
        cart.coupons.clear();
        cart.add(&addition, request.quantity, &stock)
    })
    .await;
    let cart = match changed {
        Ok((cart, _)) => cart,
        Err(e) => return change_failure(e),
    };
    let mut body = match priced(state, &catalog, &cart, ctx.now).await {
        Ok(p) => cart_display(state, &catalog, &p, false),
        Err(e) => return store_failure(e),
    };
    body["result"] = json!("success");
    let mut res = json_value(StatusCode::OK, &body);
    after_change(state, ctx, &mut res, &cart);
    res
}

/// wc_stripe_clear_cart: empties the cart (the product page's own, after its sheet
/// closed). `booking_id`, when sent, must be a number; the shop has no bookings to
/// release.
pub(super) async fn clear_cart(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::CLEAR_CART) {
        return bad_nonce();
    }
    if form.0.get("booking_id").is_some()
        && form
            .text("booking_id")
            .and_then(|b| b.parse::<u64>().ok())
            .is_none()
    {
        return failure(StatusCode::BAD_REQUEST, "booking_id must be a number.");
    }
    let found = match sessions::find_session(&state.db, ctx.session.id.as_str(), ctx.now).await {
        Ok(f) => f,
        Err(e) => return store_failure(e),
    };
    // A session that holds nothing stays unwritten.
    let Some(record) = found else {
        return json_value(StatusCode::OK, &json!({"result": "success"}));
    };
    let changed = service::change_found(state, &ctx.session, ctx.now, Some(record), |cart| {
        cart.items.clear();
        cart.coupons.clear();
        Ok(())
    })
    .await;
    match changed {
        Ok((cart, ())) => {
            let mut res = json_value(StatusCode::OK, &json!({"result": "success"}));
            after_change(state, ctx, &mut res, &cart);
            res
        }
        Err(e) => change_failure(e),
    }
}

/// A product priced on its own, as one line of a cart holding nothing else, for the
/// session's location (or the shop's default one): what its button shows before
/// anything is added.
pub struct Quote {
    pub pricing: Pricing,
    /// The wallet should ask for a shipping address.
    pub request_shipping: bool,
}

/// Prices `quantity` of `addition` for `customer`'s location; with `stock`, the
/// quantity is first checked as adding it to a cart would check it.
pub async fn quote(
    state: &AppState,
    catalog: &Catalog,
    customer: &CustomerDetails,
    addition: &Addition<'_>,
    quantity: i64,
    stock: Option<&StockLevel>,
    now: i64,
) -> Result<Result<Quote, CartError>, StoreError> {
    let mut scratch = StoredCart {
        customer: customer.clone(),
        ..StoredCart::default()
    };
    match stock {
        Some(stock) => {
            if let Err(e) = scratch.add(addition, quantity, stock) {
                return Ok(Err(e));
            }
        }
        None => scratch.items.push(rules::cart::model::CartLine {
            key: addition.key(),
            id: addition.product.id,
            quantity,
            variation: addition.variation.clone(),
        }),
    }
    let pricing = priced(state, catalog, &scratch, now).await?;
    let request_shipping = pricing.needs_shipping && display::shop_ships(catalog);
    Ok(Ok(Quote {
        pricing,
        request_shipping,
    }))
}

/// A quote as the sheet reads it: `{displayItems, total, currency, country_code,
/// requestShipping, needs_shipping, shippingOptions}`.
pub fn quote_json(state: &AppState, catalog: &Catalog, quote: &Quote) -> Value {
    let mut body = product_display(state, catalog, &quote.pricing, quote.request_shipping);
    body["currency"] = json!(display::currency(state));
    body["country_code"] = json!(display::country_code(state));
    body["requestShipping"] = json!(quote.request_shipping);
    body["needs_shipping"] = json!(quote.request_shipping);
    if quote.request_shipping {
        body["shippingOptions"] =
            json!({"id": "pending", "label": "Pending", "detail": "", "amount": 0});
    }
    body
}

/// wc_stripe_get_selected_product_data: the product page's choice (a variation, a
/// quantity) priced before it is added; `{error}` when it cannot be bought.
pub(super) async fn get_selected_product_data(
    state: &AppState,
    ctx: &StoreCtx,
    form: &Form,
) -> Response {
    let refused = |message: &str| json_value(StatusCode::BAD_REQUEST, &json!({"error": message}));
    if !nonce_ok(state, ctx, form, nonces::GET_SELECTED_PRODUCT_DATA) {
        return bad_nonce();
    }
    let request = match product_request(form) {
        Ok(r) => r,
        Err(message) => return refused(&message),
    };
    let catalog = state.catalog.get();
    if catalog.shown(request.id).is_none() {
        return refused(&format!(
            "Product with the ID ({}) cannot be found.",
            request.id.0
        ));
    }
    let addition = match resolve(&catalog, request.id, &request.chosen) {
        Ok(a) => a,
        Err(e) => return refused(&cart_message(e)),
    };
    let (found, stock) = match stock_of(state, ctx, &addition).await {
        Ok(f) => f,
        Err(res) => return res,
    };
    let customer = match &found {
        Some(record) => match service::read(state, record, ctx.now).await {
            Ok(cart) => cart.customer,
            Err(e) => return store_failure(e),
        },
        None => CustomerDetails::default(),
    };
    match quote(
        state,
        &catalog,
        &customer,
        &addition,
        request.quantity,
        Some(&stock),
        ctx.now,
    )
    .await
    {
        Ok(Ok(quote)) => json_value(StatusCode::OK, &quote_json(state, &catalog, &quote)),
        Ok(Err(e)) => refused(&cart_message(e)),
        Err(e) => store_failure(e),
    }
}
