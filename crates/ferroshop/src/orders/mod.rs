//! Orders: what was bought, for how much, by whom, and where the order stands.

pub mod api;
pub mod model;
pub mod view;
