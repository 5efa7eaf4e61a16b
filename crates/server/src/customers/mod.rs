//! Customer accounts: registering, signing in and out (a signed login cookie backed
//! by a revocable login token), lost passwords, and the account area's details and
//! addresses. The calls live in `api`; the functions below are what checkout uses.

pub mod address;
pub mod api;
pub mod details;
pub mod error;
pub mod login;
pub mod password;
pub mod password_reset;
pub mod registration;
pub mod wp_users;

use axum::http::HeaderMap;

pub use address::{check_address, AddressKind};
pub use error::AccountError;
pub use login::{log_in_with, signed_in, SignedIn};
pub use registration::create_customer;
pub use rules::customers::{Customer, CustomerId, Email, Names, NewPassword};

use crate::http::store_api::StoreCtx;
use crate::state::AppState;
use rules::address::Address;
use store::{customers, Db};

/// A customer by id.
pub async fn find_customer(db: &Db, id: CustomerId) -> Result<Option<Customer>, AccountError> {
    let row = customers::find_customer(db, id).await?;
    Ok(row.map(|r| Customer {
        id: r.id,
        email: r.email,
        display_name: r.display_name,
        first_name: r.first_name,
        last_name: r.last_name,
        billing: address::parse_stored(&r.billing),
        shipping: address::parse_stored(&r.shipping),
        created_at: r.created_at,
    }))
}

/// Saves the customer's addresses (for the next checkout); None leaves one unchanged.
/// The caller checks them first (`check_address`, or checkout's own rules).
pub async fn save_addresses(
    db: &Db,
    id: CustomerId,
    billing: Option<&Address>,
    shipping: Option<&Address>,
) -> Result<(), AccountError> {
    let billing = billing.map(|a| address::to_stored(AddressKind::Billing, a));
    let shipping = shipping.map(|a| address::to_stored(AddressKind::Shipping, a));
    customers::save_addresses(
        db,
        id,
        billing.as_deref(),
        shipping.as_deref(),
        rules::clock::now(),
    )
    .await?;
    Ok(())
}

/// Signs the customer in on this request (a login that ends with the browser
/// session); the answer must carry the returned headers (Set-Cookie). After this,
/// `ctx` speaks for the customer, so `ctx.finish` hands out their nonce.
pub async fn log_in(
    state: &AppState,
    ctx: &mut StoreCtx,
    id: CustomerId,
) -> Result<HeaderMap, AccountError> {
    log_in_with(state, ctx, id, false).await
}

/// The signed-in customer of a request (its login checked against revocation).
pub async fn current_customer(
    state: &AppState,
    ctx: &StoreCtx,
) -> Result<Option<Customer>, AccountError> {
    Ok(signed_in(state, ctx).await?.map(|s| s.customer))
}
