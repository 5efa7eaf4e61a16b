//! `ferroshop payments check`: whether the shop's provider settings work, asked of the
//! provider itself, with what to change for each problem found.

use payments::ListEvents;

use super::Provider;
use crate::config::Config;

/// The webhook events the shop acts on (what the endpoint at the provider should send).
pub const WEBHOOK_EVENTS: [&str; 8] = [
    "payment_intent.succeeded",
    "payment_intent.processing",
    "payment_intent.payment_failed",
    "payment_intent.requires_action",
    "payment_intent.canceled",
    "charge.refunded",
    "charge.dispute.created",
    "setup_intent.succeeded",
];

/// One finding of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    Ok(String),
    Problem(String),
}

/// Checks the settings against the provider. Problems say what to set.
pub async fn check(config: &Config) -> Vec<Finding> {
    let mut found = Vec::new();
    let settings = &config.payments;
    if !settings.is_connected() {
        found.push(Finding::Problem(
            "card payments are off: set FERROSHOP_STRIPE_PUBLISHABLE_KEY and FERROSHOP_STRIPE_SECRET_KEY (or [payments] publishable_key and secret_key)".into(),
        ));
        return found;
    }
    let provider = match Provider::connect(settings) {
        Ok(Some(p)) => p,
        Ok(None) => return found,
        Err(e) => {
            found.push(Finding::Problem(format!(
                "the provider's address cannot be used: {e}"
            )));
            return found;
        }
    };
    let mode = if settings.secret_key.as_ref().is_some_and(|k| k.is_live()) {
        "live"
    } else {
        "test"
    };
    match provider.client.check_account().await {
        Ok(()) => found.push(Finding::Ok(format!(
            "the secret key is accepted by {} ({mode} mode)",
            settings.api_base
        ))),
        Err(e) => match e.provider_error() {
            Some(p) if p.status == 401 => found.push(Finding::Problem(
                "the secret key was refused: copy it again from the provider's dashboard (Developers → API keys) into FERROSHOP_STRIPE_SECRET_KEY".into(),
            )),
            Some(p) if p.status == 403 => found.push(Finding::Problem(
                "the restricted key may not read customers: give it write access to PaymentIntents, SetupIntents, PaymentMethods, Customers, Refunds and read access to Events".into(),
            )),
            _ => found.push(Finding::Problem(format!(
                "the provider could not be reached at {}: {e}",
                settings.api_base
            ))),
        },
    }
    let address = match &config.public_url {
        Some(url) => format!("{}/?wc-api=wc_stripe", url.trim_end_matches('/')),
        None => {
            found.push(Finding::Problem(
                "FERROSHOP_PUBLIC_URL is not set: the provider needs the shop's public address to send webhooks to".into(),
            ));
            "https://YOUR-SHOP/?wc-api=wc_stripe".into()
        }
    };
    match &settings.webhook_secret {
        Some(_) => found.push(Finding::Ok(format!(
            "webhooks are verified with the configured secret; the endpoint at the provider must be {address} and send {}",
            WEBHOOK_EVENTS.join(", ")
        ))),
        None => found.push(Finding::Problem(format!(
            "no webhook secret: every webhook will be refused. Add an endpoint at the provider for {address} with the events {}, then set its signing secret in FERROSHOP_STRIPE_WEBHOOK_SECRET",
            WEBHOOK_EVENTS.join(", ")
        ))),
    }
    let recent = ListEvents {
        limit: Some(1),
        ..ListEvents::default()
    };
    match provider.client.list_events(&recent).await {
        Ok(_) => found.push(Finding::Ok(
            "events can be read (webhook deliveries can be checked)".into(),
        )),
        Err(e) => found.push(Finding::Problem(format!(
            "events cannot be read with this key: {e}"
        ))),
    }
    if settings
        .publishable_key
        .as_ref()
        .is_some_and(|k| k.as_str().starts_with("pk_live_"))
        && config
            .public_url
            .as_deref()
            .is_some_and(|u| !u.starts_with("https://"))
    {
        found.push(Finding::Problem(
            "live payments need the shop served over https: set FERROSHOP_PUBLIC_URL to its https address".into(),
        ));
    }
    found
}
