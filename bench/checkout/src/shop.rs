//! The Store API calls the benchmark makes, as a shopper's browser would make them:
//! one session per `Cart-Token`, JSON bodies, no nonce (a valid Cart-Token needs none).

use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderValue, CONTENT_TYPE};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

const STORE_API: &str = "/wp-json/wc/store/v1";
/// The most a cart line can hold; a product offering it does not run out of stock.
const UNLIMITED: i64 = 9999;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProductId(pub i64);

/// The session a cart belongs to, as the `Cart-Token` header names it.
#[derive(Debug, Clone)]
pub struct CartToken(HeaderValue);

/// A request that did not get the answer it should have.
#[derive(Debug)]
pub struct Failure(pub String);

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<reqwest::Error> for Failure {
    fn from(e: reqwest::Error) -> Self {
        Failure(format!("request failed: {e}"))
    }
}

/// A postal address in the Store API's shape.
#[derive(Debug, Clone)]
pub struct Address {
    pub first_name: &'static str,
    pub last_name: &'static str,
    pub address_1: &'static str,
    pub city: &'static str,
    pub state: &'static str,
    pub postcode: &'static str,
    pub country: &'static str,
    pub phone: &'static str,
}

impl Address {
    /// San Francisco: the demo shop charges tax and offers shipping there.
    pub const CALIFORNIA: Address = Address {
        first_name: "Ada",
        last_name: "Lovelace",
        address_1: "1 Valencia Street",
        city: "San Francisco",
        state: "CA",
        postcode: "94110",
        country: "US",
        phone: "+1 415 555 0100",
    };
    pub const NEW_YORK: Address = Address {
        first_name: "Grace",
        last_name: "Hopper",
        address_1: "350 Fifth Avenue",
        city: "New York",
        state: "NY",
        postcode: "10118",
        country: "US",
        phone: "+1 212 555 0100",
    };
    pub const BERLIN: Address = Address {
        first_name: "Emmy",
        last_name: "Noether",
        address_1: "Unter den Linden 1",
        city: "Berlin",
        state: "",
        postcode: "10117",
        country: "DE",
        phone: "+49 30 5550100",
    };

    /// The billing form: the address with an e-mail.
    pub fn billing(&self, email: &str) -> Value {
        let mut v = self.shipping();
        v["email"] = json!(email);
        v
    }

    pub fn shipping(&self) -> Value {
        json!({
            "first_name": self.first_name,
            "last_name": self.last_name,
            "company": "",
            "address_1": self.address_1,
            "address_2": "",
            "city": self.city,
            "state": self.state,
            "postcode": self.postcode,
            "country": self.country,
            "phone": self.phone,
        })
    }
}

#[derive(Clone)]
pub struct Shop {
    client: Client,
    base_url: String,
    api: String,
}

impl Shop {
    pub fn new(base_url: &str) -> Result<Shop, Failure> {
        let client = Client::builder()
            // Only loopback is measured: a proxy from the environment must not interfere.
            .no_proxy()
            .timeout(Duration::from_secs(60))
            .pool_max_idle_per_host(usize::MAX)
            .tcp_nodelay(true)
            .build()?;
        let base_url = base_url.trim_end_matches('/').to_string();
        Ok(Shop {
            client,
            api: format!("{base_url}{STORE_API}"),
            base_url,
        })
    }

    /// Waits (up to `patience`) for the server to answer its health check.
    pub async fn wait_until_up(&self, patience: Duration) -> Result<(), Failure> {
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            match self
                .client
                .get(format!("{}/healthz", self.base_url))
                .send()
                .await
            {
                Ok(r) if r.status() == StatusCode::OK => return Ok(()),
                _ if tokio::time::Instant::now() >= deadline => {
                    return Err(Failure(format!(
                        "{} did not answer /healthz",
                        self.base_url
                    )))
                }
                _ => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Simple products anyone can buy any number of, one at a time: purchasable, in
    /// stock, no stock limit below the Store API's maximum of 9,999 per line, and no
    /// minimum or step above one.
    pub async fn unlimited_products(&self) -> Result<Vec<ProductId>, Failure> {
        let mut found = Vec::new();
        for page in 1..=50 {
            let url = format!(
                "{}/products?type=simple&stock_status=instock&per_page=100&page={page}",
                self.api
            );
            let res = self.client.get(url).send().await?;
            let status = res.status();
            let body = res.bytes().await?;
            if status != StatusCode::OK {
                return Err(unexpected("GET /products", status, &body));
            }
            let products: Vec<Value> = serde_json::from_slice(&body)
                .map_err(|e| Failure(format!("GET /products: not a JSON array: {e}")))?;
            found.extend(
                products
                    .iter()
                    .filter(|p| {
                        p["type"] == "simple"
                            && p["is_purchasable"] == true
                            && p["is_in_stock"] == true
                            && p["add_to_cart"]["maximum"].as_i64().unwrap_or(0) >= UNLIMITED
                            && p["add_to_cart"]["minimum"].as_i64().unwrap_or(1) <= 1
                            && p["add_to_cart"]["multiple_of"].as_i64().unwrap_or(1) <= 1
                    })
                    .filter_map(|p| p["id"].as_i64().map(ProductId)),
            );
            if products.len() < 100 {
                break;
            }
        }
        Ok(found)
    }

    /// A new session: GET /cart answers with its token (nothing is stored until the
    /// first write).
    pub async fn new_cart(&self) -> Result<CartToken, Failure> {
        let res = self.client.get(format!("{}/cart", self.api)).send().await?;
        let status = res.status();
        let token = res.headers().get("cart-token").cloned();
        let body = res.bytes().await?;
        match token {
            Some(t) if status == StatusCode::OK => Ok(CartToken(t)),
            Some(_) => Err(unexpected("GET /cart", status, &body)),
            None => Err(Failure("GET /cart sent no Cart-Token header".into())),
        }
    }

    pub async fn add_item(&self, cart: &CartToken, product: ProductId) -> Result<(), Failure> {
        let body = json!({ "id": product.0, "quantity": 1 });
        let (status, body) = self.post(cart, "/cart/add-item", &body).await?;
        match status {
            StatusCode::CREATED | StatusCode::OK => Ok(()),
            _ => Err(unexpected("POST /cart/add-item", status, &body)),
        }
    }

    pub async fn update_customer(&self, cart: &CartToken, billing: &Value) -> Result<(), Failure> {
        let body = json!({ "billing_address": billing });
        let (status, body) = self.post(cart, "/cart/update-customer", &body).await?;
        match status {
            StatusCode::OK => Ok(()),
            _ => Err(unexpected("POST /cart/update-customer", status, &body)),
        }
    }

    /// Places the cart as an order paid cash on delivery; it must come back
    /// "processing", the status such an order starts in.
    pub async fn checkout(
        &self,
        cart: &CartToken,
        billing: &Value,
        shipping: &Value,
    ) -> Result<(), Failure> {
        let body = json!({
            "billing_address": billing,
            "shipping_address": shipping,
            "payment_method": "cod",
        });
        let (status, body) = self.post(cart, "/checkout", &body).await?;
        if status != StatusCode::OK {
            return Err(unexpected("POST /checkout", status, &body));
        }
        let answer: Value = serde_json::from_slice(&body)
            .map_err(|e| Failure(format!("POST /checkout: not JSON: {e}")))?;
        match answer["status"].as_str() {
            Some("processing") if answer["order_id"].as_i64().is_some_and(|id| id > 0) => Ok(()),
            _ => Err(unexpected(
                "POST /checkout (status is not processing)",
                status,
                &body,
            )),
        }
    }

    async fn post(
        &self,
        cart: &CartToken,
        path: &str,
        body: &Value,
    ) -> Result<(StatusCode, bytes::Bytes), Failure> {
        let res = self
            .client
            .post(format!("{}{path}", self.api))
            .header("Cart-Token", cart.0.clone())
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .body(serde_json::to_vec(body).expect("a JSON value serialises"))
            .send()
            .await?;
        let status = res.status();
        Ok((status, res.bytes().await?))
    }
}

fn unexpected(what: &str, status: StatusCode, body: &[u8]) -> Failure {
    let text = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
    Failure(format!("{what} answered {status}: {text}"))
}
