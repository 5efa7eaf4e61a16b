//! The HTTP client: configuration, the headers every request carries, retries, and
//! reading the provider's answers. The calls themselves live with what they act on
//! (`payment_intents`, `customers`, …).

use std::time::Duration;

use percent_encoding::utf8_percent_encode;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;

use crate::error::{Error, ProviderError};
use crate::form::{Form, ENCODED};
use crate::idempotency::IdempotencyKey;
use crate::keys::SecretKey;
use crate::retry;
use crate::List;

/// The API version every request asks for (`Stripe-Version`), so that the shapes this
/// crate reads do not change when the account's default version does.
pub const API_VERSION: &str = "2024-06-20";
pub const DEFAULT_BASE_URL: &str = "https://api.stripe.com";
/// For connecting and for the whole of one attempt.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);
/// Retries after the first attempt.
pub const DEFAULT_MAX_NETWORK_RETRIES: u32 = 2;

const USER_AGENT: &str = concat!("Ferroshop/", env!("CARGO_PKG_VERSION"));

/// How to reach the provider.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// `https://api.stripe.com`, or the emulator's address in tests.
    pub base_url: String,
    pub secret_key: SecretKey,
    /// The limit for connecting, and for one attempt from sending to the last byte of
    /// the answer.
    pub timeout: Duration,
    /// How many times a call that may pass is tried again (see `retry`).
    pub max_network_retries: u32,
}

impl ClientConfig {
    /// The provider's real API with the default timeout and retries.
    pub fn new(secret_key: SecretKey) -> ClientConfig {
        ClientConfig {
            base_url: DEFAULT_BASE_URL.to_owned(),
            secret_key,
            timeout: DEFAULT_TIMEOUT,
            max_network_retries: DEFAULT_MAX_NETWORK_RETRIES,
        }
    }
}

/// The provider's API for one account. Cheap to clone: clones share one connection
/// pool.
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    /// Without a trailing slash; paths start with one.
    base_url: String,
    max_network_retries: u32,
}

impl Client {
    pub fn new(config: ClientConfig) -> Result<Client, Error> {
        let url = reqwest::Url::parse(&config.base_url)
            .map_err(|error| Error::Config(format!("base URL {:?}: {error}", config.base_url)))?;
        if !matches!(url.scheme(), "http" | "https")
            || url.query().is_some()
            || url.fragment().is_some()
        {
            return Err(Error::Config(format!(
                "base URL {:?}: an http(s) URL without query or fragment is needed",
                config.base_url
            )));
        }

        let mut headers = HeaderMap::new();
        let mut authorization =
            HeaderValue::from_str(&format!("Bearer {}", config.secret_key.expose()))
                .map_err(|_| Error::Config("the secret key is not a valid header value".into()))?;
        authorization.set_sensitive(true);
        headers.insert(AUTHORIZATION, authorization);
        headers.insert("Stripe-Version", HeaderValue::from_static(API_VERSION));

        let http = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .default_headers(headers)
            .connect_timeout(config.timeout)
            .timeout(config.timeout)
            // The API never redirects; following one would resend the key elsewhere.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| Error::Config(format!("HTTP client: {error}")))?;

        Ok(Client {
            http,
            base_url: config.base_url.trim_end_matches('/').to_owned(),
            max_network_retries: config.max_network_retries,
        })
    }

    /// Checks that the secret key is accepted, for a settings page or start-up:
    /// `GET /v1/customers?limit=1`. A list of customers rather than `/v1/balance` or
    /// `/v1/account` because it needs only a permission the shop uses anyway (so it
    /// also passes with a restricted key scoped to the shop's needs, which balance and
    /// account reads do not), it changes nothing, and the emulator answers it as the
    /// provider does (it has no `/v1/account`, and its `/v1/balance` creates an event
    /// and sends a webhook). A refused key comes back as `Error::Provider` with status
    /// 401 (or 403 for a restricted key without that permission).
    pub async fn check_account(&self) -> Result<(), Error> {
        let mut query = Form::new();
        query.push(&["limit"], 1);
        let _: List<serde::de::IgnoredAny> = self.get("/v1/customers", &query).await?;
        Ok(())
    }

    /// A read; retried like any call, and with no idempotency key (reads have no
    /// effect to repeat).
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &Form,
    ) -> Result<T, Error> {
        self.call(Method::GET, path, query, None).await
    }

    /// A change, with the key that makes its retries safe.
    pub(crate) async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &Form,
        idempotency_key: &IdempotencyKey,
    ) -> Result<T, Error> {
        self.call(Method::POST, path, form, Some(idempotency_key))
            .await
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        form: &Form,
        idempotency_key: Option<&IdempotencyKey>,
    ) -> Result<T, Error> {
        let encoded = form.encode();
        let attempts = self.max_network_retries.saturating_add(1);
        let mut attempt = 1;
        loop {
            let outcome = self.attempt(&method, path, &encoded, idempotency_key).await;
            let retry_because = match &outcome {
                Err(error) => Some(error.to_string()),
                Ok(answer)
                    if retry::should_retry_answer(
                        answer.status.as_u16(),
                        answer.should_retry.as_deref(),
                    ) && !answer.status.is_success() =>
                {
                    Some(format!("HTTP {}", answer.status.as_u16()))
                }
                Ok(_) => None,
            };
            match retry_because {
                Some(reason) if attempt < attempts => {
                    let wait = retry::backoff(attempt, rand::random());
                    tracing::warn!(
                        %method, path, attempt, %reason, wait_ms = wait.as_millis() as u64,
                        "payment provider call failed; retrying with the same idempotency key"
                    );
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                _ => {
                    return match outcome {
                        Ok(answer) => answer.read(&method, path),
                        Err(error) => Err(Error::Network {
                            attempts: attempt,
                            timed_out: error.is_timeout(),
                            source: Box::new(error),
                        }),
                    };
                }
            }
        }
    }

    /// One request and its whole answer; `Err` when there was no whole answer.
    async fn attempt(
        &self,
        method: &Method,
        path: &str,
        encoded: &str,
        idempotency_key: Option<&IdempotencyKey>,
    ) -> Result<Answer, reqwest::Error> {
        let mut url = format!("{}{}", self.base_url, path);
        let mut request = if *method == Method::GET {
            if !encoded.is_empty() {
                url.push('?');
                url.push_str(encoded);
            }
            self.http.get(url)
        } else {
            self.http
                .request(method.clone(), url)
                .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(encoded.to_owned())
        };
        if let Some(key) = idempotency_key {
            request = request.header("Idempotency-Key", key.as_str());
        }
        let response = request.send().await?;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let status = response.status();
        let request_id = header("request-id");
        let should_retry = header("stripe-should-retry");
        let body = response.bytes().await?;
        Ok(Answer {
            status,
            request_id,
            should_retry,
            body,
        })
    }
}

/// A whole answer from the provider.
struct Answer {
    status: StatusCode,
    request_id: Option<String>,
    should_retry: Option<String>,
    body: bytes::Bytes,
}

impl Answer {
    fn read<T: DeserializeOwned>(self, method: &Method, path: &str) -> Result<T, Error> {
        let status = self.status.as_u16();
        tracing::debug!(%method, path, status, request_id = self.request_id.as_deref(), "payment provider answered");
        if self.status.is_success() {
            return serde_json::from_slice(&self.body).map_err(|error| Error::UnreadableResponse {
                status,
                reason: error.to_string(),
                request_id: self.request_id,
            });
        }
        match ProviderError::from_body(status, self.request_id.clone(), &self.body) {
            Some(error) => Err(Error::Provider(Box::new(error))),
            None => Err(Error::UnreadableResponse {
                status,
                reason: format!("not the provider's error object: {}", snippet(&self.body)),
                request_id: self.request_id,
            }),
        }
    }
}

/// The start of a body, for an error message.
fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut snippet: String = text.chars().take(200).collect();
    if text.chars().count() > 200 {
        snippet.push('…');
    }
    snippet
}

/// An id as one path segment (`/v1/customers/{id}`), percent-encoded so that no id
/// can reach another path.
pub(crate) fn segment(id: &str) -> String {
    utf8_percent_encode(id, ENCODED).collect()
}
