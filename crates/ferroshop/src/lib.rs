//! Ferroshop: an online shop server speaking the Store API and the classic shop calls,
//! serving its React storefront from the same port.

pub mod accounts;
pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod clock;
pub mod config;
pub mod error;
pub mod html;
pub mod http;
pub mod mail;
pub mod money;
pub mod orders;
pub mod payments;
pub mod server;
pub mod session;
pub mod state;
pub mod store;
pub mod web;
