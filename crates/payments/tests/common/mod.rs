//! What the payments tests share: the emulator, a scripted test double of the
//! provider, a webhook endpoint, and the loopback HTTP those two speak.

#![allow(dead_code)]

pub mod emulator;
pub mod raw_http;
pub mod scripted_provider;
pub mod webhook_listener;

use std::time::Duration;

use ferroshop_payments::{Client, ClientConfig, IdempotencyKey, SecretKey};

/// A client of `base_url` with the given timeout and retries.
pub fn client_for(base_url: &str, timeout: Duration, max_network_retries: u32) -> Client {
    let mut config = ClientConfig::new(SecretKey::parse("sk_test_scripted_key_123").unwrap());
    config.base_url = base_url.to_owned();
    config.timeout = timeout;
    config.max_network_retries = max_network_retries;
    Client::new(config).unwrap()
}

/// A fresh key for each call of a test (the emulator ignores keys; the double records
/// them).
pub fn key(action: &str) -> IdempotencyKey {
    static NEXT: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(1);
    let attempt = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    IdempotencyKey::for_order(i64::from(std::process::id()), attempt, action)
}
