//! Shipping the way the original WooCommerce shop priced it: zones that an address falls
//! into, the methods each zone offers (flat rate, free shipping, local pickup), and the
//! rates those methods quote for a package. Costs are `i64` minor units, entered excl. tax.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::tax::postcode_matches;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ZoneId(pub u64);

impl ZoneId {
    /// WooCommerce's id for the "rest of the world" zone.
    pub const REST_OF_WORLD: ZoneId = ZoneId(0);
}

/// Identifies one configured method within the shop, as in rate ids "flat_rate:3".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct InstanceId(pub u64);

/// A shipping zone: the regions it covers and the methods offered there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShippingZone {
    pub id: ZoneId,
    pub name: String,
    /// Zones are tried lowest order first.
    pub order: i32,
    /// ISO 3166-1 alpha-2 codes ("GB").
    pub countries: Vec<String>,
    /// Country and state codes joined by a colon ("US:CA").
    pub states: Vec<String>,
    /// Exact codes, prefix wildcards ("CB*") or numeric ranges ("90210...90299"). When
    /// present, an address must match one of them as well as a country or state.
    pub postcodes: Vec<String>,
    pub methods: Vec<ShippingMethod>,
}

impl ShippingZone {
    /// The zone that catches addresses no other zone covers.
    pub fn rest_of_world(methods: Vec<ShippingMethod>) -> Self {
        Self {
            id: ZoneId::REST_OF_WORLD,
            name: "Locations not covered by your other zones".into(),
            order: 0,
            countries: Vec::new(),
            states: Vec::new(),
            postcodes: Vec::new(),
            methods,
        }
    }

    /// A zone needs a country or state to match anything: a zone listing only postcodes (or
    /// nothing yet, while being set up) must not swallow addresses from every country.
    fn covers(&self, destination: &Destination) -> bool {
        let country = destination.country.trim();
        let in_country = self
            .countries
            .iter()
            .any(|code| code.trim().eq_ignore_ascii_case(country));
        let in_state = self.states.iter().any(|code| {
            code.split_once(':')
                .is_some_and(|(zone_country, zone_state)| {
                    zone_country.trim().eq_ignore_ascii_case(country)
                        && zone_state
                            .trim()
                            .eq_ignore_ascii_case(destination.state.trim())
                })
        });
        let postcode_ok = self.postcodes.is_empty()
            || self
                .postcodes
                .iter()
                .any(|pattern| postcode_matches(pattern, &destination.postcode));
        (in_country || in_state) && postcode_ok
    }
}

/// All of the shop's zones. The rest-of-the-world zone is kept apart so there is always
/// a zone to return.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShippingZones {
    pub zones: Vec<ShippingZone>,
    pub rest_of_world: ShippingZone,
}

/// Where a package goes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Destination {
    pub country: String,
    pub state: String,
    pub postcode: String,
}

/// The zone for a destination: the first zone covering it by `order` (then by id, as
/// WooCommerce sorts them), else the rest of the world.
pub fn zone_for<'a>(zones: &'a ShippingZones, destination: &Destination) -> &'a ShippingZone {
    zones
        .zones
        .iter()
        .filter(|zone| zone.covers(destination))
        .min_by_key(|zone| (zone.order, zone.id))
        .unwrap_or(&zones.rest_of_world)
}

/// One method configured in a zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShippingMethod {
    pub instance_id: InstanceId,
    pub title: String,
    pub enabled: bool,
    #[serde(flatten)]
    pub settings: MethodSettings,
}

/// The method and its own settings; serialized with WooCommerce's `method_id` as the tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "method_id", rename_all = "snake_case")]
pub enum MethodSettings {
    FlatRate(FlatRate),
    FreeShipping(FreeShipping),
    LocalPickup(LocalPickup),
}

impl MethodSettings {
    pub fn method_id(&self) -> &'static str {
        match self {
            MethodSettings::FlatRate(_) => "flat_rate",
            MethodSettings::FreeShipping(_) => "free_shipping",
            MethodSettings::LocalPickup(_) => "local_pickup",
        }
    }
}

/// How a flat rate combines the costs of the shipping classes in a package.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClassCalculation {
    /// Each class in the package adds its cost.
    PerClass,
    /// Only the most expensive class in the package is charged.
    PerOrder,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlatRate {
    /// Charged once per package.
    pub cost: i64,
    /// Charged for every item (sum of quantities) in the package.
    pub cost_per_item: i64,
    /// Cost per shipping class slug.
    pub class_costs: BTreeMap<String, i64>,
    /// Cost for products without a shipping class, and for classes missing from
    /// `class_costs` (WooCommerce falls back the same way for unknown classes).
    pub no_class_cost: i64,
    pub calculation: ClassCalculation,
    pub taxable: bool,
}

impl FlatRate {
    fn cost_for(&self, package: &Package) -> i64 {
        let items: i64 = package
            .lines
            .iter()
            .map(|line| i64::from(line.quantity))
            .sum();
        let mut classes: Vec<&str> = package
            .lines
            .iter()
            .map(|line| line.shipping_class.as_str())
            .collect();
        classes.sort_unstable();
        classes.dedup();
        let class_costs = classes.into_iter().map(|class| {
            if class.is_empty() {
                self.no_class_cost
            } else {
                self.class_costs
                    .get(class)
                    .copied()
                    .unwrap_or(self.no_class_cost)
            }
        });
        let class_part = match self.calculation {
            ClassCalculation::PerClass => class_costs.fold(0, i64::saturating_add),
            ClassCalculation::PerOrder => class_costs.max().unwrap_or(0),
        };
        self.cost
            .saturating_add(self.cost_per_item.saturating_mul(items))
            .saturating_add(class_part)
    }
}

/// What a customer must do to get free shipping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FreeShippingRequires {
    None,
    MinAmount,
    Coupon,
    /// A minimum amount or a free-shipping coupon.
    Either,
    /// A minimum amount and a free-shipping coupon.
    Both,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreeShipping {
    pub requires: FreeShippingRequires,
    pub min_amount: i64,
    /// Compare the minimum with the contents before coupon discounts instead of after.
    pub ignore_discounts: bool,
}

impl FreeShipping {
    fn is_available(&self, package: &Package) -> bool {
        let amount = if self.ignore_discounts {
            package.contents_cost
        } else {
            package.contents_cost.saturating_sub(package.discount_total)
        };
        let has_min_amount = amount >= self.min_amount;
        let has_coupon = package.has_free_shipping_coupon;
        match self.requires {
            FreeShippingRequires::None => true,
            FreeShippingRequires::MinAmount => has_min_amount,
            FreeShippingRequires::Coupon => has_coupon,
            FreeShippingRequires::Either => has_min_amount || has_coupon,
            FreeShippingRequires::Both => has_min_amount && has_coupon,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalPickup {
    pub cost: i64,
    pub taxable: bool,
}

/// One line of a package, as shipping sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageLine {
    pub quantity: u32,
    /// Shipping class slug; empty for no class.
    pub shipping_class: String,
    /// The line's cost after discounts, carried for callers (methods here do not price by it).
    pub line_total: i64,
}

/// What is being shipped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Package {
    pub lines: Vec<PackageLine>,
    /// The contents' subtotal before coupon discounts.
    pub contents_cost: i64,
    pub has_free_shipping_coupon: bool,
    /// Coupon discounts on the contents.
    pub discount_total: i64,
}

/// A shipping option offered for a package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShippingRate {
    /// "{method_id}:{instance_id}", as WooCommerce names rates.
    pub rate_id: String,
    pub method_id: String,
    pub instance_id: InstanceId,
    pub label: String,
    pub cost: i64,
    pub taxable: bool,
}

/// The rates the zone's enabled methods quote for `package`, in the zone's method order.
/// Free shipping whose requirements are not met is left out.
pub fn rates_for(zone: &ShippingZone, package: &Package) -> Vec<ShippingRate> {
    zone.methods
        .iter()
        .filter(|method| method.enabled)
        .filter_map(|method| {
            let (cost, taxable) = match &method.settings {
                MethodSettings::FlatRate(flat) => (flat.cost_for(package), flat.taxable),
                MethodSettings::FreeShipping(free) if free.is_available(package) => (0, false),
                MethodSettings::FreeShipping(_) => return None,
                MethodSettings::LocalPickup(pickup) => (pickup.cost, pickup.taxable),
            };
            let method_id = method.settings.method_id();
            Some(ShippingRate {
                rate_id: format!("{method_id}:{}", method.instance_id.0),
                method_id: method_id.to_string(),
                instance_id: method.instance_id,
                label: method.title.clone(),
                cost,
                taxable,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(
        id: u64,
        order: i32,
        countries: &[&str],
        states: &[&str],
        postcodes: &[&str],
    ) -> ShippingZone {
        let strings = |items: &[&str]| items.iter().map(|item| item.to_string()).collect();
        ShippingZone {
            id: ZoneId(id),
            name: format!("Zone {id}"),
            order,
            countries: strings(countries),
            states: strings(states),
            postcodes: strings(postcodes),
            methods: Vec::new(),
        }
    }

    fn to(country: &str, state: &str, postcode: &str) -> Destination {
        Destination {
            country: country.into(),
            state: state.into(),
            postcode: postcode.into(),
        }
    }

    fn zones(zones: Vec<ShippingZone>) -> ShippingZones {
        ShippingZones {
            zones,
            rest_of_world: ShippingZone::rest_of_world(Vec::new()),
        }
    }

    fn method(instance_id: u64, settings: MethodSettings) -> ShippingMethod {
        ShippingMethod {
            instance_id: InstanceId(instance_id),
            title: settings.method_id().replace('_', " "),
            enabled: true,
            settings,
        }
    }

    fn flat_rate(cost: i64) -> FlatRate {
        FlatRate {
            cost,
            cost_per_item: 0,
            class_costs: BTreeMap::new(),
            no_class_cost: 0,
            calculation: ClassCalculation::PerClass,
            taxable: true,
        }
    }

    fn free(
        requires: FreeShippingRequires,
        min_amount: i64,
        ignore_discounts: bool,
    ) -> FreeShipping {
        FreeShipping {
            requires,
            min_amount,
            ignore_discounts,
        }
    }

    fn line(quantity: u32, shipping_class: &str) -> PackageLine {
        PackageLine {
            quantity,
            shipping_class: shipping_class.into(),
            line_total: 1000 * i64::from(quantity),
        }
    }

    fn package(lines: Vec<PackageLine>) -> Package {
        let contents_cost = lines.iter().map(|line| line.line_total).sum();
        Package {
            lines,
            contents_cost,
            has_free_shipping_coupon: false,
            discount_total: 0,
        }
    }

    fn zone_with(methods: Vec<ShippingMethod>) -> ShippingZone {
        ShippingZone {
            methods,
            ..zone(1, 0, &["GB"], &[], &[])
        }
    }

    fn flat_cost(flat: FlatRate, package: &Package) -> i64 {
        let rates = rates_for(
            &zone_with(vec![method(1, MethodSettings::FlatRate(flat))]),
            package,
        );
        rates[0].cost
    }

    fn free_is_offered(free: FreeShipping, package: &Package) -> bool {
        !rates_for(
            &zone_with(vec![method(2, MethodSettings::FreeShipping(free))]),
            package,
        )
        .is_empty()
    }

    #[test]
    fn a_zone_matches_its_countries_case_insensitively() {
        let all = zones(vec![zone(1, 0, &["GB", "IE"], &[], &[])]);
        assert_eq!(zone_for(&all, &to("ie", "", "")).id, ZoneId(1));
    }

    #[test]
    fn a_zone_matches_a_country_and_state_pair() {
        let all = zones(vec![zone(1, 0, &[], &["US:CA"], &[])]);
        assert_eq!(zone_for(&all, &to("US", "CA", "")).id, ZoneId(1));
        assert_eq!(
            zone_for(&all, &to("US", "NY", "")).id,
            ZoneId::REST_OF_WORLD
        );
        // The same state code in another country is another state.
        assert_eq!(
            zone_for(&all, &to("AU", "CA", "")).id,
            ZoneId::REST_OF_WORLD
        );
    }

    #[test]
    fn a_zone_with_postcodes_also_requires_a_postcode_match() {
        let all = zones(vec![zone(1, 0, &["GB"], &[], &["CB*"])]);
        assert_eq!(zone_for(&all, &to("GB", "", "CB2 1TN")).id, ZoneId(1));
        assert_eq!(
            zone_for(&all, &to("GB", "", "OX1 2JD")).id,
            ZoneId::REST_OF_WORLD
        );
        assert_eq!(
            zone_for(&all, &to("FR", "", "CB2 1TN")).id,
            ZoneId::REST_OF_WORLD
        );
    }

    #[test]
    fn a_zone_postcode_range_matches_inclusively() {
        let all = zones(vec![zone(1, 0, &["US"], &[], &["90210...90299"])]);
        assert_eq!(zone_for(&all, &to("US", "CA", "90299")).id, ZoneId(1));
        assert_eq!(
            zone_for(&all, &to("US", "CA", "90300")).id,
            ZoneId::REST_OF_WORLD
        );
    }

    #[test]
    fn the_lowest_order_wins_when_several_zones_match() {
        let all = zones(vec![
            zone(1, 2, &["US"], &[], &[]),
            zone(2, 1, &[], &["US:CA"], &[]),
            zone(3, 1, &["US"], &[], &[]),
        ]);
        assert_eq!(zone_for(&all, &to("US", "CA", "")).id, ZoneId(2));
        assert_eq!(zone_for(&all, &to("US", "NY", "")).id, ZoneId(3));
    }

    #[test]
    fn unmatched_addresses_fall_into_the_rest_of_the_world() {
        let all = zones(vec![zone(1, 0, &["GB"], &[], &[])]);
        assert_eq!(
            zone_for(&all, &to("JP", "", "100-0001")).id,
            ZoneId::REST_OF_WORLD
        );
    }

    #[test]
    fn a_zone_without_regions_matches_nothing() {
        let all = zones(vec![
            zone(1, 0, &[], &[], &["CB*"]),
            zone(2, 0, &[], &[], &[]),
        ]);
        assert_eq!(
            zone_for(&all, &to("GB", "", "CB2 1TN")).id,
            ZoneId::REST_OF_WORLD
        );
    }

    #[test]
    fn flat_rate_adds_the_per_item_cost_for_every_item() {
        let flat = FlatRate {
            cost_per_item: 150,
            ..flat_rate(500)
        };
        assert_eq!(
            flat_cost(flat, &package(vec![line(2, ""), line(3, "")])),
            500 + 5 * 150
        );
    }

    #[test]
    fn flat_rate_per_class_adds_each_class_once() {
        let flat = FlatRate {
            class_costs: BTreeMap::from([("bulky".to_string(), 1000), ("small".to_string(), 200)]),
            no_class_cost: 50,
            ..flat_rate(500)
        };
        let parcel = package(vec![
            line(2, "bulky"),
            line(1, "small"),
            line(1, "bulky"),
            line(1, ""),
        ]);
        assert_eq!(flat_cost(flat, &parcel), 500 + 1000 + 200 + 50);
    }

    #[test]
    fn flat_rate_per_order_charges_only_the_most_expensive_class() {
        let flat = FlatRate {
            class_costs: BTreeMap::from([("bulky".to_string(), 1000), ("small".to_string(), 200)]),
            no_class_cost: 50,
            calculation: ClassCalculation::PerOrder,
            ..flat_rate(500)
        };
        let parcel = package(vec![line(1, "small"), line(1, "bulky"), line(1, "")]);
        assert_eq!(flat_cost(flat, &parcel), 500 + 1000);
    }

    #[test]
    fn flat_rate_charges_unknown_classes_like_products_without_a_class() {
        let flat = FlatRate {
            no_class_cost: 300,
            ..flat_rate(0)
        };
        assert_eq!(flat_cost(flat, &package(vec![line(1, "fragile")])), 300);
    }

    #[test]
    fn flat_rate_quotes_a_woocommerce_rate_id_and_its_tax_status() {
        let zone = zone_with(vec![method(
            3,
            MethodSettings::FlatRate(FlatRate {
                taxable: false,
                ..flat_rate(500)
            }),
        )]);
        let rates = rates_for(&zone, &package(vec![line(1, "")]));
        assert_eq!(
            rates,
            vec![ShippingRate {
                rate_id: "flat_rate:3".into(),
                method_id: "flat_rate".into(),
                instance_id: InstanceId(3),
                label: "flat rate".into(),
                cost: 500,
                taxable: false,
            }]
        );
    }

    #[test]
    fn free_shipping_without_requirements_is_always_offered_at_no_cost() {
        let zone = zone_with(vec![method(
            4,
            MethodSettings::FreeShipping(free(FreeShippingRequires::None, 0, false)),
        )]);
        let rates = rates_for(&zone, &package(vec![line(1, "")]));
        assert_eq!(
            (rates[0].rate_id.as_str(), rates[0].cost, rates[0].taxable),
            ("free_shipping:4", 0, false)
        );
    }

    #[test]
    fn free_shipping_minimum_counts_discounts_unless_told_to_ignore_them() {
        let mut parcel = package(vec![line(5, "")]); // 50.00
        parcel.discount_total = 1000; // 40.00 after the coupon
        let after_discounts = free(FreeShippingRequires::MinAmount, 5000, false);
        let before_discounts = free(FreeShippingRequires::MinAmount, 5000, true);
        assert!(!free_is_offered(after_discounts, &parcel));
        assert!(free_is_offered(before_discounts, &parcel));
    }

    #[test]
    fn free_shipping_minimum_is_met_by_exactly_the_minimum() {
        let parcel = package(vec![line(5, "")]);
        assert!(free_is_offered(
            free(FreeShippingRequires::MinAmount, 5000, false),
            &parcel
        ));
        assert!(!free_is_offered(
            free(FreeShippingRequires::MinAmount, 5001, false),
            &parcel
        ));
    }

    #[test]
    fn free_shipping_by_coupon_needs_a_free_shipping_coupon() {
        let mut parcel = package(vec![line(1, "")]);
        assert!(!free_is_offered(
            free(FreeShippingRequires::Coupon, 0, false),
            &parcel
        ));
        parcel.has_free_shipping_coupon = true;
        assert!(free_is_offered(
            free(FreeShippingRequires::Coupon, 0, false),
            &parcel
        ));
    }

    #[test]
    fn free_shipping_either_accepts_the_minimum_or_a_coupon() {
        let either = free(FreeShippingRequires::Either, 5000, false);
        let small = package(vec![line(1, "")]);
        let big = package(vec![line(5, "")]);
        let small_with_coupon = Package {
            has_free_shipping_coupon: true,
            ..small.clone()
        };
        assert!(!free_is_offered(either.clone(), &small));
        assert!(free_is_offered(either.clone(), &big));
        assert!(free_is_offered(either, &small_with_coupon));
    }

    #[test]
    fn free_shipping_both_needs_the_minimum_and_a_coupon() {
        let both = free(FreeShippingRequires::Both, 5000, false);
        let big = package(vec![line(5, "")]);
        let small_with_coupon = Package {
            has_free_shipping_coupon: true,
            ..package(vec![line(1, "")])
        };
        let big_with_coupon = Package {
            has_free_shipping_coupon: true,
            ..big.clone()
        };
        assert!(!free_is_offered(both.clone(), &big));
        assert!(!free_is_offered(both.clone(), &small_with_coupon));
        assert!(free_is_offered(both, &big_with_coupon));
    }

    #[test]
    fn local_pickup_quotes_its_fixed_cost() {
        let zone = zone_with(vec![method(
            5,
            MethodSettings::LocalPickup(LocalPickup {
                cost: 250,
                taxable: true,
            }),
        )]);
        let rates = rates_for(&zone, &package(vec![line(3, "bulky")]));
        assert_eq!(
            (
                rates[0].rate_id.as_str(),
                rates[0].method_id.as_str(),
                rates[0].cost,
                rates[0].taxable
            ),
            ("local_pickup:5", "local_pickup", 250, true)
        );
    }

    #[test]
    fn disabled_methods_are_left_out_and_the_rest_keep_their_order() {
        let mut disabled = method(1, MethodSettings::FlatRate(flat_rate(500)));
        disabled.enabled = false;
        let zone = zone_with(vec![
            disabled,
            method(
                2,
                MethodSettings::LocalPickup(LocalPickup {
                    cost: 0,
                    taxable: true,
                }),
            ),
            method(3, MethodSettings::FlatRate(flat_rate(700))),
        ]);
        let ids: Vec<String> = rates_for(&zone, &package(vec![line(1, "")]))
            .into_iter()
            .map(|rate| rate.rate_id)
            .collect();
        assert_eq!(ids, vec!["local_pickup:2", "flat_rate:3"]);
    }

    #[test]
    fn zones_round_trip_through_json_with_woocommerce_method_ids() {
        let mut gb = zone(1, 0, &["GB"], &[], &["CB*"]);
        gb.methods = vec![
            method(1, MethodSettings::FlatRate(flat_rate(500))),
            method(
                2,
                MethodSettings::FreeShipping(free(FreeShippingRequires::Either, 5000, true)),
            ),
        ];
        let original = zones(vec![gb]);
        let json = serde_json::to_string(&original).unwrap();
        assert!(json.contains("\"method_id\":\"flat_rate\""));
        assert!(json.contains("\"requires\":\"either\""));
        let back: ShippingZones = serde_json::from_str(&json).unwrap();
        assert_eq!(back, original);
    }
}
