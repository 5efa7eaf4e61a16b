//! The checkout steps before placing the order, shared by the Store API and the classic
//! calls: remembering the shopper's addresses and shipping choice, applying and removing
//! coupons, and the draft order a checkout works on.

use super::place;
use crate::cart::pricing;
use crate::cart::service::{self, ChangeError};
use crate::session::Session;
use crate::state::AppState;
use rules::address::Address;
use rules::cart::model::{CartError, StoredCart};
use rules::orders::model::{new_order_key, Order, OrderId, OrderLines, OrderStatus};
use rules::pricing::coupons::CouponCode;
use store::StoreError;

/// Stores the addresses given (either may be left out).
pub async fn update_customer(
    state: &AppState,
    session: &Session,
    now: i64,
    billing: Option<Address>,
    shipping: Option<Address>,
) -> Result<StoredCart, ChangeError> {
    let (cart, ()) = service::change(state, session, now, |cart| {
        if let Some(b) = &billing {
            cart.customer.billing = b.clone();
        }
        if let Some(s) = &shipping {
            cart.customer.shipping = s.clone();
        }
        Ok(())
    })
    .await?;
    Ok(cart)
}

/// Why a shipping choice was refused.
#[derive(Debug)]
pub enum RateError {
    UnknownPackage,
    UnknownRate,
    Store(ChangeError),
}

/// Chooses `rate_id` for package `package_id`; it must be one of the rates offered now.
pub async fn select_shipping_rate(
    state: &AppState,
    session: &Session,
    now: i64,
    package_id: usize,
    rate_id: &str,
) -> Result<StoredCart, RateError> {
    let catalog = state.catalog.get();
    let current = service::load(state, session, now)
        .await
        .map_err(|e| RateError::Store(ChangeError::Store(e)))?;
    let located = pricing::with_default_location(state, &catalog, &current);
    let pricing = pricing::price_cart(state, &catalog, &located, now)
        .await
        .map_err(|e| RateError::Store(ChangeError::Store(e)))?;
    let package = pricing
        .packages
        .get(package_id)
        .ok_or(RateError::UnknownPackage)?;
    if !package.rates.iter().any(|r| r.rate.rate_id == rate_id) {
        return Err(RateError::UnknownRate);
    }
    let (cart, ()) = service::change(state, session, now, |cart| {
        let chosen = &mut cart.customer.chosen_shipping;
        if chosen.len() <= package_id {
            chosen.resize(package_id + 1, String::new());
        }
        chosen[package_id] = rate_id.to_string();
        Ok(())
    })
    .await
    .map_err(RateError::Store)?;
    Ok(cart)
}

/// Why a coupon could not be applied or removed; `message` is the shop's wording.
#[derive(Debug)]
pub enum CouponChangeError {
    Refused(String),
    NotApplied(String),
    Store(StoreError),
}

impl From<StoreError> for CouponChangeError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

/// Applies a coupon code after checking every rule (an individual-use coupon replaces
/// the others). Returns the cart and the code as the shop spells it.
pub async fn apply_coupon(
    state: &AppState,
    session: &Session,
    customer_id: Option<i64>,
    now: i64,
    raw: &str,
    billing_email: Option<&str>,
) -> Result<(StoredCart, CouponCode), CouponChangeError> {
    let catalog = state.catalog.get();
    let mut cart = service::load(state, session, now).await?;
    if let Some(email) = billing_email.filter(|e| !e.trim().is_empty()) {
        cart.customer.billing.email = email.trim().to_string();
    }
    let coupon = match place::check_coupon(state, &catalog, &cart, raw, customer_id, now).await? {
        Ok(c) => c,
        Err(message) => return Err(CouponChangeError::Refused(message)),
    };
    let code = coupon.code.clone();
    let result = service::change(state, session, now, |cart| {
        let applied: Vec<CouponCode> = cart
            .coupons
            .iter()
            .filter_map(|c| CouponCode::parse(c).ok())
            .collect();
        let codes = rules::pricing::coupons::codes_after_applying(&coupon, &applied);
        cart.coupons = codes.iter().map(|c| c.as_str().to_string()).collect();
        // The e-mail the coupon was checked against is the customer's from now on.
        if let Some(email) = billing_email.map(str::trim).filter(|e| !e.is_empty()) {
            cart.customer.billing.email = email.to_string();
        }
        Ok(())
    })
    .await;
    match result {
        Ok((cart, ())) => Ok((cart, code)),
        Err(ChangeError::Store(e)) => Err(e.into()),
        Err(ChangeError::Cart(_)) => Err(CouponChangeError::Refused(
            "Sorry, this coupon is not applicable to your cart contents.".into(),
        )),
    }
}

pub async fn remove_coupon(
    state: &AppState,
    session: &Session,
    now: i64,
    raw: &str,
) -> Result<StoredCart, CouponChangeError> {
    let code = CouponCode::parse(raw).map_err(|_| {
        CouponChangeError::NotApplied("Please provide a coupon code to remove.".into())
    })?;
    let result = service::change(state, session, now, |cart| {
        let before = cart.coupons.len();
        cart.coupons
            .retain(|c| CouponCode::parse(c).map_or(true, |c| c != code));
        if cart.coupons.len() == before {
            return Err(CartError::InvalidKey);
        }
        Ok(())
    })
    .await;
    match result {
        Ok((cart, ())) => Ok(cart),
        Err(ChangeError::Cart(_)) => Err(CouponChangeError::NotApplied(
            "Coupon cannot be removed because it is not already applied to the cart.".into(),
        )),
        Err(ChangeError::Store(e)) => Err(e.into()),
    }
}

/// The draft order this session's checkout works on, made on first sight of the
/// checkout. Its id is what the placed order will carry.
pub async fn draft_order(
    state: &AppState,
    session: &Session,
    now: i64,
) -> Result<Option<Order>, ChangeError> {
    let cart = service::load(state, session, now).await?;
    if cart.items.is_empty() {
        return Ok(None);
    }
    if let Some(id) = cart.customer.draft_order_id {
        if let Some(order) = store::orders::find_order(&state.db, OrderId(id)).await? {
            if order.status == OrderStatus::CheckoutDraft {
                return Ok(Some(with_customer(order, &cart)));
            }
        }
    }
    let blank = Order {
        id: OrderId(0),
        key: new_order_key(),
        status: OrderStatus::CheckoutDraft,
        customer_id: (session.user_id > 0).then_some(session.user_id),
        currency: state.config.currency.code.clone(),
        prices_include_tax: false,
        billing: cart.customer.billing.clone(),
        shipping: cart.customer.shipping.clone(),
        customer_note: String::new(),
        payment_method: String::new(),
        payment_method_title: String::new(),
        transaction_id: String::new(),
        created_via: "store-api".into(),
        cart_hash: String::new(),
        lines: OrderLines::default(),
        subtotal: 0,
        discount_total: 0,
        discount_tax: 0,
        shipping_total: 0,
        shipping_tax: 0,
        total_tax: 0,
        total: 0,
        stock_reduced: false,
        hold_expires_at: None,
        created_at: now,
        updated_at: now,
        paid_at: None,
        completed_at: None,
    };
    let draft = store::orders::create_draft(&state.db, &blank, session.id.as_str()).await?;
    let id = draft.id.0;
    let (cart, ()) = service::change(state, session, now, |cart| {
        cart.customer.draft_order_id = Some(id);
        Ok(())
    })
    .await?;
    Ok(Some(with_customer(draft, &cart)))
}

/// A draft shows the addresses the session holds now.
fn with_customer(mut order: Order, cart: &StoredCart) -> Order {
    order.billing = cart.customer.billing.clone();
    order.shipping = cart.customer.shipping.clone();
    order
}
