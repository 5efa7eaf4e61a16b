//! Checkout: the shop rules that price an order (taxes, shipping, coupons). Plain
//! functions over plain types; no HTTP or SQL here.

pub mod coupons;
pub mod shipping;
pub mod tax;
