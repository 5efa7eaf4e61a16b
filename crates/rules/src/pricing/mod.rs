//! Pricing a cart: taxes, shipping zones and methods, coupons, and the totals that
//! put them together. Cart and checkout both price through here.

pub mod coupons;
pub mod rules;
pub mod shipping;
pub mod tax;
pub mod totals;
