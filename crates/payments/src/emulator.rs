//! For tests: the provider's emulator (localstripe, through
//! `scripts/payment-emulator.py`) on a free loopback port, with the few calls a test
//! makes as the shopper's browser would (card methods, 3-D Secure). Built only with
//! the `emulator` feature, which only tests turn on. One instance is shared by the whole test run (its state is
//! never reset under a running test: every test makes its own objects); a test that
//! needs an empty emulator starts its own. An instance is killed when dropped; the
//! shared one, never dropped, stops when the test process ends and closes its stdin.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use crate::{Client, ClientConfig, PaymentIntent, PaymentMethodId, PublishableKey, SecretKey};

/// The emulator takes any key of the right shape.
pub const SECRET_KEY: &str = "sk_test_ferroshop_emulator";
pub const PUBLISHABLE_KEY: &str = "pk_test_ferroshop_emulator";

pub struct Emulator {
    pub base_url: String,
    child: Child,
    log: PathBuf,
}

impl Emulator {
    /// The instance shared by every test of this run.
    pub fn shared() -> &'static Emulator {
        static SHARED: OnceLock<Emulator> = OnceLock::new();
        SHARED.get_or_init(Emulator::start)
    }

    /// An instance of one's own, killed when dropped.
    pub fn start() -> Emulator {
        static STARTED: AtomicU32 = AtomicU32::new(0);
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let python = root.join(".venv/bin/python");
        let hint = "run ./scripts/ensure-python-tools to install the payment emulator (localstripe) into .venv";
        assert!(python.exists(), "{} is missing: {hint}", python.display());
        let log = std::env::temp_dir().join(format!(
            "ferroshop-payment-emulator-{}-{}.log",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        let mut child = Command::new(&python)
            .arg(root.join("scripts/payment-emulator.py"))
            .args(["--port", "0", "--exit-with-stdin"])
            .current_dir(&root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("the emulator's log file"))
            .spawn()
            .expect("the payment emulator starts");
        let mut line = String::new();
        let _ = BufReader::new(child.stdout.take().unwrap()).read_line(&mut line);
        let Some(base_url) = line.trim().strip_prefix("listening on ") else {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the payment emulator did not start ({hint}); its output:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        };
        Emulator {
            base_url: base_url.to_owned(),
            child,
            log,
        }
    }

    /// A client of this emulator, with short timeouts.
    pub fn client(&self) -> Client {
        let mut config = ClientConfig::new(SecretKey::parse(SECRET_KEY).unwrap());
        config.base_url = self.base_url.clone();
        config.timeout = Duration::from_secs(10);
        Client::new(config).unwrap()
    }

    pub fn publishable_key(&self) -> PublishableKey {
        PublishableKey::parse(PUBLISHABLE_KEY).unwrap()
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// `DELETE /_config/data`: every object gone (webhook registrations stay).
    pub async fn reset(&self) {
        let response = reqwest::Client::new()
            .delete(self.url("/_config/data"))
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "reset: {}",
            response.status()
        );
    }

    /// `POST /_config/webhooks/{name}`: deliveries of every event to `url`, signed
    /// with `secret`.
    pub async fn register_webhook(&self, name: &str, url: &str, secret: &str) {
        let response = reqwest::Client::new()
            .post(self.url(&format!("/_config/webhooks/{name}")))
            .form(&[("url", url), ("secret", secret)])
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "webhook registration: {}",
            response.status()
        );
    }

    /// A card payment method from a test card number, as the browser would create it
    /// (the shop itself never sends card numbers, so the client has no such call).
    pub async fn create_card(&self, number: &str) -> PaymentMethodId {
        let response = reqwest::Client::new()
            .post(self.url("/v1/payment_methods"))
            .bearer_auth(SECRET_KEY)
            .form(&[
                ("type", "card"),
                ("card[number]", number),
                ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"),
                ("card[cvc]", "123"),
            ])
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "card creation: {}",
            response.status()
        );
        let method: serde_json::Value = response.json().await.unwrap();
        PaymentMethodId::new(method["id"].as_str().unwrap())
    }

    /// The shopper passing (or failing) 3-D Secure, through the emulator's own route,
    /// authenticated as the browser is: publishable key and client secret.
    pub async fn authenticate(&self, intent: &PaymentIntent, success: bool) {
        let client_secret = intent.client_secret.as_ref().expect("a client secret");
        let response = reqwest::Client::new()
            .post(self.url(&format!(
                "/v1/payment_intents/{}/_authenticate?success={success}",
                intent.id
            )))
            .form(&[
                ("key", self.publishable_key().as_str()),
                ("client_secret", client_secret.expose()),
            ])
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "3-D Secure: {}",
            response.status()
        );
    }

    /// What the emulator wrote to stderr so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}
