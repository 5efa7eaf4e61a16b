//! A shopper paying by card as the checkout page does: one session per `Cart-Token`,
//! each behind a client address of its own in `X-Forwarded-For`, as the shop's load
//! balancer presents shoppers (payment attempts are limited per client address and
//! per payer e-mail before the provider is asked, so thousands of attempts from one
//! address would measure the refusal instead of the payment).

use std::net::Ipv4Addr;

use bytes::Bytes;
use reqwest::header::{HeaderValue, CONTENT_TYPE};
use reqwest::{Client, RequestBuilder, StatusCode};
use serde_json::{json, Value};

use crate::shop::{Failure, ProductId};

const STORE_API: &str = "/wp-json/wc/store/v1";
const SHOP_API: &str = "/wp-json/ferroshop/v1";
/// The emulator declines this card: the order is placed, and left failed, waiting for
/// payment.
const DECLINED_CARD: &str = "pm_card_chargeCustomerFail";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderId(pub i64);

/// The key that lets a guest read their order (`wc_order_…`).
#[derive(Debug, Clone)]
pub struct OrderKey(String);

/// A payment intent the shop made at the provider (`pi_…`).
#[derive(Debug, Clone)]
pub struct IntentId(pub String);

/// A shopper's session: its Cart-Token, and the address the load balancer says it
/// comes from.
#[derive(Debug, Clone)]
pub struct Session {
    token: HeaderValue,
    client_address: HeaderValue,
}

/// An order whose card was declined at checkout, with what its shopper needs to pay
/// it from the page: the session that placed it and that session's nonce for the call.
#[derive(Debug, Clone)]
pub struct UnpaidOrder {
    pub session: Session,
    pub id: OrderId,
    pub key: OrderKey,
    intent_nonce: String,
}

/// An order as its shopper reads it.
#[derive(Debug, Clone)]
pub struct OrderState {
    pub status: String,
    /// In the currency's minor units.
    pub total: i64,
    /// Lowercase, as the provider writes it.
    pub currency: String,
}

pub struct Payer {
    client: Client,
    base_url: String,
}

impl Payer {
    pub fn new(client: Client, base_url: &str) -> Payer {
        Payer {
            client,
            base_url: base_url.trim_end_matches('/').to_string(),
        }
    }

    /// A new session behind `address`: GET /cart answers with its token.
    pub async fn new_session(&self, address: Ipv4Addr) -> Result<Session, Failure> {
        let client_address = HeaderValue::from_str(&address.to_string())
            .expect("an IPv4 address is a valid header value");
        let res = self
            .client
            .get(format!("{}{STORE_API}/cart", self.base_url))
            .header("X-Forwarded-For", client_address.clone())
            .send()
            .await?;
        let status = res.status();
        let token = res.headers().get("cart-token").cloned();
        let body = res.bytes().await?;
        match token {
            Some(token) if status == StatusCode::OK => Ok(Session {
                token,
                client_address,
            }),
            Some(_) => Err(unexpected("GET /cart", status, &body)),
            None => Err(Failure("GET /cart sent no Cart-Token header".into())),
        }
    }

    pub async fn add_item(&self, session: &Session, product: ProductId) -> Result<(), Failure> {
        let (status, body) = self
            .store_post(
                session,
                "/cart/add-item",
                &json!({"id": product.0, "quantity": 1}),
            )
            .await?;
        match status {
            StatusCode::CREATED | StatusCode::OK => Ok(()),
            _ => Err(unexpected("POST /cart/add-item", status, &body)),
        }
    }

    /// Checks the cart out paying with a card the provider declines, then reads the
    /// session's nonce for the intent call as the checkout page does: the order is
    /// left failed, as by a shopper about to try another card.
    pub async fn place_declined_order(
        &self,
        session: &Session,
        billing: &Value,
        shipping: &Value,
    ) -> Result<UnpaidOrder, Failure> {
        let body = json!({
            "billing_address": billing,
            "shipping_address": shipping,
            "payment_method": "stripe",
            "payment_data": [{"key": "wc-stripe-payment-method", "value": DECLINED_CARD}],
        });
        let (status, body) = self.store_post(session, "/checkout", &body).await?;
        let what = "POST /checkout (a declined card)";
        if status != StatusCode::BAD_REQUEST {
            return Err(unexpected(what, status, &body));
        }
        let answer: Value =
            serde_json::from_slice(&body).map_err(|e| Failure(format!("{what}: not JSON: {e}")))?;
        let id = answer["data"]["order_id"].as_i64().filter(|&id| id > 0);
        let key = answer["data"]["pay_url"].as_str().and_then(order_key_in);
        let (Some(id), Some(key)) = (id, key) else {
            return Err(unexpected(
                &format!("{what}: no data.order_id and data.pay_url"),
                status,
                &body,
            ));
        };
        let intent_nonce = self.intent_nonce(session).await?;
        Ok(UnpaidOrder {
            session: session.clone(),
            id: OrderId(id),
            key,
            intent_nonce,
        })
    }

    /// The session's nonce for wc_stripe_create_payment_intent, from the checkout
    /// page's payment settings.
    async fn intent_nonce(&self, session: &Session) -> Result<String, Failure> {
        let url = format!(
            "{}{SHOP_API}/payments/page-settings?context=checkout",
            self.base_url
        );
        let res = self
            .as_shopper(self.client.get(url), session)
            .send()
            .await?;
        let status = res.status();
        let body = res.bytes().await?;
        let what = "GET /payments/page-settings";
        if status != StatusCode::OK {
            return Err(unexpected(what, status, &body));
        }
        let settings: Value =
            serde_json::from_slice(&body).map_err(|e| Failure(format!("{what}: not JSON: {e}")))?;
        match settings["createPaymentIntentNonce"].as_str() {
            Some(nonce) if !nonce.is_empty() => Ok(nonce.to_string()),
            _ => Err(unexpected(
                &format!("{what}: no createPaymentIntentNonce"),
                status,
                &body,
            )),
        }
    }

    /// The classic call the page makes before it confirms a card: the shop asks the
    /// provider for a payment intent for the order and hands its client secret back.
    pub async fn create_payment_intent(&self, order: &UnpaidOrder) -> Result<IntentId, Failure> {
        let form = format!(
            "stripe_order_id={}&payment_method_type=card&_ajax_nonce={}",
            order.id.0,
            form_value(&order.intent_nonce)
        );
        let res = self
            .as_shopper(
                self.client
                    .post(format!(
                        "{}/?wc-ajax=wc_stripe_create_payment_intent",
                        self.base_url
                    ))
                    .header(
                        CONTENT_TYPE,
                        HeaderValue::from_static("application/x-www-form-urlencoded"),
                    )
                    .body(form),
                &order.session,
            )
            .send()
            .await?;
        let status = res.status();
        let body = res.bytes().await?;
        let what = "POST wc_stripe_create_payment_intent";
        if status != StatusCode::OK {
            return Err(unexpected(what, status, &body));
        }
        let answer: Value =
            serde_json::from_slice(&body).map_err(|e| Failure(format!("{what}: not JSON: {e}")))?;
        let data = &answer["data"];
        match (answer["success"].as_bool(), data["id"].as_str()) {
            (Some(true), Some(id))
                if id.starts_with("pi_")
                    && data["client_secret"]
                        .as_str()
                        .is_some_and(|s| !s.is_empty()) =>
            {
                Ok(IntentId(id.to_string()))
            }
            _ => Err(unexpected(
                &format!("{what}: no intent id and client secret"),
                status,
                &body,
            )),
        }
    }

    /// The order as its shopper reads it with its key.
    pub async fn order(&self, id: OrderId, key: &OrderKey) -> Result<OrderState, Failure> {
        let url = format!(
            "{}{SHOP_API}/orders/{}?key={}",
            self.base_url,
            id.0,
            form_value(&key.0)
        );
        let res = self.client.get(url).send().await?;
        let status = res.status();
        let body = res.bytes().await?;
        let what = "GET /orders/{id}";
        if status != StatusCode::OK {
            return Err(unexpected(what, status, &body));
        }
        let order: Value =
            serde_json::from_slice(&body).map_err(|e| Failure(format!("{what}: not JSON: {e}")))?;
        let total = order["totals"]["total"]
            .as_str()
            .and_then(|t| t.parse::<i64>().ok());
        match (
            order["status"].as_str(),
            total,
            order["totals"]["currency_code"].as_str(),
        ) {
            (Some(status), Some(total), Some(currency)) => Ok(OrderState {
                status: status.to_string(),
                total,
                currency: currency.to_ascii_lowercase(),
            }),
            _ => Err(unexpected(
                &format!("{what}: no status, totals.total and totals.currency_code"),
                status,
                &body,
            )),
        }
    }

    async fn store_post(
        &self,
        session: &Session,
        path: &str,
        body: &Value,
    ) -> Result<(StatusCode, Bytes), Failure> {
        let res = self
            .as_shopper(
                self.client
                    .post(format!("{}{STORE_API}{path}", self.base_url))
                    .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                    .body(serde_json::to_vec(body).expect("a JSON value serialises")),
                session,
            )
            .send()
            .await?;
        let status = res.status();
        Ok((status, res.bytes().await?))
    }

    /// The session's token (a valid one needs no nonce) and client address.
    fn as_shopper(&self, request: RequestBuilder, session: &Session) -> RequestBuilder {
        request
            .header("Cart-Token", session.token.clone())
            .header("X-Forwarded-For", session.client_address.clone())
    }
}

/// The order key in a pay link (`…/order-pay/ID/?pay_for_order=true&key=wc_order_…`).
fn order_key_in(pay_url: &str) -> Option<OrderKey> {
    let query = pay_url.split_once('?')?.1;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("key="))
        .filter(|key| !key.is_empty())
        .map(|key| OrderKey(key.to_string()))
}

/// Nonces and order keys are letters, digits and underscores; anything else is
/// percent-encoded so a surprise cannot split the form.
fn form_value(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn unexpected(what: &str, status: StatusCode, body: &[u8]) -> Failure {
    let text = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
    Failure(format!("{what} answered {status}: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_key_is_read_from_the_pay_link() {
        let key = order_key_in(
            "http://127.0.0.1:8080/checkout/order-pay/42/?pay_for_order=true&key=wc_order_AbC123",
        );
        assert_eq!(key.map(|k| k.0).as_deref(), Some("wc_order_AbC123"));
        assert!(order_key_in("http://127.0.0.1:8080/checkout/order-pay/42/").is_none());
    }

    #[test]
    fn form_values_keep_only_safe_characters() {
        assert_eq!(form_value("a1_b-c.d"), "a1_b-c.d");
        assert_eq!(form_value("a&b=c"), "a%26b%3Dc");
    }
}
