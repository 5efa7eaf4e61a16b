//! The provider double driven as the shop drives the provider: with the shop's own
//! client (`payments::Client`), with raw form calls where that client has no field
//! for a parameter (mandates, payment method options), with a browser's publishable
//! key, and with webhooks checked by the shop's own `payments::webhook::verify`.

mod common;

mod bank_debits;
mod forwarding;
mod keys_and_replays;
mod program;
mod qr_and_blik;
mod redirects;
mod setup_intents;
mod vouchers;
