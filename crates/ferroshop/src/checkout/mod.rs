//! Checkout: the shop rules that price an order (taxes, shipping, coupons, the address
//! rules of every country) as plain functions over plain types, and the services and
//! calls that take a cart through checkout to a placed order.

pub mod accounts;
pub mod address;
pub mod ajax;
pub mod api;
pub mod coupons;
pub mod fields;
pub mod locale;
pub mod pay;
pub mod place;
pub mod review_html;
pub mod rules;
pub mod service;
pub mod settings;
pub mod shipping;
pub mod tax;
pub mod totals;
