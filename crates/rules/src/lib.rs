//! The shop's rules as plain types and functions, with no I/O: money, the catalogue and
//! its snapshot, carts, pricing (taxes, shipping, coupons, totals), addresses by country,
//! orders and their lifecycle, payment methods, accounts, product reviews. Everything
//! here is tested with plain values; storage, mail and HTTP sit on the floors above.

pub mod address;
pub mod cart;
pub mod catalog;
pub mod clock;
pub mod contact;
pub mod customers;
pub mod html;
pub mod money;
pub mod newsletter;
pub mod orders;
pub mod payments;
pub mod pricing;
pub mod reviews;
pub mod settings;
pub mod staff;
pub mod stock;
pub mod wishlist;
