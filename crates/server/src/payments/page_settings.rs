//! The settings the payment pages hand the provider's element: the publishable key,
//! the methods offered with their rules, the amount, the shopper's nonces for the
//! payment calls, the error messages. Checkout, order-pay, change-payment and
//! add-payment-method each get their own (`?context=`); the storefront's server render
//! asks for them, so they arrive with the page.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Map, Value};

use rules::orders::model::{Order, OrderId};
use rules::payments::messages;

use super::nonces::*;
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::store_api::StoreCtx;
use crate::state::{AppState, SharedState};

/// Where the appearance the storefront computed from the theme is kept.
pub const APPEARANCE_SETTING: &str = "payments.appearance";

/// Where the settings are asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Checkout,
    OrderPay,
    ChangePayment,
    AddPaymentMethod,
}

/// The billing fields of the shop's checkout form: the element does not ask for them
/// again.
const BILLING_FIELDS: [&str; 11] = [
    "billing_first_name",
    "billing_last_name",
    "billing_company",
    "billing_country",
    "billing_address_1",
    "billing_address_2",
    "billing_city",
    "billing_state",
    "billing_postcode",
    "billing_phone",
    "billing_email",
];

/// GET /payments/page-settings
pub async fn get_page_settings(
    State(state): State<SharedState>,
    RawQuery(query): RawQuery,
    ctx: StoreCtx,
) -> Response {
    let result = async {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(query.as_deref().unwrap_or(""))
                .map_err(|_| bad_param("context"))?;
        let get = |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let context = match get("context").unwrap_or("checkout") {
            "checkout" => Context::Checkout,
            "order-pay" => Context::OrderPay,
            "change-payment" => Context::ChangePayment,
            "add-payment-method" => Context::AddPaymentMethod,
            _ => return Err(bad_param("context")),
        };
        let order = match context {
            Context::OrderPay | Context::ChangePayment => {
                Some(order_named(&state, &ctx, get("order_id"), get("key")).await?)
            }
            _ => None,
        };
        if context == Context::AddPaymentMethod && ctx.session.user_id <= 0 {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "woocommerce_rest_missing_login",
                "You must be logged in to add a payment method.",
            ));
        }
        let settings = build(&state, &ctx, context, order.as_ref()).await?;
        Ok(json_value(StatusCode::OK, &settings))
    }
    .await;
    let mut res = ctx.answer(&state, result);
    // The shopper's nonces: never kept by a cache.
    res.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store, private"),
    );
    res
}

fn bad_param(name: &str) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "rest_invalid_param",
        format!("Invalid parameter(s): {name}"),
    )
}

/// The order an order-pay address names, if this shopper may pay it.
async fn order_named(
    state: &AppState,
    ctx: &StoreCtx,
    id: Option<&str>,
    key: Option<&str>,
) -> Result<Order, ApiError> {
    let invalid = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "woocommerce_rest_invalid_order",
            "Invalid order ID or key provided.",
        )
    };
    let id = id
        .and_then(|i| i.parse::<i64>().ok())
        .filter(|&i| i > 0)
        .ok_or_else(invalid)?;
    let order = crate::orders::service::find_by_key(&state.db, OrderId(id), key.unwrap_or(""))
        .await?
        .ok_or_else(invalid)?;
    // An account's order is paid by that account.
    if let Some(owner) = order.customer_id.filter(|&c| c > 0) {
        if ctx.session.user_id != owner {
            return Err(invalid());
        }
    }
    Ok(order)
}

async fn build(
    state: &AppState,
    ctx: &StoreCtx,
    context: Context,
    order: Option<&Order>,
) -> Result<Value, ApiError> {
    let config = &state.config.payments;
    let Some(provider) = state.provider.as_ref() else {
        return Ok(json!({"enabled": false, "gatewayId": "stripe"}));
    };
    let logged_in = ctx.session.user_id > 0;
    let (cart_total, currency, country) = match (context, order) {
        (Context::OrderPay | Context::ChangePayment, Some(o)) => {
            (o.total, o.currency.clone(), o.billing.country.clone())
        }
        (Context::AddPaymentMethod, _) => (0, state.config.currency.code.clone(), String::new()),
        _ => {
            let cart = crate::cart::service::load(state, &ctx.session, ctx.now).await?;
            let catalog = state.catalog.get();
            let pricing = crate::cart::pricing::price_cart(state, &catalog, &cart, ctx.now).await?;
            let country = match cart.customer.billing.country.as_str() {
                "" => state.config.checkout.default_country.clone(),
                c => c.to_string(),
            };
            (pricing.total, state.config.currency.code.clone(), country)
        }
    };
    let mut methods = Map::new();
    for gateway in &state.config.checkout.gateways.list {
        let Some(method) = gateway.provider_method() else {
            continue;
        };
        let info = method.info();
        methods.insert(
            info.id.to_string(),
            json!({
                "title": gateway.title,
                "description": gateway.description,
                "countries": info.countries,
                "isReusable": info.is_reusable,
                "supportsDeferredIntent": info.supports_deferred_intent,
                "showSaveOption": config.saved_cards && info.is_reusable && !method.save_option_hidden(),
                "gatewayId": info.gateway_id,
            }),
        );
    }
    let nonce = |action: &str| state.keys.nonce(action, &ctx.session, ctx.now);
    let saved = if logged_in && config.saved_cards {
        super::saved::list_json(state, ctx.session.user_id).await?
    } else {
        Value::Array(Vec::new())
    };
    let appearance = store::settings::get(&state.db, APPEARANCE_SETTING).await?;
    let appearance: Value = appearance
        .and_then(|a| serde_json::from_str(&a).ok())
        .unwrap_or(Value::Null);
    let received = order
        .map(|o| ctx.base_url.link(&o.received_path()))
        .unwrap_or_default();
    let mut settings = json!({
        "enabled": true,
        "gatewayId": "stripe",
        "title": config.title,
        "isUPEEnabled": true,
        "key": provider.publishable_key.as_str(),
        "locale": "en",
        "apiVersion": payments::API_VERSION,
        "isCheckout": context == Context::Checkout,
        "isOrderPay": context == Context::OrderPay,
        "isChangingPayment": context == Context::ChangePayment,
        "isAddPaymentMethod": context == Context::AddPaymentMethod,
        "orderId": order.map_or(0, |o| o.id.0),
        "orderReceivedURL": received,
        "addPaymentReturnURL": "/my-account/payment-methods/",
        "ajax_url": "/?wc-ajax=%%endpoint%%",
        "wp_ajax_url": "/wp-admin/admin-ajax.php",
        "theme_name": "ferroshop",
        "createPaymentIntentNonce": nonce(CREATE_PAYMENT_INTENT),
        "updatePaymentIntentNonce": nonce(UPDATE_PAYMENT_INTENT),
        "createSetupIntentNonce": nonce(CREATE_SETUP_INTENT),
        "createAndConfirmSetupIntentNonce": nonce(CREATE_AND_CONFIRM_SETUP_INTENT),
        "updateFailedOrderNonce": nonce(UPDATE_FAILED_ORDER),
        "updateOrderStatusNonce": nonce(UPDATE_ORDER_STATUS),
        "confirmChangePaymentNonce": nonce(CONFIRM_CHANGE_PAYMENT),
        "saveAppearanceNonce": nonce(SAVE_APPEARANCE),
    });
    let more = json!({
        "paymentMethodsConfig": methods,
        "genericErrorMessage": messages::GENERIC_ERROR,
        "invalid_wallet_type": messages::INVALID_WALLET_TYPE,
        "accountDescriptor": config.statement_descriptor,
        "enabledBillingFields": BILLING_FIELDS,
        "cartContainsSubscription": false,
        "subscriptionRequiresManualRenewal": false,
        "cartTotal": cart_total,
        "currency": currency,
        "isLoggedIn": logged_in,
        "isSignupOnCheckoutAllowed": state.config.checkout.signup_at_checkout,
        "isPaymentNeeded": context == Context::AddPaymentMethod || context == Context::ChangePayment || cart_total > 0,
        "isOCEnabled": config.one_checkout,
        "OCLayout": config.layout,
        "paymentMethodConfigurationParentId": Value::Null,
        "customerData": {"billing_country": country},
        "appearance": appearance,
        "blocksAppearance": Value::Null,
        "captureMethod": match config.capture {
            crate::config::payments::Capture::Automatic => "automatic",
            crate::config::payments::Capture::Manual => "manual",
        },
        "savedPaymentMethods": saved,
    });
    let map = settings.as_object_mut().expect("an object");
    if let Value::Object(more) = more {
        map.extend(more);
    }
    for (code, message) in messages::ERROR_MESSAGES {
        let text = if code == "invalid_request_error" && context == Context::AddPaymentMethod {
            messages::UNABLE_TO_SAVE
        } else {
            message
        };
        map.insert(code.to_string(), Value::String(text.to_string()));
    }
    map.insert(
        "invalid_wallet_type".into(),
        Value::String(messages::INVALID_WALLET_TYPE.into()),
    );
    Ok(settings)
}
