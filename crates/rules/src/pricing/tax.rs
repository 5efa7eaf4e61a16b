//! Taxes the way the original WooCommerce shop computed them: the tax-rate table, which
//! rates apply to an address, how much tax a line or the shipping carries, and the
//! per-rate tax lines an order shows. Amounts are `i64` minor units; rates are integers.
//!
//! # Rounding rule
//!
//! Every tax amount is computed **per line, per rate**, with exact integer arithmetic
//! (`amount × rate / 1_000_000` as a fraction of `i128`s) and rounded **once**, half away
//! from zero (0.5 cent → 1 cent, −0.5 cent → −1 cent), at line level:
//!
//! - *Prices exclusive of tax*: each simple rate taxes the line amount; each compound rate
//!   (in priority order) taxes the line amount plus the already-rounded taxes before it.
//!   `gross = net + Σ taxes`.
//! - *Prices inclusive of tax*: the compound taxes are peeled off first, outermost (highest
//!   priority) first, each as `price × rate / (1 + rate)` of what remains; then the simple
//!   taxes share what is left as `remaining × rate_i / (1 + Σ simple rates)`. Each is rounded
//!   as above, and `net = gross − Σ rounded taxes`, so the parts always sum to the gross.
//! - A line is `unit price × quantity`, taxed as a whole (never per unit).
//! - Order totals (per rate, tax, net) are sums of the rounded line values, so an order's
//!   total always equals the sum of its lines to the cent.

use std::fmt;

use serde::{Deserialize, Serialize};

/// 100% in the units of [`Percentage`].
const HUNDRED_PERCENT: i64 = 1_000_000;

/// A tax percentage as an integer count of ten-thousandths of a percent: 20% is `200_000`,
/// 8.875% is `88_750`. WooCommerce stores rates with four decimals, so this is exact and
/// keeps floating point out of money.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Percentage {
    ten_thousandths: i64,
}

impl Percentage {
    pub const ZERO: Percentage = Percentage { ten_thousandths: 0 };

    pub const fn from_ten_thousandths(ten_thousandths: i64) -> Self {
        Self { ten_thousandths }
    }

    pub const fn ten_thousandths(self) -> i64 {
        self.ten_thousandths
    }

    /// Parses a percentage as WooCommerce writes it ("20", "8.875", "9.9750"): digits with at
    /// most four decimals, not negative. Anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || fraction.len() > 4 {
            return None;
        }
        let whole: i64 = whole.parse().ok()?;
        let fraction: i64 = format!("{fraction:0<4}").parse().ok()?;
        let ten_thousandths = whole.checked_mul(10_000)?.checked_add(fraction)?;
        Some(Self { ten_thousandths })
    }
}

/// Written like WooCommerce's `get_rate_percent`: trailing zeros trimmed, "20%", "8.875%".
impl fmt::Display for Percentage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.ten_thousandths / 10_000;
        let fraction = (self.ten_thousandths % 10_000).abs();
        if fraction == 0 {
            write!(f, "{whole}%")
        } else {
            let digits = format!("{fraction:04}");
            write!(f, "{whole}.{}%", digits.trim_end_matches('0'))
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TaxRateId(pub u64);

/// A tax class slug. The standard class is the empty slug, as in WooCommerce.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TaxClass(pub String);

impl TaxClass {
    pub fn standard() -> Self {
        Self(String::new())
    }

    pub fn reduced_rate() -> Self {
        Self("reduced-rate".into())
    }

    pub fn zero_rate() -> Self {
        Self("zero-rate".into())
    }
}

/// One row of the tax-rate table. Empty location fields match any address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaxRate {
    pub id: TaxRateId,
    /// ISO 3166-1 alpha-2; empty matches every country.
    pub country: String,
    /// State code within `country`; empty matches every state.
    pub state: String,
    /// Exact codes, prefix wildcards ("SW1*") or numeric ranges ("90210...90299").
    pub postcodes: Vec<String>,
    /// Compared case-insensitively.
    pub cities: Vec<String>,
    pub rate: Percentage,
    /// The label shown on tax lines ("VAT").
    pub name: String,
    /// Only one rate per priority applies to an address.
    pub priority: u32,
    /// Taxes the price plus the taxes of the earlier rates instead of the bare price.
    pub compound: bool,
    /// Whether the rate also taxes shipping costs.
    pub shipping: bool,
    pub class: TaxClass,
}

/// The address taxes are based on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub country: String,
    pub state: String,
    pub postcode: String,
    pub city: String,
}

/// The shop setting for how catalogue prices are entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PricesEntered {
    ExclusiveOfTax,
    InclusiveOfTax,
}

/// The shop setting for how prices are shown in the shop and cart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaxDisplay {
    IncludingTax,
    ExcludingTax,
}

/// The tax one rate put on one line, already rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateTax {
    pub rate_id: TaxRateId,
    pub amount: i64,
}

/// A line (or a shipping cost) split into its net amount and rounded taxes;
/// `net + Σ taxes == gross` always holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineTax {
    pub net: i64,
    pub taxes: Vec<RateTax>,
    pub gross: i64,
}

impl LineTax {
    pub fn total_tax(&self) -> i64 {
        self.taxes.iter().map(|tax| tax.amount).sum()
    }
}

/// One tax line of an order, like WooCommerce's `tax_lines` entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaxLine {
    pub rate_id: TaxRateId,
    pub name: String,
    pub rate: Percentage,
    pub compound: bool,
    /// Tax on the order's lines.
    pub tax_total: i64,
    /// Tax on the order's shipping.
    pub shipping_tax_total: i64,
}

impl TaxLine {
    /// What the Store API shows as the tax line's `price`.
    pub fn total(&self) -> i64 {
        self.tax_total + self.shipping_tax_total
    }
}

/// Upper-cased and stripped of spaces and dashes, like WooCommerce's
/// `wc_normalize_postcode`, so "sw1a 1aa" and "SW1A1AA" are the same postcode.
fn normalize_postcode(postcode: &str) -> String {
    postcode
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// Whether `postcode` matches one postcode pattern: an exact code, a prefix wildcard
/// ("SW1*") or an inclusive numeric range ("90210...90299"). Shared with shipping zones,
/// which use the same patterns.
pub fn postcode_matches(pattern: &str, postcode: &str) -> bool {
    let postcode = normalize_postcode(postcode);
    if let Some((low, high)) = pattern.split_once("...") {
        let number = |s: &str| -> Option<u64> {
            let s = normalize_postcode(s);
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        };
        return match (number(low), number(high), number(&postcode)) {
            (Some(low), Some(high), Some(code)) => (low..=high).contains(&code),
            _ => false,
        };
    }
    let pattern = normalize_postcode(pattern);
    match pattern.strip_suffix('*') {
        Some(prefix) => postcode.starts_with(prefix),
        None => postcode == pattern,
    }
}

impl TaxRate {
    fn matches(&self, class: &TaxClass, location: &Location) -> bool {
        self.class == *class
            && (self.country.is_empty() || self.country.eq_ignore_ascii_case(&location.country))
            && (self.state.is_empty() || self.state.eq_ignore_ascii_case(&location.state))
            && (self.postcodes.is_empty()
                || self
                    .postcodes
                    .iter()
                    .any(|pattern| postcode_matches(pattern, &location.postcode)))
            && (self.cities.is_empty()
                || self
                    .cities
                    .iter()
                    .any(|city| city.trim().eq_ignore_ascii_case(location.city.trim())))
    }

    /// How narrowly the rate is targeted; within one priority the most specific match wins,
    /// so a city or postcode rate overrides a state one, which overrides a country one.
    fn specificity(&self) -> u8 {
        let mut score = 0;
        if !self.country.is_empty() {
            score += 1;
        }
        if !self.state.is_empty() {
            score += 2;
        }
        if !self.postcodes.is_empty() || !self.cities.is_empty() {
            score += 4;
        }
        score
    }
}

/// The rates of `class` that apply at `location`: at most one per priority (the most
/// specific; on a tie the first in the table), ordered by priority.
pub fn find_rates<'a>(
    rates: &'a [TaxRate],
    class: &TaxClass,
    location: &Location,
) -> Vec<&'a TaxRate> {
    let mut found: Vec<&TaxRate> = Vec::new();
    for rate in rates.iter().filter(|rate| rate.matches(class, location)) {
        match found
            .iter_mut()
            .find(|chosen| chosen.priority == rate.priority)
        {
            Some(chosen) if rate.specificity() > chosen.specificity() => *chosen = rate,
            Some(_) => {}
            None => found.push(rate),
        }
    }
    found.sort_by_key(|rate| rate.priority);
    found
}

/// The rates that tax shipping at `location` for the shipping tax class (the standard class
/// unless the shop says otherwise). As in WooCommerce, the one-per-priority choice is made
/// first and rates that do not tax shipping are dropped after.
pub fn find_shipping_rates<'a>(
    rates: &'a [TaxRate],
    class: &TaxClass,
    location: &Location,
) -> Vec<&'a TaxRate> {
    find_rates(rates, class, location)
        .into_iter()
        .filter(|rate| rate.shipping)
        .collect()
}

/// `numerator / denominator` rounded half away from zero. `denominator` is positive.
fn divide_rounding_half_away(numerator: i128, denominator: i128) -> i64 {
    let quotient = numerator / denominator;
    let remainder = numerator % denominator;
    let rounded = if remainder.abs() * 2 >= denominator {
        quotient + numerator.signum()
    } else {
        quotient
    };
    // Tax on an amount that fits i64 is smaller than the amount for any rate below 100%
    // and only absurd rates overflow; saturate rather than wrap.
    rounded.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// Taxes for an amount (`unit price × quantity`, in minor units) under `rates`, following
/// the rounding rule in the module documentation. `rates` are expected in priority order,
/// as [`find_rates`] returns them.
pub fn tax_line(amount: i64, rates: &[&TaxRate], entered: PricesEntered) -> LineTax {
    match entered {
        PricesEntered::ExclusiveOfTax => tax_exclusive(amount, rates),
        PricesEntered::InclusiveOfTax => tax_inclusive(amount, rates),
    }
}

fn tax_exclusive(net: i64, rates: &[&TaxRate]) -> LineTax {
    let scale = HUNDRED_PERCENT as i128;
    let mut taxes: Vec<RateTax> = rates
        .iter()
        .filter(|rate| !rate.compound)
        .map(|rate| RateTax {
            rate_id: rate.id,
            amount: divide_rounding_half_away(
                net as i128 * rate.rate.ten_thousandths as i128,
                scale,
            ),
        })
        .collect();
    for rate in rates.iter().filter(|rate| rate.compound) {
        let base = net as i128 + taxes.iter().map(|tax| tax.amount as i128).sum::<i128>();
        taxes.push(RateTax {
            rate_id: rate.id,
            amount: divide_rounding_half_away(base * rate.rate.ten_thousandths as i128, scale),
        });
    }
    let gross = net.saturating_add(taxes.iter().map(|tax| tax.amount).sum());
    LineTax { net, taxes, gross }
}

fn tax_inclusive(gross: i64, rates: &[&TaxRate]) -> LineTax {
    let scale = HUNDRED_PERCENT as i128;
    // Compound taxes wrap everything before them, so they come off first, outermost first.
    let mut remaining = gross as i128;
    let mut compound_taxes = Vec::new();
    for rate in rates.iter().rev().filter(|rate| rate.compound) {
        let r = rate.rate.ten_thousandths as i128;
        let amount = divide_rounding_half_away(remaining * r, scale + r);
        remaining -= amount as i128;
        compound_taxes.push(RateTax {
            rate_id: rate.id,
            amount,
        });
    }
    let simple_total: i128 = rates
        .iter()
        .filter(|rate| !rate.compound)
        .map(|rate| rate.rate.ten_thousandths as i128)
        .sum();
    let mut taxes: Vec<RateTax> = rates
        .iter()
        .filter(|rate| !rate.compound)
        .map(|rate| RateTax {
            rate_id: rate.id,
            amount: divide_rounding_half_away(
                remaining * rate.rate.ten_thousandths as i128,
                scale + simple_total,
            ),
        })
        .collect();
    // Report compound taxes in priority order, like the exclusive case.
    taxes.extend(compound_taxes.into_iter().rev());
    let net = gross.saturating_sub(taxes.iter().map(|tax| tax.amount).sum());
    LineTax { net, taxes, gross }
}

/// Tax on a shipping cost. Shipping costs are always entered exclusive of tax, and only
/// rates with the `shipping` flag tax them (a rate list from [`find_rates`] may be passed as
/// is). Use [`find_shipping_rates`] to pick the rates.
pub fn tax_shipping(cost: i64, rates: &[&TaxRate]) -> LineTax {
    let shipping_rates: Vec<&TaxRate> =
        rates.iter().copied().filter(|rate| rate.shipping).collect();
    tax_exclusive(cost, &shipping_rates)
}

/// The price to show for `quantity` of a product whose price was entered as `entered`,
/// under the shop's display setting. The line is taxed as a whole, so the shown line price
/// is the one the order will charge.
pub fn display_price(
    unit_price: i64,
    quantity: i64,
    rates: &[&TaxRate],
    entered: PricesEntered,
    display: TaxDisplay,
) -> i64 {
    let line = tax_line(unit_price.saturating_mul(quantity), rates, entered);
    match display {
        TaxDisplay::IncludingTax => line.gross,
        TaxDisplay::ExcludingTax => line.net,
    }
}

/// The order's tax lines: one per rate that taxed a line or the shipping, in priority
/// order, with totals that are sums of the rounded line taxes. A rate id missing from
/// `rates` is still counted, labelled "Tax" as WooCommerce does, so no tax goes unreported.
pub fn tax_lines(rates: &[TaxRate], items: &[LineTax], shipping: &[LineTax]) -> Vec<TaxLine> {
    let mut lines: Vec<TaxLine> = Vec::new();
    let mut add = |tax: &RateTax, is_shipping: bool| {
        let index = match lines.iter().position(|line| line.rate_id == tax.rate_id) {
            Some(index) => index,
            None => {
                let rate = rates.iter().find(|rate| rate.id == tax.rate_id);
                lines.push(TaxLine {
                    rate_id: tax.rate_id,
                    name: rate.map_or_else(|| "Tax".to_string(), |rate| rate.name.clone()),
                    rate: rate.map_or(Percentage::ZERO, |rate| rate.rate),
                    compound: rate.is_some_and(|rate| rate.compound),
                    tax_total: 0,
                    shipping_tax_total: 0,
                });
                lines.len() - 1
            }
        };
        let line = &mut lines[index];
        if is_shipping {
            line.shipping_tax_total += tax.amount;
        } else {
            line.tax_total += tax.amount;
        }
    };
    for tax in items.iter().flat_map(|line| &line.taxes) {
        add(tax, false);
    }
    for tax in shipping.iter().flat_map(|line| &line.taxes) {
        add(tax, true);
    }
    let priority = |id: TaxRateId| {
        rates
            .iter()
            .find(|rate| rate.id == id)
            .map_or(u32::MAX, |rate| rate.priority)
    };
    lines.sort_by_key(|line| (priority(line.rate_id), line.rate_id));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(found: &[&TaxRate]) -> Vec<TaxRateId> {
        found.iter().map(|r| r.id).collect()
    }

    fn rate(id: u64, country: &str, percent: &str) -> TaxRate {
        TaxRate {
            id: TaxRateId(id),
            country: country.into(),
            state: String::new(),
            postcodes: Vec::new(),
            cities: Vec::new(),
            rate: Percentage::parse(percent).unwrap(),
            name: "VAT".into(),
            priority: 1,
            compound: false,
            shipping: true,
            class: TaxClass::standard(),
        }
    }

    fn at(country: &str, state: &str, postcode: &str, city: &str) -> Location {
        Location {
            country: country.into(),
            state: state.into(),
            postcode: postcode.into(),
            city: city.into(),
        }
    }

    fn canada() -> Vec<TaxRate> {
        let gst = TaxRate {
            name: "GST".into(),
            ..rate(1, "CA", "5")
        };
        let qst = TaxRate {
            name: "QST".into(),
            state: "QC".into(),
            priority: 2,
            compound: true,
            ..rate(2, "CA", "9.975")
        };
        vec![gst, qst]
    }

    fn amounts(line: &LineTax) -> Vec<i64> {
        line.taxes.iter().map(|tax| tax.amount).collect()
    }

    #[test]
    fn percentages_parse_woocommerce_strings_exactly() {
        assert_eq!(
            Percentage::parse("20"),
            Some(Percentage::from_ten_thousandths(200_000))
        );
        assert_eq!(
            Percentage::parse("8.875"),
            Some(Percentage::from_ten_thousandths(88_750))
        );
        assert_eq!(
            Percentage::parse("9.9750"),
            Some(Percentage::from_ten_thousandths(99_750))
        );
        assert_eq!(Percentage::parse(" 0 "), Some(Percentage::ZERO));
    }

    #[test]
    fn percentages_reject_signs_junk_and_more_than_four_decimals() {
        for bad in ["", "-5", "5%", "abc", "1.23456", ".5", "1.2.3", "1e3"] {
            assert_eq!(Percentage::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn percentages_display_without_trailing_zeros() {
        assert_eq!(Percentage::from_ten_thousandths(200_000).to_string(), "20%");
        assert_eq!(
            Percentage::from_ten_thousandths(88_750).to_string(),
            "8.875%"
        );
        assert_eq!(
            Percentage::from_ten_thousandths(99_750).to_string(),
            "9.975%"
        );
    }

    #[test]
    fn percentages_serialize_as_an_integer() {
        let json = serde_json::to_string(&Percentage::from_ten_thousandths(88_750)).unwrap();
        assert_eq!(json, "88750");
    }

    #[test]
    fn postcodes_match_exactly_ignoring_case_and_spaces() {
        assert!(postcode_matches("SW1A 1AA", "sw1a1aa"));
        assert!(!postcode_matches("SW1A 1AA", "SW1A 1AB"));
    }

    #[test]
    fn postcodes_match_a_prefix_wildcard() {
        assert!(postcode_matches("SW1*", "SW1A 1AA"));
        assert!(postcode_matches("sw1*", "SW1"));
        assert!(!postcode_matches("SW1*", "SE1 7PB"));
    }

    #[test]
    fn postcodes_match_an_inclusive_numeric_range() {
        assert!(postcode_matches("90210...90299", "90210"));
        assert!(postcode_matches("90210...90299", "90250"));
        assert!(postcode_matches("90210...90299", "90299"));
        assert!(!postcode_matches("90210...90299", "90300"));
        assert!(!postcode_matches("90210...90299", "9021A"));
    }

    #[test]
    fn find_rates_matches_country_and_ignores_other_countries() {
        let rates = vec![rate(1, "GB", "20"), rate(2, "DE", "19")];
        let found = find_rates(&rates, &TaxClass::standard(), &at("DE", "", "", ""));
        assert_eq!(ids(&found), vec![TaxRateId(2)]);
    }

    #[test]
    fn find_rates_treats_empty_location_fields_as_any() {
        let rates = vec![rate(1, "", "10")];
        assert_eq!(
            find_rates(
                &rates,
                &TaxClass::standard(),
                &at("JP", "13", "100-0001", "Tokyo")
            )
            .len(),
            1
        );
    }

    #[test]
    fn find_rates_only_uses_rates_of_the_requested_class() {
        let rates = vec![
            rate(1, "GB", "20"),
            TaxRate {
                class: TaxClass::reduced_rate(),
                ..rate(2, "GB", "5")
            },
        ];
        let found = find_rates(&rates, &TaxClass::reduced_rate(), &at("GB", "", "", ""));
        assert_eq!(ids(&found), vec![TaxRateId(2)]);
    }

    #[test]
    fn find_rates_keeps_one_rate_per_priority_preferring_the_most_specific() {
        let rates = vec![
            rate(1, "US", "4"),
            TaxRate {
                state: "CA".into(),
                ..rate(2, "US", "7.25")
            },
            TaxRate {
                state: "CA".into(),
                postcodes: vec!["90210...90299".into()],
                ..rate(3, "US", "9.5")
            },
            TaxRate {
                priority: 2,
                ..rate(4, "US", "1")
            },
        ];
        let found = find_rates(&rates, &TaxClass::standard(), &at("US", "CA", "90210", ""));
        assert_eq!(ids(&found), vec![TaxRateId(3), TaxRateId(4)]);
        let found = find_rates(&rates, &TaxClass::standard(), &at("US", "CA", "94016", ""));
        assert_eq!(ids(&found), vec![TaxRateId(2), TaxRateId(4)]);
    }

    #[test]
    fn find_rates_prefers_the_first_of_equally_specific_rates() {
        let rates = vec![rate(1, "GB", "20"), rate(2, "GB", "17.5")];
        let found = find_rates(&rates, &TaxClass::standard(), &at("GB", "", "", ""));
        assert_eq!(ids(&found), vec![TaxRateId(1)]);
    }

    #[test]
    fn find_rates_orders_by_priority_whatever_the_table_order() {
        let rates = vec![
            TaxRate {
                priority: 3,
                ..rate(1, "US", "1")
            },
            rate(2, "US", "2"),
        ];
        let found = find_rates(&rates, &TaxClass::standard(), &at("US", "", "", ""));
        assert_eq!(ids(&found), vec![TaxRateId(2), TaxRateId(1)]);
    }

    #[test]
    fn find_rates_matches_cities_case_insensitively() {
        let rates = vec![TaxRate {
            cities: vec!["New York".into()],
            ..rate(1, "US", "4.5")
        }];
        assert_eq!(
            find_rates(
                &rates,
                &TaxClass::standard(),
                &at("US", "NY", "", "NEW YORK")
            )
            .len(),
            1
        );
        assert!(
            find_rates(&rates, &TaxClass::standard(), &at("US", "NY", "", "Albany")).is_empty()
        );
    }

    #[test]
    fn find_rates_requires_a_postcode_match_when_the_rate_lists_postcodes() {
        let rates = vec![TaxRate {
            postcodes: vec!["SW1*".into(), "EC1A 1BB".into()],
            ..rate(1, "GB", "20")
        }];
        assert_eq!(
            find_rates(&rates, &TaxClass::standard(), &at("GB", "", "ec1a1bb", "")).len(),
            1
        );
        assert!(find_rates(&rates, &TaxClass::standard(), &at("GB", "", "M1 1AE", "")).is_empty());
    }

    #[test]
    fn exclusive_prices_add_tax_rounded_half_up() {
        let vat = rate(1, "GB", "20");
        let line = tax_line(1000, &[&vat], PricesEntered::ExclusiveOfTax);
        assert_eq!((line.net, line.total_tax(), line.gross), (1000, 200, 1200));
        // 0.125 → 0.13: half a cent rounds up.
        let line = tax_line(
            125,
            &[&TaxRate {
                rate: Percentage::parse("10").unwrap(),
                ..vat
            }],
            PricesEntered::ExclusiveOfTax,
        );
        assert_eq!(line.total_tax(), 13);
    }

    #[test]
    fn negative_amounts_round_half_away_from_zero() {
        let ten = rate(1, "GB", "10");
        let line = tax_line(-125, &[&ten], PricesEntered::ExclusiveOfTax);
        assert_eq!((line.total_tax(), line.gross), (-13, -138));
    }

    #[test]
    fn three_at_thirty_three_cents_and_19_percent_are_taxed_as_one_line() {
        let mwst = rate(1, "DE", "19");
        // 0.99 × 19% = 0.1881 → 0.19; per unit it would have been 3 × 0.06 = 0.18.
        let line = tax_line(33 * 3, &[&mwst], PricesEntered::ExclusiveOfTax);
        assert_eq!((line.net, line.total_tax(), line.gross), (99, 19, 118));
    }

    #[test]
    fn three_separate_lines_at_thirty_three_cents_round_each_line() {
        let mwst = rate(1, "DE", "19");
        let lines: Vec<LineTax> = (0..3)
            .map(|_| tax_line(33, &[&mwst], PricesEntered::ExclusiveOfTax))
            .collect();
        assert_eq!(lines.iter().map(LineTax::total_tax).sum::<i64>(), 18);
        let summary = tax_lines(&[mwst], &lines, &[]);
        assert_eq!(summary[0].tax_total, 18);
    }

    #[test]
    fn inclusive_ten_pounds_at_20_percent_splits_into_8_33_and_1_67() {
        let vat = rate(1, "GB", "20");
        let line = tax_line(1000, &[&vat], PricesEntered::InclusiveOfTax);
        assert_eq!((line.net, line.total_tax(), line.gross), (833, 167, 1000));
    }

    #[test]
    fn inclusive_prices_always_split_exactly_into_net_plus_taxes() {
        let rates = canada();
        let chosen: Vec<&TaxRate> = rates.iter().collect();
        let with_state = [rate(3, "US", "8.875")];
        for gross in [1, 3, 99, 100, 101, 999, 1000, 12_345, 99_999] {
            for set in [chosen.clone(), vec![&with_state[0]]] {
                let line = tax_line(gross, &set, PricesEntered::InclusiveOfTax);
                assert_eq!(line.net + line.total_tax(), gross, "{gross}");
                assert_eq!(line.gross, gross);
            }
        }
    }

    #[test]
    fn canadian_gst_and_compound_qst_tax_the_gst_too() {
        let rates = canada();
        let found = find_rates(
            &rates,
            &TaxClass::standard(),
            &at("CA", "QC", "H2X 1Y4", "Montréal"),
        );
        let line = tax_line(10_000, &found, PricesEntered::ExclusiveOfTax);
        // GST 5% of 100.00 = 5.00; QST 9.975% of 105.00 = 10.47375 → 10.47.
        assert_eq!(amounts(&line), vec![500, 1047]);
        assert_eq!(line.gross, 11_547);
    }

    #[test]
    fn canadian_gst_and_simple_qst_both_tax_the_bare_price() {
        let mut rates = canada();
        rates[1].compound = false;
        let found = find_rates(&rates, &TaxClass::standard(), &at("CA", "QC", "", ""));
        let line = tax_line(10_000, &found, PricesEntered::ExclusiveOfTax);
        // QST 9.975% of 100.00 = 9.975 → 9.98 (half up).
        assert_eq!(amounts(&line), vec![500, 998]);
        assert_eq!(line.gross, 11_498);
    }

    #[test]
    fn compound_rates_apply_after_simple_ones_even_if_listed_first() {
        let rates = canada();
        let reversed = [&rates[1], &rates[0]];
        let line = tax_line(10_000, &reversed, PricesEntered::ExclusiveOfTax);
        assert_eq!(line.total_tax(), 1547);
    }

    #[test]
    fn inclusive_compound_taxes_come_off_before_the_simple_ones() {
        let rates = canada();
        let found: Vec<&TaxRate> = rates.iter().collect();
        let line = tax_line(11_547, &found, PricesEntered::InclusiveOfTax);
        // 115.47 × 9.975/109.975 = 10.4735… → 10.47; 105.00 × 5/105 = 5.00.
        assert_eq!(amounts(&line), vec![500, 1047]);
        assert_eq!(line.net, 10_000);
    }

    #[test]
    fn inclusive_simple_rates_share_the_price_by_their_weight() {
        let rates = canada();
        let simple = [
            &rates[0],
            &TaxRate {
                compound: false,
                ..rates[1].clone()
            },
        ];
        let line = tax_line(11_498, &simple, PricesEntered::InclusiveOfTax);
        assert_eq!(amounts(&line), vec![500, 998]);
        assert_eq!(line.net, 10_000);
    }

    #[test]
    fn zero_rate_class_adds_no_tax() {
        let rates = vec![
            rate(1, "GB", "20"),
            TaxRate {
                class: TaxClass::zero_rate(),
                ..rate(2, "GB", "0")
            },
        ];
        let found = find_rates(&rates, &TaxClass::zero_rate(), &at("GB", "", "", ""));
        for entered in [PricesEntered::ExclusiveOfTax, PricesEntered::InclusiveOfTax] {
            let line = tax_line(1000, &found, entered);
            assert_eq!((line.net, line.total_tax(), line.gross), (1000, 0, 1000));
        }
    }

    #[test]
    fn an_amount_without_rates_is_untaxed() {
        let line = tax_line(1234, &[], PricesEntered::InclusiveOfTax);
        assert_eq!((line.net, line.taxes.len(), line.gross), (1234, 0, 1234));
    }

    #[test]
    fn shipping_is_taxed_only_by_rates_flagged_for_shipping() {
        let vat = rate(1, "GB", "20");
        let not_shipping = TaxRate {
            shipping: false,
            priority: 2,
            ..rate(2, "GB", "5")
        };
        let line = tax_shipping(499, &[&vat, &not_shipping]);
        // 4.99 × 20% = 0.998 → 1.00.
        assert_eq!(amounts(&line), vec![100]);
        assert_eq!(line.gross, 599);
    }

    #[test]
    fn shipping_rates_drop_non_shipping_rates_after_choosing_per_priority() {
        let rates = vec![
            TaxRate {
                state: "CA".into(),
                shipping: false,
                ..rate(1, "US", "7.25")
            },
            rate(2, "US", "4"),
        ];
        // The state rate wins priority 1 and does not tax shipping, so nothing does.
        assert!(
            find_shipping_rates(&rates, &TaxClass::standard(), &at("US", "CA", "", "")).is_empty()
        );
        assert_eq!(
            find_shipping_rates(&rates, &TaxClass::standard(), &at("US", "NY", "", "")).len(),
            1
        );
    }

    #[test]
    fn display_price_shows_the_line_including_or_excluding_tax() {
        let vat = rate(1, "GB", "20");
        let show = |entered, display| display_price(1000, 3, &[&vat], entered, display);
        assert_eq!(
            show(PricesEntered::ExclusiveOfTax, TaxDisplay::IncludingTax),
            3600
        );
        assert_eq!(
            show(PricesEntered::ExclusiveOfTax, TaxDisplay::ExcludingTax),
            3000
        );
        assert_eq!(
            show(PricesEntered::InclusiveOfTax, TaxDisplay::IncludingTax),
            3000
        );
        assert_eq!(
            show(PricesEntered::InclusiveOfTax, TaxDisplay::ExcludingTax),
            2500
        );
    }

    #[test]
    fn tax_lines_sum_line_and_shipping_taxes_per_rate_in_priority_order() {
        let rates = canada();
        let found = find_rates(&rates, &TaxClass::standard(), &at("CA", "QC", "", ""));
        let items = vec![
            tax_line(10_000, &found, PricesEntered::ExclusiveOfTax),
            tax_line(3_333, &found, PricesEntered::ExclusiveOfTax),
        ];
        let shipping = vec![tax_shipping(1_000, &found)];
        let summary = tax_lines(&rates, &items, &shipping);

        assert_eq!(summary.len(), 2);
        assert_eq!(
            (
                summary[0].name.as_str(),
                summary[0].rate.to_string(),
                summary[0].compound
            ),
            ("GST", "5%".to_string(), false)
        );
        assert_eq!(
            (summary[1].name.as_str(), summary[1].compound),
            ("QST", true)
        );
        for (index, tax_line) in summary.iter().enumerate() {
            let items_sum: i64 = items.iter().map(|line| line.taxes[index].amount).sum();
            assert_eq!(tax_line.tax_total, items_sum);
            assert_eq!(tax_line.shipping_tax_total, shipping[0].taxes[index].amount);
        }
        let order_tax: i64 = items.iter().chain(&shipping).map(LineTax::total_tax).sum();
        assert_eq!(summary.iter().map(TaxLine::total).sum::<i64>(), order_tax);
    }

    #[test]
    fn order_totals_equal_the_sum_of_their_lines() {
        let vat = rate(1, "GB", "20");
        let items: Vec<LineTax> = [333, 1, 1999, 5]
            .into_iter()
            .map(|amount| tax_line(amount, &[&vat], PricesEntered::InclusiveOfTax))
            .collect();
        let gross: i64 = items.iter().map(|line| line.gross).sum();
        let net: i64 = items.iter().map(|line| line.net).sum();
        let summary = tax_lines(&[vat], &items, &[]);
        assert_eq!(gross, 333 + 1 + 1999 + 5);
        assert_eq!(net + summary[0].total(), gross);
    }

    #[test]
    fn tax_lines_label_an_unknown_rate_tax_rather_than_dropping_it() {
        let line = LineTax {
            net: 100,
            taxes: vec![RateTax {
                rate_id: TaxRateId(9),
                amount: 7,
            }],
            gross: 107,
        };
        let summary = tax_lines(&[], &[line], &[]);
        assert_eq!((summary[0].name.as_str(), summary[0].tax_total), ("Tax", 7));
    }

    #[test]
    fn tax_rates_round_trip_through_json() {
        let original = canada();
        let json = serde_json::to_string(&original).unwrap();
        let back: Vec<TaxRate> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, original);
        assert!(json.contains("\"rate\":99750"));
    }
}
