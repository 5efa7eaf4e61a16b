//! The cart: what a session holds and the rules for changing it, and how two carts
//! join when a customer signs in.

pub mod merge;
pub mod model;
