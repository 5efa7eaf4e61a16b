//! The shop's pricing rules as one value: tax settings and rates, and shipping zones.
//! Stored as JSON in the settings table, loaded with the catalogue snapshot, so every
//! server instance prices alike and a change reaches them all with the catalogue version.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::shipping::{
    ClassCalculation, FlatRate, FreeShipping, FreeShippingRequires, InstanceId, LocalPickup,
    MethodSettings, ShippingMethod, ShippingZone, ShippingZones, ZoneId,
};
use super::tax::{Location, Percentage, PricesEntered, TaxClass, TaxDisplay, TaxRate, TaxRateId};

/// The settings row holding the rules.
pub const RULES_SETTING: &str = "shop_rules";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShopRules {
    pub taxes: TaxSettings,
    pub shipping: ShippingZones,
}

/// Which address decides the taxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaxBasedOn {
    Shipping,
    Billing,
    ShopBase,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaxSettings {
    pub enabled: bool,
    pub prices_entered: PricesEntered,
    /// How the cart and checkout show item prices.
    pub display_cart: TaxDisplay,
    pub based_on: TaxBasedOn,
    /// The shop's own address: taxes for shoppers who gave none yet, and for
    /// `ShopBase`.
    pub base: Location,
    /// The tax class shipping is taxed at.
    pub shipping_class: TaxClass,
    pub rates: Vec<TaxRate>,
}

impl Default for ShopRules {
    /// No taxes and one free flat rate everywhere: a shop that has not been set up
    /// yet still checks out.
    fn default() -> Self {
        Self {
            taxes: TaxSettings {
                enabled: false,
                prices_entered: PricesEntered::ExclusiveOfTax,
                display_cart: TaxDisplay::ExcludingTax,
                based_on: TaxBasedOn::Shipping,
                base: Location::default(),
                shipping_class: TaxClass::standard(),
                rates: Vec::new(),
            },
            shipping: ShippingZones {
                zones: Vec::new(),
                rest_of_world: ShippingZone::rest_of_world(vec![flat(1, "Flat rate", 0, 0)]),
            },
        }
    }
}

impl ShopRules {
    pub fn from_json(json: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(json)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("rules serialize")
    }

    /// The demo shop: based in San Francisco, prices before tax, sales tax in a few
    /// US states, VAT-style rates for Germany and the UK, and shipping zones with flat
    /// rates, free shipping over $100 or with a coupon, and local pickup at home.
    pub fn demo() -> Self {
        let rate =
            |id: u64, country: &str, state: &str, pct: i64, name: &str, shipping: bool| TaxRate {
                id: TaxRateId(id),
                country: country.into(),
                state: state.into(),
                postcodes: Vec::new(),
                cities: Vec::new(),
                rate: Percentage::from_ten_thousandths(pct),
                name: name.into(),
                priority: 1,
                compound: false,
                shipping,
                class: TaxClass::standard(),
            };
        let mut san_francisco = rate(5, "US", "CA", 12_500, "SF Tax", false);
        san_francisco.priority = 2;
        san_francisco.cities = vec!["San Francisco".into()];
        let rates = vec![
            rate(1, "US", "CA", 72_500, "CA State Tax", false),
            rate(2, "US", "NY", 40_000, "NY State Tax", true),
            rate(3, "US", "TX", 62_500, "TX State Tax", false),
            san_francisco,
            rate(6, "DE", "", 190_000, "MwSt.", true),
            rate(7, "GB", "", 200_000, "VAT", true),
            rate(8, "FR", "", 200_000, "TVA", true),
        ];
        let free = |id: u64| ShippingMethod {
            instance_id: InstanceId(id),
            title: "Free shipping".into(),
            enabled: true,
            settings: MethodSettings::FreeShipping(FreeShipping {
                requires: FreeShippingRequires::Either,
                min_amount: 10_000,
                ignore_discounts: false,
            }),
        };
        let zones = vec![
            ShippingZone {
                id: ZoneId(1),
                name: "California".into(),
                order: 0,
                countries: Vec::new(),
                states: vec!["US:CA".into()],
                postcodes: Vec::new(),
                methods: vec![
                    flat(1, "Flat rate", 5_00, 0),
                    free(2),
                    ShippingMethod {
                        instance_id: InstanceId(3),
                        title: "Local pickup".into(),
                        enabled: true,
                        settings: MethodSettings::LocalPickup(LocalPickup {
                            cost: 0,
                            taxable: false,
                        }),
                    },
                ],
            },
            ShippingZone {
                id: ZoneId(2),
                name: "United States".into(),
                order: 1,
                countries: vec!["US".into()],
                states: Vec::new(),
                postcodes: Vec::new(),
                methods: vec![flat(4, "Flat rate", 8_00, 0), free(5)],
            },
            ShippingZone {
                id: ZoneId(3),
                name: "Europe".into(),
                order: 2,
                countries: ["DE", "GB", "FR", "NL", "IE", "AT", "BE", "ES", "IT"]
                    .map(String::from)
                    .to_vec(),
                states: Vec::new(),
                postcodes: Vec::new(),
                methods: vec![flat(6, "International flat rate", 15_00, 1_00), free(7)],
            },
        ];
        Self {
            taxes: TaxSettings {
                enabled: true,
                prices_entered: PricesEntered::ExclusiveOfTax,
                display_cart: TaxDisplay::ExcludingTax,
                based_on: TaxBasedOn::Shipping,
                base: Location {
                    country: "US".into(),
                    state: "CA".into(),
                    postcode: "94110".into(),
                    city: "San Francisco".into(),
                },
                shipping_class: TaxClass::standard(),
                rates,
            },
            shipping: ShippingZones {
                zones,
                rest_of_world: ShippingZone::rest_of_world(vec![flat(
                    8,
                    "Worldwide flat rate",
                    25_00,
                    2_00,
                )]),
            },
        }
    }
}

/// A taxable flat rate charging `cost` per package and `per_item` per unit; bulky goods
/// add $6 a package.
fn flat(id: u64, title: &str, cost: i64, per_item: i64) -> ShippingMethod {
    ShippingMethod {
        instance_id: InstanceId(id),
        title: title.into(),
        enabled: true,
        settings: MethodSettings::FlatRate(FlatRate {
            cost,
            cost_per_item: per_item,
            class_costs: BTreeMap::from([("bulky".to_string(), 6_00)]),
            no_class_cost: 0,
            calculation: ClassCalculation::PerOrder,
            taxable: true,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_survive_a_round_trip_through_json() {
        let rules = ShopRules::demo();
        assert_eq!(ShopRules::from_json(&rules.to_json()).unwrap(), rules);
        let default = ShopRules::default();
        assert_eq!(ShopRules::from_json(&default.to_json()).unwrap(), default);
    }
}
