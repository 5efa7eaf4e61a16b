//! Coupons as the original shop (WooCommerce) has them: the stored coupon, the checks that
//! decide whether a code may be applied to a cart (in WooCommerce's order, with its
//! messages), and how applied coupons split their discount over cart lines to the cent.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::model::{CategoryId, ProductId};

/// A percentage in hundredths of a percent: 12.5% is `1250`, 100% is `10_000`.
pub type PercentHundredths = i64;

const HUNDRED_PERCENT: i64 = 10_000;

/// A coupon code as the shop compares it: trimmed and lowercased (codes are
/// case-insensitive), never empty. Deserializing normalises, so stored JSON may use any case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CouponCode(String);

impl CouponCode {
    pub fn parse(raw: &str) -> Result<Self, CouponError> {
        let code = raw.trim().to_lowercase();
        if code.is_empty() {
            return Err(CouponError::MissingCode);
        }
        Ok(Self(code))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for CouponCode {
    type Error = &'static str;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw).map_err(|_| "a coupon code cannot be empty")
    }
}

impl From<CouponCode> for String {
    fn from(code: CouponCode) -> Self {
        code.0
    }
}

impl std::fmt::Display for CouponCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a coupon takes off. Amounts are minor units (cents).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CouponKind {
    /// A percentage of each applicable line (WooCommerce `percent`).
    Percent { percent: PercentHundredths },
    /// A fixed amount off the whole cart (WooCommerce `fixed_cart`).
    FixedCart { amount: i64 },
    /// A fixed amount off each applicable unit (WooCommerce `fixed_product`).
    FixedProduct { amount: i64 },
}

impl CouponKind {
    /// WooCommerce's "product coupon types": they discount only the lines they apply to,
    /// and skip excluded lines instead of refusing the cart.
    fn is_per_product(self) -> bool {
        matches!(self, Self::Percent { .. } | Self::FixedProduct { .. })
    }
}

/// A coupon as stored. Limits of `None` or `Some(0)` mean "no limit", as in WooCommerce
/// where an empty or zero field disables the restriction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coupon {
    pub code: CouponCode,
    pub kind: CouponKind,
    #[serde(default)]
    pub free_shipping: bool,
    /// Unix seconds; the coupon still works at this second and is expired after it.
    #[serde(default)]
    pub expires_at: Option<i64>,
    /// Compared with the items subtotal before coupons (see [`CartContext::lines`]).
    #[serde(default)]
    pub minimum_spend: Option<i64>,
    #[serde(default)]
    pub maximum_spend: Option<i64>,
    #[serde(default)]
    pub usage_limit: Option<i64>,
    #[serde(default)]
    pub usage_limit_per_user: Option<i64>,
    /// Cannot be combined: applying it removes the other coupons, and while it is applied
    /// no other coupon can be added.
    #[serde(default)]
    pub individual_use: bool,
    #[serde(default)]
    pub exclude_sale_items: bool,
    #[serde(default)]
    pub product_ids: Vec<ProductId>,
    #[serde(default)]
    pub excluded_product_ids: Vec<ProductId>,
    #[serde(default)]
    pub category_ids: Vec<CategoryId>,
    #[serde(default)]
    pub excluded_category_ids: Vec<CategoryId>,
    /// Billing e-mails allowed to use the coupon; case-insensitive, `*` matches any run of
    /// characters (`*@example.com`). Empty means anyone.
    #[serde(default)]
    pub allowed_emails: Vec<String>,
    /// For percent and fixed-product coupons: how many units, across the cart, get the discount.
    #[serde(default)]
    pub limit_usage_to_x_items: Option<i64>,
    #[serde(default)]
    pub usage_count: i64,
}

impl Coupon {
    /// A coupon with no restrictions.
    pub fn new(code: CouponCode, kind: CouponKind) -> Self {
        Self {
            code,
            kind,
            free_shipping: false,
            expires_at: None,
            minimum_spend: None,
            maximum_spend: None,
            usage_limit: None,
            usage_limit_per_user: None,
            individual_use: false,
            exclude_sale_items: false,
            product_ids: Vec::new(),
            excluded_product_ids: Vec::new(),
            category_ids: Vec::new(),
            excluded_category_ids: Vec::new(),
            allowed_emails: Vec::new(),
            limit_usage_to_x_items: None,
            usage_count: 0,
        }
    }

    /// WooCommerce's `is_valid_for_product`: the line passes the product list (its product
    /// or its parent is listed), the category list, both exclusion lists and the sale rule.
    /// When both include lists are set, a line must match both.
    pub fn applies_to(&self, line: &CouponLine) -> bool {
        let listed = self.product_ids.is_empty() || line.is_any_of(&self.product_ids);
        let in_category = self.category_ids.is_empty() || line.in_any_of(&self.category_ids);
        listed && in_category && !self.excludes(line)
    }

    /// The lines a fixed-cart coupon must never touch. Include lists do not narrow a
    /// fixed-cart coupon: in WooCommerce they only require such a product to be in the cart.
    fn excludes(&self, line: &CouponLine) -> bool {
        line.is_any_of(&self.excluded_product_ids)
            || line.in_any_of(&self.excluded_category_ids)
            || (self.exclude_sale_items && line.on_sale)
    }
}

fn limit(value: Option<i64>) -> Option<i64> {
    value.filter(|&v| v > 0)
}

/// A cart line as the coupon rules see it. `category_ids` should be the product's
/// categories (a variation's parent's, since variations have none of their own).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CouponLine {
    pub key: String,
    pub product_id: ProductId,
    /// A variation's parent; product lists may name either.
    pub parent_id: Option<ProductId>,
    pub category_ids: Vec<CategoryId>,
    pub on_sale: bool,
    pub unit_price: i64,
    pub quantity: i64,
    pub line_subtotal: i64,
}

impl CouponLine {
    fn is_any_of(&self, ids: &[ProductId]) -> bool {
        ids.contains(&self.product_id) || self.parent_id.is_some_and(|p| ids.contains(&p))
    }

    fn in_any_of(&self, ids: &[CategoryId]) -> bool {
        self.category_ids.iter().any(|c| ids.contains(c))
    }
}

/// The cart a code is being applied to.
#[derive(Debug, Clone, Copy)]
pub struct CartContext<'a> {
    /// Minimum and maximum spend compare with the sum of `line_subtotal`, before coupons.
    /// Ferroshop passes subtotals before tax, so the spend limits are before tax (WooCommerce
    /// uses its displayed subtotal, which includes tax only in shops showing prices with tax).
    pub lines: &'a [CouponLine],
    pub applied_codes: &'a [CouponCode],
    /// The applied coupon marked individual use, if any. There is at most one: applying
    /// it removed the others.
    pub individual_use_applied: Option<&'a CouponCode>,
    /// Unknown until checkout; e-mail restrictions are only checked once it is known,
    /// as WooCommerce does.
    pub billing_email: Option<&'a str>,
    /// How many times this customer has used the coupon before.
    pub customer_usage: i64,
    /// Unix seconds.
    pub now: i64,
}

/// Why a code cannot be applied. Carries data, not text, so the caller renders the
/// message in the shop's currency format with [`CouponError::message`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum CouponError {
    MissingCode,
    NotFound {
        code: String,
    },
    UsageLimitReached,
    UserUsageLimitReached,
    Expired,
    MinimumSpendNotMet {
        minimum: i64,
    },
    MaximumSpendExceeded {
        maximum: i64,
    },
    NotApplicable,
    NotValidForSaleItems,
    /// A fixed-cart coupon with one of its excluded products in the cart.
    ExcludedProducts {
        product_ids: Vec<ProductId>,
    },
    /// A fixed-cart coupon with a product from one of its excluded categories in the cart.
    ExcludedCategories {
        category_ids: Vec<CategoryId>,
    },
    NotYours {
        code: CouponCode,
    },
    AlreadyApplied {
        code: CouponCode,
    },
    /// `code` is the individual-use coupon already in the cart.
    IndividualUseOnly {
        code: CouponCode,
    },
}

impl CouponError {
    /// Stable code for the Store API's error envelope.
    pub fn code(&self) -> &'static str {
        match self {
            Self::MissingCode => "woocommerce_rest_cart_coupon_missing_code",
            Self::NotFound { .. } => "woocommerce_rest_cart_coupon_not_found",
            Self::UsageLimitReached => "woocommerce_rest_cart_coupon_usage_limit_reached",
            Self::UserUsageLimitReached => "woocommerce_rest_cart_coupon_user_usage_limit_reached",
            Self::Expired => "woocommerce_rest_cart_coupon_expired",
            Self::MinimumSpendNotMet { .. } => "woocommerce_rest_cart_coupon_minimum_spend",
            Self::MaximumSpendExceeded { .. } => "woocommerce_rest_cart_coupon_maximum_spend",
            Self::NotApplicable => "woocommerce_rest_cart_coupon_not_applicable",
            Self::NotValidForSaleItems => "woocommerce_rest_cart_coupon_sale_items",
            Self::ExcludedProducts { .. } => "woocommerce_rest_cart_coupon_excluded_products",
            Self::ExcludedCategories { .. } => "woocommerce_rest_cart_coupon_excluded_categories",
            Self::NotYours { .. } => "woocommerce_rest_cart_coupon_not_yours",
            Self::AlreadyApplied { .. } => "woocommerce_rest_cart_coupon_already_applied",
            Self::IndividualUseOnly { .. } => "woocommerce_rest_cart_coupon_individual_use",
        }
    }

    /// WooCommerce's numeric coupon error (`WC_Coupon::E_WC_COUPON_*`), for parity checks.
    pub fn woocommerce_code(&self) -> u16 {
        match self {
            Self::NotYours { .. } => 102,
            Self::AlreadyApplied { .. } => 103,
            Self::IndividualUseOnly { .. } => 104,
            Self::NotFound { .. } => 105,
            Self::UsageLimitReached | Self::UserUsageLimitReached => 106,
            Self::Expired => 107,
            Self::MinimumSpendNotMet { .. } => 108,
            Self::NotApplicable => 109,
            Self::NotValidForSaleItems => 110,
            Self::MissingCode => 111,
            Self::MaximumSpendExceeded { .. } => 112,
            Self::ExcludedProducts { .. } => 113,
            Self::ExcludedCategories { .. } => 114,
        }
    }

    /// WooCommerce's wording. Excluded products and categories get the generic
    /// not-applicable sentence because lines carry ids, not names; the ids stay in the
    /// variant for a caller that can name them.
    pub fn message(&self, format_money: &dyn Fn(i64) -> String) -> String {
        match self {
            Self::MissingCode => "Please enter a coupon code.".to_owned(),
            Self::NotFound { code } => format!("Coupon \"{code}\" does not exist!"),
            Self::UsageLimitReached | Self::UserUsageLimitReached => {
                "Coupon usage limit has been reached.".to_owned()
            }
            Self::Expired => "This coupon has expired.".to_owned(),
            Self::MinimumSpendNotMet { minimum } => format!(
                "The minimum spend for this coupon is {}.",
                format_money(*minimum)
            ),
            Self::MaximumSpendExceeded { maximum } => format!(
                "The maximum spend for this coupon is {}.",
                format_money(*maximum)
            ),
            Self::NotApplicable
            | Self::ExcludedProducts { .. }
            | Self::ExcludedCategories { .. } => {
                "Sorry, this coupon is not applicable to your cart contents.".to_owned()
            }
            Self::NotValidForSaleItems => {
                "Sorry, this coupon is not valid for sale items.".to_owned()
            }
            Self::NotYours { code } => format!("Sorry, it seems the coupon \"{code}\" is not yours."),
            Self::AlreadyApplied { .. } => "Coupon code already applied!".to_owned(),
            Self::IndividualUseOnly { code } => format!(
                "Sorry, coupon \"{code}\" has already been applied and cannot be used in conjunction with other coupons."
            ),
        }
    }
}

/// Whether `entered` (already parsed) may be applied to the cart; `coupon` is what the
/// store found for it. Checks run in WooCommerce's order (`WC_Discounts::is_coupon_valid`,
/// then `WC_Cart::apply_coupon`), so the first failing rule is the one the shopper sees.
pub fn validate(
    entered: &CouponCode,
    coupon: Option<&Coupon>,
    cart: &CartContext<'_>,
) -> Result<(), CouponError> {
    let Some(coupon) = coupon else {
        return Err(CouponError::NotFound {
            code: entered.as_str().to_owned(),
        });
    };

    if limit(coupon.usage_limit).is_some_and(|l| coupon.usage_count >= l) {
        return Err(CouponError::UsageLimitReached);
    }
    if limit(coupon.usage_limit_per_user).is_some_and(|l| cart.customer_usage >= l) {
        return Err(CouponError::UserUsageLimitReached);
    }
    if coupon.expires_at.is_some_and(|at| cart.now > at) {
        return Err(CouponError::Expired);
    }

    let subtotal: i64 = cart.lines.iter().map(|l| l.line_subtotal).sum();
    if let Some(minimum) = limit(coupon.minimum_spend).filter(|&m| m > subtotal) {
        return Err(CouponError::MinimumSpendNotMet { minimum });
    }
    if let Some(maximum) = limit(coupon.maximum_spend).filter(|&m| m < subtotal) {
        return Err(CouponError::MaximumSpendExceeded { maximum });
    }

    if !coupon.product_ids.is_empty()
        && !cart.lines.iter().any(|l| l.is_any_of(&coupon.product_ids))
    {
        return Err(CouponError::NotApplicable);
    }
    // WooCommerce skips sale items here when the coupon excludes them.
    if !coupon.category_ids.is_empty()
        && !cart
            .lines
            .iter()
            .filter(|l| !(coupon.exclude_sale_items && l.on_sale))
            .any(|l| l.in_any_of(&coupon.category_ids))
    {
        return Err(CouponError::NotApplicable);
    }

    if coupon.kind.is_per_product() {
        check_some_line_applies(coupon, cart.lines)?;
    } else {
        check_no_line_excluded(coupon, cart.lines)?;
    }

    if !coupon.allowed_emails.is_empty() {
        if let Some(email) = cart.billing_email {
            if !email_allowed(&coupon.allowed_emails, email) {
                return Err(CouponError::NotYours {
                    code: coupon.code.clone(),
                });
            }
        }
    }

    if cart.applied_codes.contains(&coupon.code) {
        return Err(CouponError::AlreadyApplied {
            code: coupon.code.clone(),
        });
    }
    // An individual-use coupon being applied removes the others first, so only a
    // coupon that combines is blocked by one already in the cart.
    if !coupon.individual_use {
        if let Some(code) = cart.individual_use_applied {
            return Err(CouponError::IndividualUseOnly { code: code.clone() });
        }
    }
    Ok(())
}

/// A percent or fixed-product coupon needs at least one line to discount. When sale items
/// are the only obstacle the shopper is told so, rather than the generic message.
fn check_some_line_applies(coupon: &Coupon, lines: &[CouponLine]) -> Result<(), CouponError> {
    // WooCommerce does not check an empty cart here.
    if lines.is_empty() || lines.iter().any(|l| coupon.applies_to(l)) {
        return Ok(());
    }
    let ignoring_sale = Coupon {
        exclude_sale_items: false,
        ..coupon.clone()
    };
    if coupon.exclude_sale_items && lines.iter().any(|l| ignoring_sale.applies_to(l)) {
        Err(CouponError::NotValidForSaleItems)
    } else {
        Err(CouponError::NotApplicable)
    }
}

/// A fixed-cart coupon discounts the whole cart, so any excluded line refuses it.
fn check_no_line_excluded(coupon: &Coupon, lines: &[CouponLine]) -> Result<(), CouponError> {
    if coupon.exclude_sale_items && lines.iter().any(|l| l.on_sale) {
        return Err(CouponError::NotValidForSaleItems);
    }
    let product_ids: Vec<ProductId> = lines
        .iter()
        .filter(|l| l.is_any_of(&coupon.excluded_product_ids))
        .map(|l| l.product_id)
        .collect();
    if !product_ids.is_empty() {
        return Err(CouponError::ExcludedProducts { product_ids });
    }
    let mut category_ids: Vec<CategoryId> = lines
        .iter()
        .flat_map(|l| l.category_ids.iter().copied())
        .filter(|c| coupon.excluded_category_ids.contains(c))
        .collect();
    category_ids.sort();
    category_ids.dedup();
    if !category_ids.is_empty() {
        return Err(CouponError::ExcludedCategories { category_ids });
    }
    Ok(())
}

/// Case-insensitive; `*` matches any run of characters, including none (WooCommerce turns
/// it into `(.+)?`). Unlike WooCommerce's regex, a `.` in the pattern is only a dot.
fn email_allowed(allowed: &[String], email: &str) -> bool {
    let email = email.trim().to_lowercase();
    allowed
        .iter()
        .any(|pattern| wildcard_matches(&pattern.trim().to_lowercase(), &email))
}

fn wildcard_matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == text;
    };
    if text.len() < first.len() + last.len() || !text.starts_with(first) || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The codes in the cart once `coupon` is added: an individual-use coupon replaces the others.
pub fn codes_after_applying(coupon: &Coupon, applied_codes: &[CouponCode]) -> Vec<CouponCode> {
    if coupon.individual_use {
        return vec![coupon.code.clone()];
    }
    let mut codes = applied_codes.to_vec();
    if !codes.contains(&coupon.code) {
        codes.push(coupon.code.clone());
    }
    codes
}

/// What the applied coupons take off. Every line and every coupon has an entry (zero if
/// untouched), and the two maps add up to the same total.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discounts {
    pub per_line: BTreeMap<String, i64>,
    pub per_coupon: BTreeMap<CouponCode, i64>,
}

impl Discounts {
    pub fn total(&self) -> i64 {
        self.per_coupon.values().sum()
    }
}

/// Applies `coupons` in order, each on what the earlier ones left of every line (WooCommerce
/// with "calculate coupon discounts sequentially" on). No line ever goes below zero.
///
/// - Percent: the percentage of each applicable line's remaining price. Each line gets the
///   floor of its exact share; the cents still missing from the coupon's total (its
///   percentage of all those prices, rounded half up) go as in fixed cart below.
/// - Fixed product: amount × units per applicable line, capped at the line's remaining price.
/// - With `limit_usage_to_x_items`, percent and fixed-product coupons discount only that many
///   units, highest unit price first (ties: earlier line first); a partly covered line's
///   price is prorated by units, rounded down.
/// - Fixed cart: the amount, capped at what is left of the non-excluded lines, is spread over
///   them in proportion to their remaining price. Each line gets the floor of its exact share,
///   then the leftover cents go one at a time to the lines with the largest remainder, ties
///   going to the earlier line, so the shares sum exactly to the coupon's discount.
pub fn discounts(coupons: &[Coupon], lines: &[CouponLine]) -> Discounts {
    let mut remaining: Vec<i64> = lines.iter().map(|l| l.line_subtotal.max(0)).collect();
    let mut result = Discounts::default();
    for line in lines {
        result.per_line.entry(line.key.clone()).or_insert(0);
    }

    for coupon in coupons {
        let discountable = |i: usize| remaining[i] > 0 && lines[i].quantity > 0;
        let shares = match coupon.kind {
            CouponKind::Percent { percent } => {
                let targets = applicable(coupon, lines, discountable);
                percent_shares(percent, coupon, &targets, lines, &remaining)
            }
            CouponKind::FixedProduct { amount } => {
                let targets = applicable(coupon, lines, discountable);
                fixed_product_shares(amount, coupon, &targets, lines, &remaining)
            }
            CouponKind::FixedCart { amount } => {
                let targets: Vec<usize> = (0..lines.len())
                    .filter(|&i| discountable(i) && !coupon.excludes(&lines[i]))
                    .collect();
                fixed_cart_shares(amount, &targets, &remaining)
            }
        };

        let mut coupon_total = 0;
        for (i, discount) in shares {
            debug_assert!(0 <= discount && discount <= remaining[i]);
            remaining[i] -= discount;
            coupon_total += discount;
            *result.per_line.entry(lines[i].key.clone()).or_insert(0) += discount;
        }
        *result.per_coupon.entry(coupon.code.clone()).or_insert(0) += coupon_total;
    }
    result
}

fn applicable(
    coupon: &Coupon,
    lines: &[CouponLine],
    discountable: impl Fn(usize) -> bool,
) -> Vec<usize> {
    (0..lines.len())
        .filter(|&i| discountable(i) && coupon.applies_to(&lines[i]))
        .collect()
}

/// Units of each target line the coupon covers, in line order.
fn covered_units(coupon: &Coupon, targets: &[usize], lines: &[CouponLine]) -> Vec<(usize, i64)> {
    let Some(mut left) = limit(coupon.limit_usage_to_x_items) else {
        return targets.iter().map(|&i| (i, lines[i].quantity)).collect();
    };
    let mut by_price = targets.to_vec();
    // Stable sort keeps line order among equal prices.
    by_price.sort_by_key(|&i| std::cmp::Reverse(lines[i].unit_price));
    let mut covered = Vec::new();
    for i in by_price {
        let units = lines[i].quantity.min(left);
        if units > 0 {
            covered.push((i, units));
            left -= units;
        }
    }
    covered.sort_by_key(|&(i, _)| i);
    covered
}

/// The part of a line's remaining price that `units` of its quantity stand for.
fn covered_price(remaining: i64, units: i64, quantity: i64) -> i64 {
    if units >= quantity {
        remaining
    } else {
        (i128::from(remaining) * i128::from(units) / i128::from(quantity)) as i64
    }
}

fn percent_shares(
    percent: PercentHundredths,
    coupon: &Coupon,
    targets: &[usize],
    lines: &[CouponLine],
    remaining: &[i64],
) -> Vec<(usize, i64)> {
    let percent = i128::from(percent.clamp(0, HUNDRED_PERCENT));
    let exact: Vec<(usize, i128)> = covered_units(coupon, targets, lines)
        .into_iter()
        .map(|(i, units)| {
            let price = covered_price(remaining[i], units, lines[i].quantity);
            (i, i128::from(price) * percent)
        })
        .collect();
    let denominator = i128::from(HUNDRED_PERCENT);
    let sum: i128 = exact.iter().map(|&(_, n)| n).sum();
    let total = (sum + denominator / 2) / denominator;
    apportion(total as i64, &exact, denominator)
}

fn fixed_product_shares(
    amount: i64,
    coupon: &Coupon,
    targets: &[usize],
    lines: &[CouponLine],
    remaining: &[i64],
) -> Vec<(usize, i64)> {
    covered_units(coupon, targets, lines)
        .into_iter()
        .map(|(i, units)| (i, amount.max(0).saturating_mul(units).min(remaining[i])))
        .collect()
}

fn fixed_cart_shares(amount: i64, targets: &[usize], remaining: &[i64]) -> Vec<(usize, i64)> {
    let available: i64 = targets.iter().map(|&i| remaining[i]).sum();
    let total = amount.clamp(0, available);
    if total == 0 {
        return Vec::new();
    }
    let exact: Vec<(usize, i128)> = targets
        .iter()
        .map(|&i| (i, i128::from(total) * i128::from(remaining[i])))
        .collect();
    apportion(total, &exact, i128::from(available))
}

/// Splits `total` over lines whose exact shares are `numerator / denominator`: each gets the
/// floor of its share, then the missing cents go one each to the largest remainders, ties to
/// the earlier line. Callers pass a `total` no more than one cent per line above the floors,
/// and only lines with a remainder can be short of their exact share, so no line is pushed
/// past its exact share rounded up — hence never past its remaining price.
fn apportion(total: i64, exact: &[(usize, i128)], denominator: i128) -> Vec<(usize, i64)> {
    let mut shares: Vec<(usize, i64)> = exact
        .iter()
        .map(|&(i, n)| (i, (n / denominator) as i64))
        .collect();
    let floors: i64 = shares.iter().map(|&(_, s)| s).sum();
    let mut order: Vec<usize> = (0..exact.len())
        .filter(|&k| exact[k].1 % denominator > 0)
        .collect();
    order.sort_by_key(|&k| std::cmp::Reverse(exact[k].1 % denominator));
    let leftover = usize::try_from(total - floors).unwrap_or(0);
    debug_assert!(leftover <= order.len());
    for &k in order.iter().take(leftover) {
        shares[k].1 += 1;
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(raw: &str) -> CouponCode {
        CouponCode::parse(raw).unwrap()
    }

    fn dollars(cents: i64) -> String {
        format!("${}.{:02}", cents / 100, cents % 100)
    }

    fn coupon(raw: &str, kind: CouponKind) -> Coupon {
        Coupon::new(code(raw), kind)
    }

    fn percent(raw: &str, percent: i64) -> Coupon {
        coupon(raw, CouponKind::Percent { percent })
    }

    fn fixed_cart(raw: &str, amount: i64) -> Coupon {
        coupon(raw, CouponKind::FixedCart { amount })
    }

    fn fixed_product(raw: &str, amount: i64) -> Coupon {
        coupon(raw, CouponKind::FixedProduct { amount })
    }

    fn line(key: &str, product: i64, unit_price: i64, quantity: i64) -> CouponLine {
        CouponLine {
            key: key.to_owned(),
            product_id: ProductId(product),
            parent_id: None,
            category_ids: Vec::new(),
            on_sale: false,
            unit_price,
            quantity,
            line_subtotal: unit_price * quantity,
        }
    }

    fn on_sale(mut l: CouponLine) -> CouponLine {
        l.on_sale = true;
        l
    }

    fn in_category(mut l: CouponLine, category: i64) -> CouponLine {
        l.category_ids.push(CategoryId(category));
        l
    }

    fn cart(lines: &[CouponLine]) -> CartContext<'_> {
        CartContext {
            lines,
            applied_codes: &[],
            individual_use_applied: None,
            billing_email: None,
            customer_usage: 0,
            now: 1_000,
        }
    }

    fn check(c: &Coupon, ctx: &CartContext<'_>) -> Result<(), String> {
        validate(&c.code, Some(c), ctx).map_err(|e| e.message(&dollars))
    }

    fn per_line(d: &Discounts) -> Vec<i64> {
        d.per_line.values().copied().collect()
    }

    // --- codes -------------------------------------------------------------------------

    #[test]
    fn codes_are_trimmed_and_lowercased() {
        assert_eq!(code("  Summer10 ").as_str(), "summer10");
        assert_eq!(code("SUMMER10"), code("summer10"));
    }

    #[test]
    fn an_empty_code_asks_for_one() {
        let err = CouponCode::parse("   ").unwrap_err();
        assert_eq!(err, CouponError::MissingCode);
        assert_eq!(err.message(&dollars), "Please enter a coupon code.");
    }

    #[test]
    fn stored_coupons_round_trip_through_json_and_normalise_their_code() {
        let json =
            r#"{"code":"  BigSale ","kind":{"type":"percent","percent":1250},"product_ids":[7]}"#;
        let c: Coupon = serde_json::from_str(json).unwrap();
        assert_eq!(c.code.as_str(), "bigsale");
        assert_eq!(c.kind, CouponKind::Percent { percent: 1250 });
        assert_eq!(c.product_ids, vec![ProductId(7)]);
        let again: Coupon = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(again, c);
        assert!(serde_json::from_str::<CouponCode>(r#""  ""#).is_err());
    }

    // --- validation ----------------------------------------------------------------------

    #[test]
    fn an_unknown_code_does_not_exist() {
        let lines = [line("a", 1, 1000, 1)];
        let err = validate(&code("Nope"), None, &cart(&lines)).unwrap_err();
        assert_eq!(err.message(&dollars), "Coupon \"nope\" does not exist!");
        assert_eq!(err.woocommerce_code(), 105);
    }

    #[test]
    fn a_plain_coupon_is_valid() {
        let lines = [line("a", 1, 1000, 1)];
        assert_eq!(check(&percent("ten", 1000), &cart(&lines)), Ok(()));
    }

    #[test]
    fn the_usage_limit_stops_the_coupon_once_reached_and_zero_means_unlimited() {
        let lines = [line("a", 1, 1000, 1)];
        let mut c = percent("ten", 1000);
        c.usage_limit = Some(3);
        c.usage_count = 2;
        assert_eq!(check(&c, &cart(&lines)), Ok(()));
        c.usage_count = 3;
        assert_eq!(
            check(&c, &cart(&lines)),
            Err("Coupon usage limit has been reached.".into())
        );
        c.usage_limit = Some(0);
        assert_eq!(check(&c, &cart(&lines)), Ok(()));
    }

    #[test]
    fn the_per_customer_limit_counts_this_customers_uses() {
        let lines = [line("a", 1, 1000, 1)];
        let mut c = percent("ten", 1000);
        c.usage_limit_per_user = Some(1);
        assert_eq!(check(&c, &cart(&lines)), Ok(()));
        let ctx = CartContext {
            customer_usage: 1,
            ..cart(&lines)
        };
        let err = validate(&c.code, Some(&c), &ctx).unwrap_err();
        assert_eq!(err, CouponError::UserUsageLimitReached);
        assert_eq!(
            err.message(&dollars),
            "Coupon usage limit has been reached."
        );
    }

    #[test]
    fn a_coupon_works_until_its_expiry_second_and_not_after() {
        let lines = [line("a", 1, 1000, 1)];
        let mut c = percent("ten", 1000);
        c.expires_at = Some(1_000);
        assert_eq!(
            check(
                &c,
                &CartContext {
                    now: 1_000,
                    ..cart(&lines)
                }
            ),
            Ok(())
        );
        assert_eq!(
            check(
                &c,
                &CartContext {
                    now: 1_001,
                    ..cart(&lines)
                }
            ),
            Err("This coupon has expired.".into())
        );
    }

    #[test]
    fn the_minimum_spend_is_met_by_a_subtotal_equal_to_it() {
        let mut c = percent("ten", 1000);
        c.minimum_spend = Some(5000);
        let enough = [line("a", 1, 2500, 2)];
        assert_eq!(check(&c, &cart(&enough)), Ok(()));
        let short = [line("a", 1, 4999, 1)];
        assert_eq!(
            check(&c, &cart(&short)),
            Err("The minimum spend for this coupon is $50.00.".into())
        );
    }

    #[test]
    fn the_maximum_spend_allows_a_subtotal_equal_to_it() {
        let mut c = percent("ten", 1000);
        c.maximum_spend = Some(10_000);
        let equal = [line("a", 1, 5000, 2)];
        assert_eq!(check(&c, &cart(&equal)), Ok(()));
        let over = [line("a", 1, 10_001, 1)];
        let err = validate(&c.code, Some(&c), &cart(&over)).unwrap_err();
        assert_eq!(
            err.message(&dollars),
            "The maximum spend for this coupon is $100.00."
        );
        assert_eq!(err.code(), "woocommerce_rest_cart_coupon_maximum_spend");
    }

    #[test]
    fn a_product_coupon_needs_one_of_its_products_in_the_cart() {
        let mut c = fixed_product("shoes", 500);
        c.product_ids = vec![ProductId(9)];
        let lines = [line("a", 1, 1000, 1)];
        assert_eq!(
            check(&c, &cart(&lines)),
            Err("Sorry, this coupon is not applicable to your cart contents.".into())
        );
    }

    #[test]
    fn a_variation_matches_a_product_list_naming_its_parent() {
        let mut c = percent("shirts", 1000);
        c.product_ids = vec![ProductId(9)];
        let mut variation = line("a", 91, 1000, 1);
        variation.parent_id = Some(ProductId(9));
        assert_eq!(check(&c, &cart(std::slice::from_ref(&variation))), Ok(()));
        let d = discounts(&[c], &[variation]);
        assert_eq!(d.total(), 100);
    }

    #[test]
    fn a_category_coupon_needs_a_product_from_that_category() {
        let mut c = percent("books", 1000);
        c.category_ids = vec![CategoryId(4)];
        let other = [in_category(line("a", 1, 1000, 1), 5)];
        assert_eq!(
            validate(&c.code, Some(&c), &cart(&other)),
            Err(CouponError::NotApplicable)
        );
        let book = [in_category(line("a", 1, 1000, 1), 4)];
        assert_eq!(check(&c, &cart(&book)), Ok(()));
    }

    #[test]
    fn a_percent_coupon_excluding_sale_items_refuses_a_cart_of_only_sale_items() {
        let mut c = percent("ten", 1000);
        c.exclude_sale_items = true;
        let lines = [on_sale(line("a", 1, 1000, 1))];
        assert_eq!(
            check(&c, &cart(&lines)),
            Err("Sorry, this coupon is not valid for sale items.".into())
        );
        let mixed = [on_sale(line("a", 1, 1000, 1)), line("b", 2, 1000, 1)];
        assert_eq!(check(&c, &cart(&mixed)), Ok(()));
    }

    #[test]
    fn a_percent_coupon_whose_only_products_are_excluded_is_not_applicable() {
        let mut c = percent("ten", 1000);
        c.excluded_product_ids = vec![ProductId(1)];
        let lines = [line("a", 1, 1000, 1)];
        assert_eq!(
            validate(&c.code, Some(&c), &cart(&lines)),
            Err(CouponError::NotApplicable)
        );
    }

    #[test]
    fn a_fixed_cart_coupon_excluding_sale_items_refuses_a_cart_with_any_sale_item() {
        let mut c = fixed_cart("five", 500);
        c.exclude_sale_items = true;
        let mixed = [on_sale(line("a", 1, 1000, 1)), line("b", 2, 1000, 1)];
        let err = validate(&c.code, Some(&c), &cart(&mixed)).unwrap_err();
        assert_eq!(err, CouponError::NotValidForSaleItems);
        assert_eq!(
            err.message(&dollars),
            "Sorry, this coupon is not valid for sale items."
        );
    }

    #[test]
    fn a_fixed_cart_coupon_refuses_a_cart_holding_an_excluded_product_or_its_variation() {
        let mut c = fixed_cart("five", 500);
        c.excluded_product_ids = vec![ProductId(9)];
        let mut variation = line("b", 91, 1000, 1);
        variation.parent_id = Some(ProductId(9));
        let lines = [line("a", 1, 1000, 1), variation];
        let err = validate(&c.code, Some(&c), &cart(&lines)).unwrap_err();
        assert_eq!(
            err,
            CouponError::ExcludedProducts {
                product_ids: vec![ProductId(91)]
            }
        );
        assert_eq!(err.woocommerce_code(), 113);
    }

    #[test]
    fn a_fixed_cart_coupon_refuses_a_cart_holding_an_excluded_category() {
        let mut c = fixed_cart("five", 500);
        c.excluded_category_ids = vec![CategoryId(3)];
        let lines = [line("a", 1, 1000, 1), in_category(line("b", 2, 1000, 1), 3)];
        let err = validate(&c.code, Some(&c), &cart(&lines)).unwrap_err();
        assert_eq!(
            err,
            CouponError::ExcludedCategories {
                category_ids: vec![CategoryId(3)]
            }
        );
        assert_eq!(
            err.message(&dollars),
            "Sorry, this coupon is not applicable to your cart contents."
        );
    }

    #[test]
    fn allowed_emails_match_case_insensitively_and_with_wildcards() {
        let mut c = percent("staff", 1000);
        c.allowed_emails = vec!["Boss@Shop.test".into(), "*@example.com".into()];
        let lines = [line("a", 1, 1000, 1)];
        for ok in [
            "boss@shop.test",
            "BOSS@SHOP.TEST",
            "ann@example.com",
            "X@Example.COM",
        ] {
            let ctx = CartContext {
                billing_email: Some(ok),
                ..cart(&lines)
            };
            assert_eq!(check(&c, &ctx), Ok(()), "{ok}");
        }
        for refused in [
            "ann@example.co",
            "ann@example.com.evil",
            "other@shop.test",
            "ann@exampleXcom",
        ] {
            let ctx = CartContext {
                billing_email: Some(refused),
                ..cart(&lines)
            };
            assert_eq!(
                check(&c, &ctx),
                Err("Sorry, it seems the coupon \"staff\" is not yours.".into()),
                "{refused}"
            );
        }
    }

    #[test]
    fn email_restrictions_wait_until_the_billing_email_is_known() {
        let mut c = percent("staff", 1000);
        c.allowed_emails = vec!["*@example.com".into()];
        let lines = [line("a", 1, 1000, 1)];
        assert_eq!(check(&c, &cart(&lines)), Ok(()));
    }

    #[test]
    fn wildcards_match_any_run_of_characters_anywhere() {
        assert!(wildcard_matches("a*b*c", "abc"));
        assert!(wildcard_matches("a*b*c", "axxbyyc"));
        assert!(!wildcard_matches("a*b*c", "axxcyyb"));
        assert!(wildcard_matches("*", "anything"));
        assert!(!wildcard_matches("ab*ba", "aba"));
    }

    #[test]
    fn a_code_already_in_the_cart_is_not_applied_twice() {
        let lines = [line("a", 1, 1000, 1)];
        let c = percent("ten", 1000);
        let applied = [code("TEN")];
        let ctx = CartContext {
            applied_codes: &applied,
            ..cart(&lines)
        };
        assert_eq!(check(&c, &ctx), Err("Coupon code already applied!".into()));
    }

    #[test]
    fn an_applied_individual_use_coupon_blocks_any_other() {
        let lines = [line("a", 1, 1000, 1)];
        let solo = code("solo");
        let applied = [solo.clone()];
        let ctx = CartContext {
            applied_codes: &applied,
            individual_use_applied: Some(&solo),
            ..cart(&lines)
        };
        assert_eq!(
            check(&percent("ten", 1000), &ctx),
            Err("Sorry, coupon \"solo\" has already been applied and cannot be used in conjunction with other coupons.".into())
        );
        let mut other_solo = percent("alone", 1000);
        other_solo.individual_use = true;
        assert_eq!(check(&other_solo, &ctx), Ok(()));
    }

    #[test]
    fn applying_an_individual_use_coupon_removes_the_others() {
        let applied = [code("a"), code("b")];
        let mut solo = percent("solo", 1000);
        assert_eq!(
            codes_after_applying(&solo, &applied),
            vec![code("a"), code("b"), code("solo")]
        );
        solo.individual_use = true;
        assert_eq!(codes_after_applying(&solo, &applied), vec![code("solo")]);
    }

    #[test]
    fn checks_run_in_woocommerce_order() {
        let lines = [line("a", 1, 1000, 1)];
        let mut c = percent("ten", 1000);
        c.expires_at = Some(0);
        c.minimum_spend = Some(99_999);
        c.usage_limit = Some(1);
        c.usage_count = 1;
        let applied = [code("ten")];
        let ctx = CartContext {
            applied_codes: &applied,
            ..cart(&lines)
        };
        assert_eq!(
            validate(&c.code, Some(&c), &ctx),
            Err(CouponError::UsageLimitReached)
        );
        c.usage_limit = None;
        assert_eq!(validate(&c.code, Some(&c), &ctx), Err(CouponError::Expired));
        c.expires_at = None;
        assert!(matches!(
            validate(&c.code, Some(&c), &ctx),
            Err(CouponError::MinimumSpendNotMet { minimum: 99_999 })
        ));
        c.minimum_spend = None;
        assert!(matches!(
            validate(&c.code, Some(&c), &ctx),
            Err(CouponError::AlreadyApplied { .. })
        ));
    }

    #[test]
    fn every_error_has_its_own_stable_code() {
        let errors = [
            CouponError::MissingCode,
            CouponError::NotFound { code: "x".into() },
            CouponError::UsageLimitReached,
            CouponError::UserUsageLimitReached,
            CouponError::Expired,
            CouponError::MinimumSpendNotMet { minimum: 1 },
            CouponError::MaximumSpendExceeded { maximum: 1 },
            CouponError::NotApplicable,
            CouponError::NotValidForSaleItems,
            CouponError::ExcludedProducts {
                product_ids: vec![],
            },
            CouponError::ExcludedCategories {
                category_ids: vec![],
            },
            CouponError::NotYours { code: code("x") },
            CouponError::AlreadyApplied { code: code("x") },
            CouponError::IndividualUseOnly { code: code("x") },
        ];
        let mut codes: Vec<&str> = errors.iter().map(CouponError::code).collect();
        assert!(codes
            .iter()
            .all(|c| c.starts_with("woocommerce_rest_cart_coupon_")));
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
    }

    // --- discounts -----------------------------------------------------------------------

    #[test]
    fn percent_coupons_apply_one_after_another_on_the_discounted_price() {
        let lines = [line("a", 1, 10_000, 1)];
        let d = discounts(&[percent("ten", 1000), percent("again", 1000)], &lines);
        assert_eq!(d.per_coupon[&code("ten")], 1000);
        assert_eq!(d.per_coupon[&code("again")], 900);
        assert_eq!(d.per_line["a"], 1900);
    }

    #[test]
    fn percent_takes_fractional_percentages_in_hundredths() {
        let lines = [line("a", 1, 10_000, 1)];
        let d = discounts(&[percent("twelve", 1250)], &lines);
        assert_eq!(d.total(), 1250);
    }

    #[test]
    fn percent_rounding_gives_the_missing_cent_to_the_largest_remainder() {
        // 10% of 333, 333, 334 is 33.3, 33.3, 33.4: 100 in all, the last cent to the 33.4.
        let lines = [
            line("a", 1, 333, 1),
            line("b", 2, 333, 1),
            line("c", 3, 334, 1),
        ];
        let d = discounts(&[percent("ten", 1000)], &lines);
        assert_eq!(per_line(&d), vec![33, 33, 34]);
        assert_eq!(d.total(), 100);
    }

    #[test]
    fn a_hundred_percent_coupon_takes_each_line_to_zero_and_no_further() {
        let lines = [line("a", 1, 999, 3), line("b", 2, 1, 1)];
        let d = discounts(&[percent("all", 10_000), percent("more", 10_000)], &lines);
        assert_eq!(per_line(&d), vec![2997, 1]);
        assert_eq!(d.per_coupon[&code("more")], 0);
    }

    #[test]
    fn limit_to_x_items_discounts_the_most_expensive_units_first() {
        let mut c = percent("half", 5000);
        c.limit_usage_to_x_items = Some(2);
        let lines = [line("cheap", 1, 1000, 2), line("dear", 2, 3000, 1)];
        let d = discounts(&[c], &lines);
        assert_eq!(d.per_line["dear"], 1500);
        assert_eq!(d.per_line["cheap"], 500);
    }

    #[test]
    fn limit_to_x_items_applies_to_fixed_product_coupons_too() {
        let mut c = fixed_product("two_off", 200);
        c.limit_usage_to_x_items = Some(3);
        let lines = [line("a", 1, 1000, 2), line("b", 2, 1000, 2)];
        let d = discounts(&[c], &lines);
        assert_eq!(per_line(&d), vec![400, 200]);
    }

    #[test]
    fn fixed_product_takes_the_amount_off_each_unit_but_never_more_than_the_line() {
        let lines = [line("a", 1, 1000, 3), line("b", 2, 300, 2)];
        let d = discounts(&[fixed_product("five", 500)], &lines);
        assert_eq!(per_line(&d), vec![1500, 600]);
        assert_eq!(d.per_coupon[&code("five")], 2100);
    }

    #[test]
    fn fixed_cart_ten_dollars_over_three_lines_totalling_ten_dollars_clears_each_line() {
        let lines = [
            line("a", 1, 333, 1),
            line("b", 2, 333, 1),
            line("c", 3, 334, 1),
        ];
        let d = discounts(&[fixed_cart("ten", 1000)], &lines);
        assert_eq!(per_line(&d), vec![333, 333, 334]);
    }

    #[test]
    fn fixed_cart_over_three_equal_lines_gives_the_odd_cent_to_the_first_line() {
        let lines = [
            line("a", 1, 1000, 1),
            line("b", 2, 1000, 1),
            line("c", 3, 1000, 1),
        ];
        let d = discounts(&[fixed_cart("ten", 1000)], &lines);
        assert_eq!(per_line(&d), vec![334, 333, 333]);
        assert_eq!(d.total(), 1000);
    }

    #[test]
    fn fixed_cart_is_spread_in_proportion_to_line_prices() {
        let lines = [line("a", 1, 1000, 1), line("b", 2, 1000, 3)];
        let d = discounts(&[fixed_cart("ten", 1000)], &lines);
        assert_eq!(per_line(&d), vec![250, 750]);
    }

    #[test]
    fn fixed_cart_never_takes_more_than_the_cart() {
        let lines = [line("a", 1, 300, 1), line("b", 2, 200, 1)];
        let d = discounts(&[fixed_cart("big", 10_000)], &lines);
        assert_eq!(per_line(&d), vec![300, 200]);
        assert_eq!(d.per_coupon[&code("big")], 500);
    }

    #[test]
    fn fixed_cart_applies_to_the_whole_cart_even_with_a_product_list() {
        let mut c = fixed_cart("ten", 1000);
        c.product_ids = vec![ProductId(1)];
        let lines = [line("a", 1, 1000, 1), line("b", 2, 1000, 1)];
        let d = discounts(&[c], &lines);
        assert_eq!(per_line(&d), vec![500, 500]);
    }

    #[test]
    fn excluded_sale_items_products_and_categories_get_no_discount() {
        let mut c = percent("ten", 1000);
        c.exclude_sale_items = true;
        c.excluded_product_ids = vec![ProductId(9)];
        c.excluded_category_ids = vec![CategoryId(3)];
        let mut variation = line("variation", 91, 1000, 1);
        variation.parent_id = Some(ProductId(9));
        let lines = [
            line("plain", 1, 1000, 1),
            on_sale(line("sale", 2, 1000, 1)),
            variation,
            in_category(line("excluded_category", 4, 1000, 1), 3),
        ];
        let d = discounts(std::slice::from_ref(&c), &lines);
        assert_eq!(d.per_line["plain"], 100);
        assert_eq!(d.per_line["sale"], 0);
        assert_eq!(d.per_line["variation"], 0);
        assert_eq!(d.per_line["excluded_category"], 0);
        assert_eq!(d.total(), 100);
    }

    #[test]
    fn include_lists_limit_percent_coupons_to_matching_lines() {
        let mut c = percent("ten", 1000);
        c.category_ids = vec![CategoryId(4)];
        let lines = [
            in_category(line("book", 1, 1000, 1), 4),
            line("pen", 2, 1000, 1),
        ];
        let d = discounts(&[c], &lines);
        assert_eq!(per_line(&d), vec![100, 0]);
    }

    #[test]
    fn every_line_and_coupon_is_reported_even_without_a_discount() {
        let lines = [line("a", 1, 0, 1)];
        let d = discounts(&[fixed_cart("ten", 1000)], &lines);
        assert_eq!(d.per_line["a"], 0);
        assert_eq!(d.per_coupon[&code("ten")], 0);
    }

    /// A small deterministic generator, so the property test needs no extra crate.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> i64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n) as i64
        }
    }

    #[test]
    fn generated_carts_always_add_up_and_never_go_negative() {
        let mut rng = Lcg(42);
        for round in 0..2_000 {
            let lines: Vec<CouponLine> = (0..1 + rng.below(6))
                .map(|k| {
                    let mut l = line(&format!("l{k}"), k, rng.below(5_000), 1 + rng.below(4));
                    l.on_sale = rng.below(4) == 0;
                    l.category_ids = vec![CategoryId(rng.below(3))];
                    if rng.below(3) == 0 {
                        l.parent_id = Some(ProductId(100 + rng.below(2)));
                    }
                    l
                })
                .collect();
            let coupons: Vec<Coupon> = (0..1 + rng.below(4))
                .map(|k| {
                    let kind = match rng.below(3) {
                        0 => CouponKind::Percent {
                            percent: rng.below(10_001),
                        },
                        1 => CouponKind::FixedCart {
                            amount: rng.below(20_000),
                        },
                        _ => CouponKind::FixedProduct {
                            amount: rng.below(3_000),
                        },
                    };
                    let mut c = coupon(&format!("c{k}"), kind);
                    c.exclude_sale_items = rng.below(2) == 0;
                    if rng.below(3) == 0 {
                        c.limit_usage_to_x_items = Some(1 + rng.below(4));
                    }
                    if rng.below(4) == 0 {
                        c.product_ids = vec![ProductId(rng.below(6)), ProductId(100)];
                    }
                    if rng.below(4) == 0 {
                        c.excluded_category_ids = vec![CategoryId(rng.below(3))];
                    }
                    c
                })
                .collect();

            let d = discounts(&coupons, &lines);
            let line_sum: i64 = d.per_line.values().sum();
            let coupon_sum: i64 = d.per_coupon.values().sum();
            assert_eq!(line_sum, coupon_sum, "round {round}");
            for l in &lines {
                let off = d.per_line[&l.key];
                assert!(
                    off >= 0 && off <= l.line_subtotal,
                    "round {round}: {off} off {l:?}"
                );
            }
            assert!(d.per_coupon.values().all(|&v| v >= 0), "round {round}");

            // A lone fixed-cart coupon takes exactly its amount, or the whole eligible cart.
            let single = fixed_cart("solo", rng.below(20_000));
            let eligible: i64 = lines.iter().map(|l| l.line_subtotal).sum();
            let d = discounts(std::slice::from_ref(&single), &lines);
            let CouponKind::FixedCart { amount } = single.kind else {
                unreachable!()
            };
            assert_eq!(d.total(), amount.min(eligible), "round {round}");
        }
    }
}
