//! Card payments at the provider (gateway `stripe`, and `stripe_{type}` for its other
//! method types): charging orders (`charge`), applying what the provider says of a
//! payment (`settle`), its webhooks (`webhook`), the storefront's calls (`ajax`), the
//! page settings the payment pages carry (`page_settings`), the methods customers keep
//! (`saved`), and the staff's captures and refunds (`staff`).

pub mod ajax;
pub mod charge;
pub mod checkout;
pub mod cli;
pub mod page_settings;
pub mod saved;
pub mod settle;
pub mod staff;
pub mod webhook;

use std::sync::Arc;

use crate::http::routes::ApiRoutes;
use crate::state::SharedState;

use crate::config::payments::PaymentsConfig;
use payments::{Client, ClientConfig, PublishableKey, WebhookSecret};
use rules::payments::{Gateway, Gateways};

/// The payment calls of the shop's own API.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/payments/page-settings", page_settings::get_page_settings)
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

/// The provider, connected with the shop's keys.
pub struct Provider {
    pub client: Client,
    pub publishable_key: PublishableKey,
    pub webhook_secret: Option<WebhookSecret>,
}

impl Provider {
    /// The provider as configured; None when the shop has no keys.
    pub fn connect(config: &PaymentsConfig) -> Result<Option<Arc<Provider>>, payments::Error> {
        let (Some(publishable), Some(secret)) = (&config.publishable_key, &config.secret_key)
        else {
            return Ok(None);
        };
        let mut client = ClientConfig::new(secret.clone());
        client.base_url = config.api_base.clone();
        Ok(Some(Arc::new(Provider {
            client: Client::new(client)?,
            publishable_key: publishable.clone(),
            webhook_secret: config.webhook_secret.clone(),
        })))
    }
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
