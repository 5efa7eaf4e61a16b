//! Card payments at the provider (gateway `stripe`, and `stripe_{type}` for its other
//! method types): charging orders (`charge`), applying what the provider says of a
//! payment (`settle`), its webhooks (`webhook`), the storefront's calls (`ajax`), the
//! page settings the payment pages carry (`page_settings`), the methods customers keep
//! (`saved`), the staff's captures and refunds (`staff`), and the wallets' express
//! checkout (`express`).

pub mod ajax;
mod answer;
pub mod charge;
pub mod checkout;
pub mod cli;
pub mod express;
pub mod nonces;
pub mod page_settings;
pub mod provider;
pub mod saved;
pub mod settle;
pub mod staff;
pub mod webhook;

use crate::http::routes::ApiRoutes;
use crate::state::SharedState;

use crate::config::payments::PaymentsConfig;
pub use provider::Provider;
use rules::payments::{Gateway, Gateways};

/// The payment calls of the shop's own API.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/payments/page-settings", page_settings::get_page_settings)
        .get(
            "/payments/express-checkout-params",
            express::params::get_express_checkout_params,
        )
        .get("/account/payment-methods", saved::list_payment_methods)
        .post(
            "/account/payment-methods/{id}/default",
            saved::set_default_payment_method,
        )
        .post(
            "/account/payment-methods/{id}/delete",
            saved::delete_payment_method,
        )
}

/// Puts the provider's methods before the offline ones when the shop is connected;
/// a method that cannot take the shop's currency is left out with a warning.
pub fn offer(config: &PaymentsConfig, currency: &str, gateways: &mut Gateways) -> Vec<String> {
    let mut warnings = Vec::new();
    if !config.is_connected() {
        return warnings;
    }
    let mut offered = Vec::new();
    for &method in &config.methods {
        if !method.takes_currency(currency) {
            warnings.push(format!(
                "payment method {} is not offered: it does not take {currency}",
                method.as_str()
            ));
            continue;
        }
        let mut gateway = Gateway::provider(method);
        if method == rules::payments::methods::MethodType::Card {
            gateway.title = config.title.clone();
            gateway.description = config.description.clone();
        }
        offered.push(gateway);
    }
    gateways.list.splice(0..0, offered);
    warnings
}
