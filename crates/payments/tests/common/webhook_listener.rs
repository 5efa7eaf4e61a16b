//! A webhook endpoint on loopback: answers 200 to every delivery and hands each one to
//! the test.

use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::mpsc;

use super::raw_http::{read_request, write_response, RawRequest};

pub struct WebhookListener {
    pub url: String,
    deliveries: mpsc::UnboundedReceiver<RawRequest>,
}

impl WebhookListener {
    pub async fn start() -> WebhookListener {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!(
            "http://{}/webhooks/payments",
            listener.local_addr().unwrap()
        );
        let (sender, deliveries) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let sender = sender.clone();
                tokio::spawn(async move {
                    if let Some(request) = read_request(&mut stream).await {
                        write_response(&mut stream, 200, &[], "", Duration::ZERO).await;
                        let _ = sender.send(request);
                    }
                });
            }
        });
        WebhookListener { url, deliveries }
    }

    /// The first delivery `wanted` accepts, waiting up to `limit` for it.
    pub async fn wait_for(
        &mut self,
        limit: Duration,
        wanted: impl Fn(&RawRequest) -> bool,
    ) -> Option<RawRequest> {
        tokio::time::timeout(limit, async {
            while let Some(delivery) = self.deliveries.recv().await {
                if wanted(&delivery) {
                    return Some(delivery);
                }
            }
            None
        })
        .await
        .ok()
        .flatten()
    }
}
