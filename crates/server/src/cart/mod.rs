//! The cart: what a session holds, the rules for changing it, and its two surfaces
//! (the Store API and the classic `wc-ajax` calls with fragments).

pub mod ajax;
pub mod api;
pub mod forms;
pub mod fragments;
pub mod pricing;
pub mod service;
pub mod view;
