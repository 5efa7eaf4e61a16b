//! Placing an order. Everything that must hold together happens in one database
//! transaction: the session's cart is claimed (so a resubmitted checkout cannot place it
//! twice), stock is taken with conditional updates (so concurrent checkouts never
//! oversell), coupon uses are counted against their limits, and the order is written
//! and counted under its status. If any step fails, nothing of it remains.

use crate::customers::login::NewLogin;
use crate::customers::registration::NewAccount;
use crate::customers::{AccountError, CustomerId};
use crate::orders::service::Actor;
use crate::session::{Session, SESSION_TTL_SECS};
use crate::state::AppState;
use mail::MailContext;

use rules::address::{Address, CustomerDetails, PlacedOrder};
use rules::cart::model::StoredCart;
use rules::catalog::index::Catalog;
use rules::orders::model::{
    new_order_key, CouponLine, ItemAttribute, Order, OrderId, OrderItem, OrderLines, OrderStatus,
    OrderTaxLine, ShippingLine, TaxAmount,
};
use rules::pricing::coupons::{self, CartContext, CouponCode, CouponError};
use rules::pricing::totals::{self, Pricing};
use store::coupons::{CouponUser, UseRefused};
use store::orders::{StockShortage, Tx};
use store::{sessions, StoreError};

/// A resubmitted checkout within this many seconds of the order it placed gets that
/// order back instead of an "empty cart" error.
const RESUBMIT_WINDOW_SECS: i64 = 120;

/// What the shopper submitted, already read from the request.
#[derive(Debug, Clone, Default)]
pub struct CheckoutInput {
    pub billing: Address,
    pub shipping: Address,
    pub customer_note: String,
    pub payment_method: String,
    /// The customer the order belongs to (logged in, or the account just created).
    pub customer_id: Option<i64>,
    /// "store-api" or "checkout", recorded on the order.
    pub created_via: &'static str,
    /// The shop's address, for links in the order e-mails.
    pub base_url: String,
}

#[derive(Debug)]
pub enum PlaceError {
    EmptyCart,
    /// A line's product is gone or no longer sold.
    Unavailable {
        name: String,
    },
    OutOfStock {
        name: String,
        left: i64,
    },
    Coupon {
        code: String,
        message: String,
    },
    NoShippingMethod,
    PaymentMethod,
    /// The order is not waiting for payment.
    NotPayable {
        status: String,
    },
    /// The account the checkout was to create was refused (its address was
    /// registered meanwhile).
    Account(AccountError),
    Store(StoreError),
    /// The cart kept changing while we tried to place it.
    Busy,
}

impl From<StoreError> for PlaceError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl PlaceError {
    /// The shop's message, as the original words it at checkout.
    pub fn message(&self) -> String {
        match self {
            Self::EmptyCart => "Cannot create order from empty cart.".into(),
            Self::Unavailable { name } => format!(
                "Sorry, \"{name}\" is no longer available and was removed from your cart. Please edit your cart and try again."
            ),
            Self::OutOfStock { name, left } if *left <= 0 => format!(
                "Sorry, \"{name}\" is not in stock. Please edit your cart and try again. We apologize for any inconvenience caused."
            ),
            Self::OutOfStock { name, left } => format!(
                "Sorry, we do not have enough \"{name}\" in stock to fulfill your order ({left} available). We apologize for any inconvenience caused."
            ),
            Self::Coupon { message, .. } => message.clone(),
            Self::NoShippingMethod => "No shipping method has been selected. Please double check your address, or contact us if you need any help.".into(),
            Self::PaymentMethod => "Invalid payment method.".into(),
            Self::NotPayable { status } => format!(
                "This order\u{2019}s status is \u{201c}{status}\u{201d}\u{2014}it cannot be paid for. Please contact us if you need assistance."
            ),
            Self::Account(e) => e.to_api().message,
            Self::Store(_) | Self::Busy => "We were unable to process your order, please try again.".into(),
        }
    }

    /// The Store API error code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmptyCart => "woocommerce_rest_cart_empty",
            Self::Unavailable { .. } => "woocommerce_rest_cart_invalid_product",
            Self::OutOfStock { left, .. } if *left <= 0 => "woocommerce_rest_product_out_of_stock",
            Self::OutOfStock { .. } => "woocommerce_rest_product_partially_out_of_stock",
            Self::Coupon { .. } => "woocommerce_rest_cart_coupon_error",
            Self::NoShippingMethod => "woocommerce_rest_checkout_missing_shipping_method",
            Self::PaymentMethod => "woocommerce_rest_checkout_payment_method_invalid",
            Self::NotPayable { .. } => "woocommerce_rest_order_cannot_be_paid",
            Self::Account(_) => "registration-error-email-exists",
            Self::Store(_) | Self::Busy => "woocommerce_rest_checkout_process_error",
        }
    }
}

/// The outcome of a checkout.
pub struct Placed {
    pub order: Order,
    /// The page the shopper goes to next.
    pub redirect_path: String,
    /// True when this was a resubmission answered with the order already placed.
    pub repeated: bool,
    /// The login of the account the checkout created, for the answer's cookie.
    pub login: Option<NewLogin>,
}

fn money(state: &AppState) -> impl Fn(i64) -> String + '_ {
    move |minor| {
        state
            .config
            .currency
            .format_plain(rules::money::Money { minor })
    }
}

/// An account a checkout creates with its order: created by the order's transaction,
/// with its welcome mail and its login, so the order and the account exist together
/// or not at all.
pub struct CheckoutAccount<'a> {
    pub account: &'a NewAccount,
    pub mail: &'a MailContext,
}

/// Places the session's cart as an order paid with `input.payment_method`, creating
/// `account` with it if given. Everything happens in one transaction that holds the
/// session's cart from first read to last write, so a resubmitted or concurrent
/// checkout of the same cart waits and then finds it placed.
pub async fn place_order(
    state: &AppState,
    session: &Session,
    now: i64,
    input: &CheckoutInput,
    account: Option<CheckoutAccount<'_>>,
) -> Result<Placed, PlaceError> {
    let mut tx = state.db.begin_write().await?;
    let outcome = place_in(state, &mut tx, session, now, input, account).await;
    match outcome {
        Ok(Placing::Placed(placed)) => {
            tx.commit().await.map_err(StoreError::from)?;
            mail::wake();
            Ok(*placed)
        }
        Ok(Placing::Repeated(order)) => {
            tx.rollback().await.map_err(StoreError::from)?;
            let redirect_path = order.received_path();
            Ok(Placed {
                order: *order,
                redirect_path,
                repeated: true,
                login: None,
            })
        }
        Err(e) => {
            tx.rollback().await.map_err(StoreError::from)?;
            if let PlaceError::Store(StoreError::UnreadableCart(_)) = &e {
                if let Some(record) =
                    sessions::find_session(&state.db, session.id.as_str(), now).await?
                {
                    // Set it aside outside the rolled-back transaction.
                    let _ = crate::cart::service::read(state, &record, now).await;
                }
            }
            Err(e)
        }
    }
}

/// What the transaction found to do.
enum Placing {
    Placed(Box<Placed>),
    /// The cart was placed moments ago by the same checkout: its order.
    Repeated(Box<Order>),
}

async fn place_in(
    state: &AppState,
    tx: &mut Tx<'_>,
    session: &Session,
    now: i64,
    input: &CheckoutInput,
    account: Option<CheckoutAccount<'_>>,
) -> Result<Placing, PlaceError> {
    let Some(record) = sessions::lock_session(tx, &state.db, session.id.as_str())
        .await?
        .filter(|r| r.expires_at > now)
    else {
        return Err(PlaceError::EmptyCart);
    };
    let mut cart = StoredCart::parse(&record.cart)
        .map_err(|_| PlaceError::Store(StoreError::UnreadableCart(record.id.clone())))?;
    if cart.items.is_empty() {
        return match repeated(state, &cart.customer, now).await? {
            Some(order) => Ok(Placing::Repeated(Box::new(order))),
            None => Err(PlaceError::EmptyCart),
        };
    }
    cart.customer.billing = input.billing.clone();
    cart.customer.shipping = input.shipping.clone();
    let catalog = state.catalog.get();
    let pricing = crate::cart::pricing::price_cart(state, &catalog, &cart, now).await?;
    if let Some(problem) = pricing.coupon_problems.first() {
        return Err(PlaceError::Coupon {
            code: problem.code.clone(),
            message: problem.error.message(&money(state)),
        });
    }
    if let Some(missing) = cart
        .items
        .iter()
        .find(|line| pricing.line(&line.key).is_none())
    {
        let name = catalog
            .product(missing.id)
            .map_or_else(|| "Product".to_string(), |p| p.name.clone());
        return Err(PlaceError::Unavailable { name });
    }
    if pricing.needs_shipping
        && (pricing.packages.is_empty() || pricing.packages.iter().any(|p| p.chosen.is_none()))
    {
        return Err(PlaceError::NoShippingMethod);
    }
    let gateway = if pricing.total > 0 {
        Some(
            state
                .config
                .checkout
                .gateways
                .find(&input.payment_method)
                .ok_or(PlaceError::PaymentMethod)?
                .clone(),
        )
    } else {
        None
    };
    let draft_id = cart.customer.draft_order_id;
    let mut order = build_order(
        state,
        &catalog,
        &cart,
        &pricing,
        input,
        gateway.as_ref(),
        now,
    );
    let cart_hash = cart.hash(&state.config.currency.code);
    order.cart_hash = cart_hash.clone();
    let stored_coupons = store::coupons::find_coupons(&state.db, &cart.coupons).await?;

    // The account this checkout creates, signed in by this same transaction.
    let mut login = None;
    if let Some(new) = &account {
        let id = new
            .account
            .create_in(tx, new.mail, now)
            .await
            .map_err(PlaceError::Account)?;
        let issued = NewLogin::issue(id, now, false);
        store::customers::insert_login_in(tx, &issued.token_hash(), id, now, issued.expires)
            .await?;
        order.customer_id = Some(id.0);
        login = Some(issued);
    }

    let draft = match draft_id {
        Some(id) => store::orders::lock_order(tx, &state.db, OrderId(id))
            .await?
            .filter(|o| o.status == OrderStatus::CheckoutDraft),
        None => None,
    };
    // The draft the checkout showed becomes the order, keeping its number and key.
    if let Some(d) = &draft {
        order.id = d.id;
        order.key = d.key.clone();
        order.created_at = d.created_at;
    }
    // Take stock, in product order so concurrent checkouts lock rows alike.
    let mut wanted: Vec<(i64, i64, String)> = order
        .lines
        .items
        .iter()
        .map(|i| (i.stock_id(), i.quantity, i.name.clone()))
        .collect();
    wanted.sort_by_key(|w| w.0);
    let mut reduced = Vec::new();
    for (product_id, quantity, name) in &wanted {
        match store::orders::take_stock(tx, *product_id, *quantity).await? {
            Ok(true) => reduced.push(*product_id),
            Ok(false) => {}
            Err(StockShortage::NotEnough(left)) => {
                return Err(PlaceError::OutOfStock {
                    name: name.clone(),
                    left,
                })
            }
        }
    }
    for item in order.lines.items.iter_mut() {
        item.reduced_stock = reduced.contains(&item.stock_id());
    }
    order.stock_reduced = !reduced.is_empty();
    // Saving also counts the order under its status (the staff listing's totals), in
    // this transaction.
    let id = store::orders::save_order(tx, &order, None, draft.is_some()).await?;
    order.id = id;
    let mut codes: Vec<&CouponLine> = order.lines.coupons.iter().collect();
    codes.sort_by(|a, b| a.code.cmp(&b.code));
    let user = coupon_user(
        state,
        order.customer_id,
        &order.billing.email,
        &stored_coupons,
    )
    .await?;
    for line in codes {
        let Ok(code) = CouponCode::parse(&line.code) else {
            continue;
        };
        let per_customer = stored_coupons
            .iter()
            .find(|c| c.code == code)
            .and_then(|c| c.usage_limit_per_user);
        if let Err(refused) =
            store::coupons::use_coupon(tx, &code, &user, per_customer, id.0).await?
        {
            let error = match refused {
                UseRefused::Unknown => CouponError::NotFound {
                    code: code.as_str().to_string(),
                },
                UseRefused::LimitReached => CouponError::UsageLimitReached,
                UseRefused::CustomerLimitReached => CouponError::UserUsageLimitReached,
            };
            return Err(PlaceError::Coupon {
                code: code.as_str().to_string(),
                message: error.message(&money(state)),
            });
        }
    }
    // An order paid at the provider stays pending; its payment writes its own notes.
    if let Some(g) = gateway.as_ref().filter(|g| g.provider_method().is_none()) {
        let (_, note) = g.placed_status();
        store::orders::add_note(
            tx,
            id,
            &format!(
                "{note} Order status changed from Pending payment to {}.",
                order.status.label()
            ),
            false,
            Actor::system().as_str(),
            now,
        )
        .await?;
    }
    let mail_settings = state.config.order_mails(&input.base_url);
    mail::order::queue_order_emails(tx, &order, None, &mail_settings).await?;
    // Empty the cart, remembering the order so a resubmission gets it back.
    let mut emptied = StoredCart {
        customer: cart.customer.clone(),
        ..Default::default()
    };
    emptied.customer.draft_order_id = None;
    emptied.customer.last_order = Some(PlacedOrder {
        id: id.0,
        key: order.key.clone(),
        cart_hash,
        placed_at: now,
    });
    sessions::store_locked_cart(tx, &record, &emptied.to_json(), now, now + SESSION_TTL_SECS)
        .await?;
    if let Some(issued) = &login {
        // The session is the new customer's from now on.
        store::customers::claim_session_in(tx, session.id.as_str(), issued.customer_id).await?;
    }
    let redirect_path = order.received_path();
    Ok(Placing::Placed(Box::new(Placed {
        order,
        redirect_path,
        repeated: false,
        login,
    })))
}

/// Who uses the order's coupons: the account and the e-mail addresses it goes by. The
/// account's own address is looked up only when a coupon limits uses per customer.
async fn coupon_user(
    state: &AppState,
    customer_id: Option<i64>,
    billing_email: &str,
    coupons: &[rules::pricing::coupons::Coupon],
) -> Result<CouponUser, StoreError> {
    let limited = coupons
        .iter()
        .any(|c| c.usage_limit_per_user.is_some_and(|l| l > 0));
    let account_email = match customer_id {
        Some(id) if limited => store::customers::find_customer(&state.db, CustomerId(id))
            .await?
            .map(|c| c.email),
        _ => None,
    };
    Ok(CouponUser::new(
        customer_id,
        &[billing_email, account_email.as_deref().unwrap_or("")],
    ))
}

/// The order this session placed moments ago, for a checkout submitted again.
async fn repeated(
    state: &AppState,
    customer: &CustomerDetails,
    now: i64,
) -> Result<Option<Order>, StoreError> {
    let Some(last) = &customer.last_order else {
        return Ok(None);
    };
    if now - last.placed_at > RESUBMIT_WINDOW_SECS {
        return Ok(None);
    }
    store::orders::find_order(&state.db, OrderId(last.id)).await
}

fn build_order(
    state: &AppState,
    catalog: &Catalog,
    cart: &StoredCart,
    pricing: &Pricing,
    input: &CheckoutInput,
    gateway: Option<&rules::payments::Gateway>,
    now: i64,
) -> Order {
    let tax_amounts = |taxes: &[rules::pricing::tax::RateTax]| -> Vec<TaxAmount> {
        taxes
            .iter()
            .map(|t| TaxAmount {
                rate_id: t.rate_id.0,
                amount: t.amount,
            })
            .collect()
    };
    let items: Vec<OrderItem> = cart
        .items
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let price = pricing.line(&line.key)?;
            let product = catalog.product(line.id)?;
            let parent = product.parent_id.and_then(|id| catalog.product(id));
            let variation: Vec<ItemAttribute> = line
                .variation
                .iter()
                .map(|v| ItemAttribute {
                    attribute: catalog.attribute_label(&v.attribute),
                    value: catalog.value_name(&v.attribute, &v.value),
                })
                .collect();
            let name = match parent {
                Some(p) if !variation.is_empty() => format!(
                    "{} - {}",
                    p.name,
                    variation
                        .iter()
                        .map(|v| v.value.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Some(p) => p.name.clone(),
                None => product.name.clone(),
            };
            Some(OrderItem {
                id: i as i64 + 1,
                product_id: parent.map_or(product.id.0, |p| p.id.0),
                variation_id: if parent.is_some() { product.id.0 } else { 0 },
                name,
                sku: product.sku.clone(),
                quantity: line.quantity,
                variation,
                price: price.unit_price,
                subtotal: price.subtotal,
                subtotal_tax: price.subtotal_tax,
                total: price.total,
                total_tax: price.total_tax,
                taxes: tax_amounts(&price.taxes),
                reduced_stock: false,
            })
        })
        .collect();
    let shipping: Vec<ShippingLine> = pricing
        .packages
        .iter()
        .filter_map(|p| p.chosen_rate())
        .map(|r| ShippingLine {
            method_id: r.rate.method_id.clone(),
            instance_id: r.rate.instance_id.0,
            name: r.rate.label.clone(),
            total: r.tax.net,
            total_tax: r.tax.total_tax(),
            taxes: tax_amounts(&r.tax.taxes),
        })
        .collect();
    let coupons = pricing
        .coupons
        .iter()
        .map(|c| CouponLine {
            code: c.code.as_str().to_string(),
            discount: c.discount,
            discount_tax: c.discount_tax,
        })
        .collect();
    let taxes = pricing
        .tax_lines
        .iter()
        .map(|t| OrderTaxLine {
            rate_id: t.rate_id.0,
            label: t.name.clone(),
            rate_percent: t.rate.to_string(),
            compound: t.compound,
            tax_total: t.tax_total,
            shipping_tax_total: t.shipping_tax_total,
        })
        .collect();
    let (status, title) = match gateway {
        Some(g) => (g.placed_status().0, g.title.clone()),
        // Nothing to pay: the order goes straight to fulfilment.
        None => (OrderStatus::Processing, String::new()),
    };
    let hold_expires_at = (status == OrderStatus::Pending)
        .then(|| now + state.config.checkout.hold_stock_minutes * 60);
    Order {
        id: OrderId(0),
        key: new_order_key(),
        status,
        customer_id: input.customer_id,
        currency: state.config.currency.code.clone(),
        prices_include_tax: catalog.rules.taxes.prices_entered
            == rules::pricing::tax::PricesEntered::InclusiveOfTax,
        billing: input.billing.clone(),
        shipping: if pricing.needs_shipping {
            input.shipping.clone()
        } else {
            Address::default()
        },
        customer_note: input.customer_note.clone(),
        payment_method: gateway.map_or(String::new(), |g| g.id.to_string()),
        payment_method_title: title,
        transaction_id: String::new(),
        created_via: input.created_via.to_string(),
        cart_hash: String::new(),
        lines: OrderLines {
            items,
            shipping,
            coupons,
            taxes,
        },
        subtotal: pricing.items_total,
        discount_total: pricing.discount_total,
        discount_tax: pricing.discount_tax,
        shipping_total: pricing.shipping_total,
        shipping_tax: pricing.shipping_tax,
        total_tax: pricing.total_tax,
        total: pricing.total,
        stock_reduced: false,
        hold_expires_at,
        created_at: now,
        updated_at: now,
        paid_at: None,
        completed_at: None,
    }
}

/// Checks a coupon for applying to the cart, including this customer's earlier uses.
pub async fn check_coupon(
    state: &AppState,
    catalog: &Catalog,
    cart: &StoredCart,
    raw: &str,
    customer_id: Option<i64>,
    now: i64,
) -> Result<Result<rules::pricing::coupons::Coupon, String>, StoreError> {
    let fmt = money(state);
    let code = match CouponCode::parse(raw) {
        Ok(c) => c,
        Err(e) => return Ok(Err(e.message(&fmt))),
    };
    let stored = store::coupons::find_coupon(&state.db, &code).await?;
    let lines = totals::coupon_lines(catalog, cart);
    let applied: Vec<CouponCode> = cart
        .coupons
        .iter()
        .filter_map(|c| CouponCode::parse(c).ok())
        .collect();
    let applied_coupons = store::coupons::find_coupons(&state.db, &cart.coupons).await?;
    let individual = applied_coupons
        .iter()
        .find(|c| c.individual_use)
        .map(|c| c.code.clone());
    let email = cart.customer.billing.email.trim().to_string();
    let usage = match &stored {
        Some(c) if c.usage_limit_per_user.is_some_and(|l| l > 0) => {
            let user = coupon_user(state, customer_id, &email, std::slice::from_ref(c)).await?;
            store::coupons::customer_usage(&state.db, &c.code, &user).await?
        }
        _ => 0,
    };
    let ctx = CartContext {
        lines: &lines,
        applied_codes: &applied,
        individual_use_applied: individual.as_ref(),
        billing_email: Some(email.as_str()).filter(|e| !e.is_empty()),
        customer_usage: usage,
        now,
    };
    Ok(match coupons::validate(&code, stored.as_ref(), &ctx) {
        Ok(()) => Ok(stored.expect("a valid coupon exists")),
        Err(e) => Err(e.message(&fmt)),
    })
}
