//! The shop owner's side: API keys, the staff API in the shape of the original shop's
//! REST API v3, and the order and key commands of the command line. Orders change
//! through `orders::service` whichever way staff ask.

pub mod api;
pub mod auth;
pub mod cli;
pub mod refunds;
pub mod view;
