//! The client against the provider's emulator (real HTTP on loopback), and against a
//! scripted test double for what the emulator cannot show. One test binary, so the
//! emulator starts once per run.

#[path = "../common/mod.rs"]
mod common;

mod customers;
mod events_and_webhooks;
mod payment_intents;
mod refunds;
mod setup_intents;
mod wire;
