//! Ferroshop: an online shop server speaking the Store API and the classic shop calls,
//! serving its React storefront from the same port.

pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod coming_soon;
pub mod config;
pub mod contact;
pub mod cookies;
pub mod customers;
pub mod error;
pub mod http;
pub mod listener;
pub mod markup;
pub mod newsletter;
pub mod orders;
pub mod payments;
pub mod rate_limit;
pub mod reviews;
pub mod router;
pub mod seo;
pub mod server;
pub mod session;
pub mod shell;
pub mod shop_url;
pub mod ssr;
pub mod staff;
pub mod state;
pub mod web;
pub mod wishlist;
