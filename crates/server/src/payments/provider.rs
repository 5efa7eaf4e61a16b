//! The card provider as the shop is connected to it: its client with the secret key,
//! the publishable key pages hand out, and the webhook secret. Apart from the rest of
//! `payments` so the shop's state can hold it without the payment calls.

use std::sync::Arc;

use crate::config::payments::PaymentsConfig;
use payments::{Client, ClientConfig, PublishableKey, WebhookSecret};

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
