//! A test double of the provider's API on loopback, for what the emulator cannot
//! show (it ignores idempotency keys and the API version, and never fails on its
//! own): it records every request as sent and answers each with the next scripted
//! reply. Replies are written after the provider's published API shapes (its error
//! object, `Request-Id`, `Stripe-Should-Retry`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;

use super::raw_http::{read_request, write_response, RawRequest};

#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// How long to wait before answering.
    pub delay: Duration,
}

impl Reply {
    pub fn json(status: u16, body: serde_json::Value) -> Reply {
        Reply {
            status,
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Request-Id".into(), format!("req_scripted_{status}")),
            ],
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    /// The provider's error object.
    pub fn error(status: u16, error: serde_json::Value) -> Reply {
        Reply::json(status, serde_json::json!({ "error": error }))
    }

    pub fn text(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![("Content-Type".into(), "text/html".into())],
            body: body.to_owned(),
            delay: Duration::ZERO,
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// A payment intent as the provider returns it (API version 2024-06-20).
pub fn payment_intent_json(id: &str, status: &str) -> serde_json::Value {
    serde_json::json!({
        "id": id, "object": "payment_intent", "amount": 1200, "amount_capturable": 0,
        "amount_received": 1200, "currency": "eur", "status": status,
        "client_secret": format!("{id}_secret_abc"), "capture_method": "automatic_async",
        "customer": null, "payment_method": "pm_1", "latest_charge": "ch_1",
        "last_payment_error": null, "next_action": null, "metadata": {},
        "created": 1719000000, "livemode": false, "payment_method_types": ["card"],
        "confirmation_method": "automatic"
    })
}

pub struct ScriptedProvider {
    pub base_url: String,
    script: Arc<Mutex<VecDeque<Reply>>>,
    recorded: Arc<Mutex<Vec<RawRequest>>>,
}

impl ScriptedProvider {
    /// Answers with `replies` in order, then with a 500 that says the script ran out.
    pub async fn start(replies: Vec<Reply>) -> ScriptedProvider {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let script = Arc::new(Mutex::new(VecDeque::from(replies)));
        let recorded = Arc::new(Mutex::new(Vec::new()));
        let (script_for_server, recorded_for_server) = (script.clone(), recorded.clone());
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let script = script_for_server.clone();
                let recorded = recorded_for_server.clone();
                tokio::spawn(async move {
                    let Some(request) = read_request(&mut stream).await else {
                        return;
                    };
                    recorded.lock().unwrap().push(request);
                    let reply = script.lock().unwrap().pop_front().unwrap_or_else(|| {
                        Reply::text(500, "the scripted provider has no more replies")
                    });
                    write_response(
                        &mut stream,
                        reply.status,
                        &reply.headers,
                        &reply.body,
                        reply.delay,
                    )
                    .await;
                });
            }
        });
        ScriptedProvider {
            base_url,
            script,
            recorded,
        }
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<RawRequest> {
        self.recorded.lock().unwrap().clone()
    }

    pub fn replies_left(&self) -> usize {
        self.script.lock().unwrap().len()
    }
}
