//! A cart's prices, for the cart calls and checkout alike: the rules are
//! `rules::pricing`; this finds what they need (the coupons, a location to estimate
//! from) for a session's cart.

use rules::cart::model::StoredCart;
use rules::catalog::index::Catalog;
use rules::pricing::totals::{self, Pricing, PricingInput};
use store::StoreError;

use crate::state::AppState;

/// The cart with the shop's default location filled in where the shopper gave no
/// country yet, so totals and shipping can be estimated from the first visit.
pub fn with_default_location(state: &AppState, catalog: &Catalog, cart: &StoredCart) -> StoredCart {
    let mut located = cart.clone();
    if !located.customer.billing.country.trim().is_empty() {
        // Shipping without its own country goes to the billing address.
        return located;
    }
    let country = &state.config.checkout.default_country;
    let base = &catalog.rules.taxes.base;
    let shipping_given = !located.customer.shipping.country.trim().is_empty();
    for address in [
        &mut located.customer.billing,
        &mut located.customer.shipping,
    ] {
        if address.country.trim().is_empty() && !shipping_given {
            address.country = country.clone();
            if address.state.trim().is_empty() && base.country == *country {
                address.state = base.state.clone();
            }
        }
    }
    located
}

/// Prices the session's cart for `customer` and returns it with its coupons.
pub async fn price_cart(
    state: &AppState,
    catalog: &Catalog,
    cart: &StoredCart,
    now: i64,
) -> Result<Pricing, StoreError> {
    let coupons = store::coupons::find_coupons(&state.db, &cart.coupons).await?;
    Ok(totals::price(&PricingInput {
        catalog,
        rules: &catalog.rules,
        cart,
        coupons: &coupons,
        now,
    }))
}
