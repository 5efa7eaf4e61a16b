//! Orders: what was bought, for how much, by whom, and where the order stands; the
//! lifecycle rules for changing that, and the service that applies them.

pub mod api;
pub mod expiry;
pub mod service;
pub mod view;
