//! The cart as stored in the session, and the rules for what may go into it. Pure
//! functions over the catalogue snapshot and live stock figures; no SQL or HTTP.

use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};

use crate::catalog::index::Catalog;
use crate::catalog::model::{max_quantity, min_quantity};
use crate::catalog::model::{
    Backorders, Product, ProductId, ProductKind, StockStatus, VariationValue,
};
use crate::stock::StockLevel;

/// The most units of one product a line may hold, whatever the product allows.
pub use crate::catalog::model::STORE_MAX_QUANTITY;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredCart {
    #[serde(default)]
    pub items: Vec<CartLine>,
    #[serde(default)]
    pub coupons: Vec<String>,
    /// Addresses and shipping choices for checkout; not part of the cart hash.
    #[serde(default, skip_serializing_if = "is_default")]
    pub customer: crate::address::CustomerDetails,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// One line: a product (or a variation) with the attribute values chosen for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CartLine {
    pub key: String,
    pub id: ProductId,
    pub quantity: i64,
    #[serde(default)]
    pub variation: Vec<VariationValue>,
}

impl StoredCart {
    /// A stored cart, or what is wrong with it. Callers never take an unreadable cart
    /// for an empty one: `cart::service` sets it aside and says so.
    pub fn parse(json: &str) -> Result<Self, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }

    pub fn items_count(&self) -> i64 {
        self.items.iter().map(|l| l.quantity).sum()
    }

    pub fn line(&self, key: &str) -> Option<&CartLine> {
        self.items.iter().find(|l| l.key == key)
    }

    /// Identifies the cart's contents, for the `woocommerce_cart_hash` cookie and the
    /// fragments' `cart_hash`; empty for an empty cart.
    pub fn hash(&self, currency: &str) -> String {
        if self.items.is_empty() {
            return String::new();
        }
        let mut h = Md5::new();
        for l in &self.items {
            h.update(format!("{}:{}:{};", l.key, l.id, l.quantity));
        }
        for c in &self.coupons {
            h.update(format!("coupon:{c};"));
        }
        h.update(currency);
        hex::encode(h.finalize())
    }
}

/// A line's key: the same product with the same choices always lands on one line.
pub fn line_key(id: ProductId, variation: &[VariationValue]) -> String {
    let mut h = Md5::new();
    h.update(id.0.to_string());
    for v in variation {
        h.update(format!("|{}={}", v.attribute, v.value));
    }
    hex::encode(h.finalize())
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CartError {
    InvalidProduct,
    NoMatchingVariation,
    MissingVariationData,
    NotPurchasable {
        name: String,
    },
    OutOfStock {
        name: String,
    },
    NotEnoughStock {
        name: String,
        available: i64,
        in_cart: i64,
    },
    SoldIndividually {
        name: String,
    },
    BelowMinimum {
        name: String,
        minimum: i64,
    },
    AboveMaximum {
        name: String,
        maximum: i64,
    },
    InvalidKey,
}

/// What an add-to-cart request resolves to.
#[derive(Debug, Clone)]
pub struct Addition<'a> {
    pub product: &'a Product,
    pub parent: Option<&'a Product>,
    pub variation: Vec<VariationValue>,
}

impl Addition<'_> {
    pub fn key(&self) -> String {
        line_key(self.product.id, &self.variation)
    }
}

/// Turns "attribute_pa_color", "pa_color" or "Color" into the key variations use.
pub fn normalise_attribute(catalog: &Catalog, raw: &str) -> String {
    let raw = raw.trim();
    let name = raw.strip_prefix("attribute_").unwrap_or(raw);
    if let Some(a) = catalog
        .data
        .attributes
        .iter()
        .find(|a| a.taxonomy == name || a.name.eq_ignore_ascii_case(name))
    {
        return a.taxonomy.clone();
    }
    name.to_string()
}

/// Finds what a request to add `id` with `chosen` attribute values means.
pub fn resolve<'a>(
    catalog: &'a Catalog,
    id: ProductId,
    chosen: &[(String, String)],
) -> Result<Addition<'a>, CartError> {
    let product = catalog.shown(id).ok_or(CartError::InvalidProduct)?;
    let chosen: Vec<(String, String)> = chosen
        .iter()
        .map(|(k, v)| (normalise_attribute(catalog, k), v.trim().to_string()))
        .collect();
    let (product, parent) = match product.kind {
        ProductKind::External => {
            return Err(CartError::NotPurchasable {
                name: product.name.clone(),
            })
        }
        ProductKind::Variable => {
            let variation = catalog
                .find_variation(product.id, &chosen)
                .ok_or(CartError::NoMatchingVariation)?;
            (variation, Some(product))
        }
        ProductKind::Variation => {
            let parent = product
                .parent_id
                .and_then(|p| catalog.shown(p))
                .ok_or(CartError::InvalidProduct)?;
            (product, Some(parent))
        }
        ProductKind::Simple => (product, None),
    };
    // A variation's "any" values are filled from the request.
    let mut variation = Vec::new();
    for v in &product.variation {
        let value = if v.value.is_empty() {
            chosen
                .iter()
                .find(|(k, val)| k == &v.attribute && !val.is_empty())
                .map(|(_, val)| val.clone())
                .ok_or(CartError::MissingVariationData)?
        } else {
            v.value.clone()
        };
        variation.push(VariationValue {
            attribute: v.attribute.clone(),
            value,
        });
    }
    if !catalog.is_purchasable(product) {
        return Err(CartError::NotPurchasable {
            name: product.name.clone(),
        });
    }
    Ok(Addition {
        product,
        parent,
        variation,
    })
}

/// Checks that a line may hold `wanted` units, given what is in stock now.
/// `already` is what the cart held before, for the message.
pub fn check_quantity(
    add: &Addition,
    wanted: i64,
    already: i64,
    stock: &StockLevel,
) -> Result<(), CartError> {
    let p = add.product;
    let name = p.name.clone();
    let backorders_allowed = stock.backorders != Backorders::No;
    if stock.status == StockStatus::OutOfStock && !backorders_allowed {
        return Err(CartError::OutOfStock { name });
    }
    if stock.manage_stock && !backorders_allowed {
        let available = stock.quantity.unwrap_or(0).max(0);
        if available == 0 {
            return Err(CartError::OutOfStock { name });
        }
        if wanted > available {
            return Err(CartError::NotEnoughStock {
                name,
                available,
                in_cart: already,
            });
        }
    }
    let sold_individually = p.sold_individually || add.parent.is_some_and(|x| x.sold_individually);
    if sold_individually && wanted > 1 {
        return Err(CartError::SoldIndividually { name });
    }
    let minimum = min_quantity(p, add.parent);
    if wanted < minimum {
        return Err(CartError::BelowMinimum { name, minimum });
    }
    // Stock was checked above with live figures; this is the product's own limit.
    let live = Product {
        manage_stock: false,
        ..p.clone()
    };
    let maximum = max_quantity(&live, add.parent);
    if wanted > maximum {
        return Err(CartError::AboveMaximum { name, maximum });
    }
    Ok(())
}

impl StoredCart {
    /// Adds `quantity` of a resolved product, merging with its line if there is one.
    /// Returns the line's key.
    pub fn add(
        &mut self,
        add: &Addition,
        quantity: i64,
        stock: &StockLevel,
    ) -> Result<String, CartError> {
        let key = add.key();
        let already = self.line(&key).map_or(0, |l| l.quantity);
        if already > 0
            && (add.product.sold_individually || add.parent.is_some_and(|p| p.sold_individually))
        {
            return Err(CartError::SoldIndividually {
                name: add.product.name.clone(),
            });
        }
        let wanted = already.saturating_add(quantity);
        check_quantity(add, wanted, already, stock)?;
        match self.items.iter_mut().find(|l| l.key == key) {
            Some(line) => line.quantity = wanted,
            None => self.items.push(CartLine {
                key: key.clone(),
                id: add.product.id,
                quantity: wanted,
                variation: add.variation.clone(),
            }),
        }
        Ok(key)
    }

    /// Sets a line's quantity, within the same limits as adding.
    pub fn set_quantity(
        &mut self,
        add: &Addition,
        key: &str,
        quantity: i64,
        stock: &StockLevel,
    ) -> Result<(), CartError> {
        let line = self
            .items
            .iter_mut()
            .find(|l| l.key == key)
            .ok_or(CartError::InvalidKey)?;
        check_quantity(add, quantity, 0, stock)?;
        line.quantity = quantity;
        Ok(())
    }

    pub fn remove(&mut self, key: &str) -> Result<CartLine, CartError> {
        let pos = self
            .items
            .iter()
            .position(|l| l.key == key)
            .ok_or(CartError::InvalidKey)?;
        Ok(self.items.remove(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::model::*;

    fn product(id: i64, kind: ProductKind) -> Product {
        Product {
            kind,
            regular_price: Some(1000),
            ..Product::simple(ProductId(id), &format!("P{id}"), &format!("p{id}"))
        }
    }

    fn catalog() -> Catalog {
        let mut hoodie = product(10, ProductKind::Variable);
        hoodie.regular_price = None;
        hoodie.attributes = vec![ProductAttribute {
            attribute_id: Some(AttributeId(1)),
            name: "Color".into(),
            values: vec!["navy".into(), "sand".into()],
            visible: true,
            used_for_variations: true,
            default_value: String::new(),
        }];
        let mut navy = product(11, ProductKind::Variation);
        navy.parent_id = Some(ProductId(10));
        navy.variation = vec![VariationValue {
            attribute: "pa_color".into(),
            value: "navy".into(),
        }];
        let mut any = product(12, ProductKind::Variation);
        any.parent_id = Some(ProductId(10));
        any.variation = vec![VariationValue {
            attribute: "pa_color".into(),
            value: String::new(),
        }];
        let mut single = product(20, ProductKind::Simple);
        single.sold_individually = true;
        let mut pairs = product(21, ProductKind::Simple);
        pairs.min_quantity = 2;
        let mut capped = product(22, ProductKind::Simple);
        capped.max_quantity = Some(3);
        let external = product(30, ProductKind::External);
        let data = CatalogData {
            attributes: vec![Attribute {
                id: AttributeId(1),
                name: "Color".into(),
                taxonomy: "pa_color".into(),
                terms: vec![
                    Term {
                        id: TermId(1),
                        name: "Navy".into(),
                        slug: "navy".into(),
                        ..Default::default()
                    },
                    Term {
                        id: TermId(2),
                        name: "Sand".into(),
                        slug: "sand".into(),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            }],
            products: vec![
                product(1, ProductKind::Simple),
                hoodie,
                navy,
                any,
                single,
                pairs,
                capped,
                external,
            ],
            ..Default::default()
        };
        Catalog::new(1, data)
    }

    fn plenty() -> StockLevel {
        StockLevel {
            manage_stock: false,
            quantity: None,
            status: StockStatus::InStock,
            backorders: Backorders::No,
        }
    }

    fn managed(quantity: i64) -> StockLevel {
        StockLevel {
            manage_stock: true,
            quantity: Some(quantity),
            ..plenty()
        }
    }

    #[test]
    fn adding_the_same_product_twice_merges_the_lines() {
        let c = catalog();
        let mut cart = StoredCart::default();
        let add = resolve(&c, ProductId(1), &[]).unwrap();
        let k1 = cart.add(&add, 2, &plenty()).unwrap();
        let k2 = cart.add(&add, 3, &plenty()).unwrap();
        assert_eq!(k1, k2);
        assert_eq!(cart.items.len(), 1);
        assert_eq!(cart.items_count(), 5);
    }

    #[test]
    fn a_variable_product_resolves_to_the_matching_variation() {
        let c = catalog();
        let add = resolve(
            &c,
            ProductId(10),
            &[("attribute_pa_color".into(), "navy".into())],
        )
        .unwrap();
        assert_eq!(add.product.id, ProductId(11));
        let by_label = resolve(&c, ProductId(10), &[("Color".into(), "Navy".into())]).unwrap();
        assert_eq!(by_label.product.id, ProductId(11));
        assert_eq!(
            resolve(&c, ProductId(10), &[]).unwrap_err(),
            CartError::NoMatchingVariation
        );
    }

    #[test]
    fn an_any_variation_takes_its_value_from_the_request() {
        let c = catalog();
        let add = resolve(&c, ProductId(12), &[("pa_color".into(), "sand".into())]).unwrap();
        assert_eq!(
            add.variation,
            vec![VariationValue {
                attribute: "pa_color".into(),
                value: "sand".into()
            }]
        );
        assert_eq!(
            resolve(&c, ProductId(12), &[]).unwrap_err(),
            CartError::MissingVariationData
        );
    }

    #[test]
    fn unknown_and_external_products_are_refused() {
        let c = catalog();
        assert_eq!(
            resolve(&c, ProductId(999), &[]).unwrap_err(),
            CartError::InvalidProduct
        );
        assert!(matches!(
            resolve(&c, ProductId(30), &[]).unwrap_err(),
            CartError::NotPurchasable { .. }
        ));
    }

    #[test]
    fn stock_limits_count_what_is_already_in_the_cart() {
        let c = catalog();
        let add = resolve(&c, ProductId(1), &[]).unwrap();
        let mut cart = StoredCart::default();
        cart.add(&add, 2, &managed(3)).unwrap();
        let err = cart.add(&add, 2, &managed(3)).unwrap_err();
        assert_eq!(
            err,
            CartError::NotEnoughStock {
                name: "P1".into(),
                available: 3,
                in_cart: 2
            }
        );
        assert_eq!(cart.items_count(), 2, "a refused add changes nothing");
        assert!(matches!(
            cart.add(&add, 1, &managed(0)).unwrap_err(),
            CartError::OutOfStock { .. }
        ));
        let backorder = StockLevel {
            backorders: Backorders::Yes,
            ..managed(0)
        };
        assert!(cart.add(&add, 5, &backorder).is_ok());
    }

    #[test]
    fn quantity_rules_of_the_product_apply() {
        let c = catalog();
        let mut cart = StoredCart::default();
        let single = resolve(&c, ProductId(20), &[]).unwrap();
        cart.add(&single, 1, &plenty()).unwrap();
        assert!(matches!(
            cart.add(&single, 1, &plenty()).unwrap_err(),
            CartError::SoldIndividually { .. }
        ));
        let pairs = resolve(&c, ProductId(21), &[]).unwrap();
        assert!(matches!(
            cart.add(&pairs, 1, &plenty()).unwrap_err(),
            CartError::BelowMinimum { minimum: 2, .. }
        ));
        let capped = resolve(&c, ProductId(22), &[]).unwrap();
        assert!(matches!(
            cart.add(&capped, 4, &plenty()).unwrap_err(),
            CartError::AboveMaximum { maximum: 3, .. }
        ));
        let plain = resolve(&c, ProductId(1), &[]).unwrap();
        assert!(matches!(
            cart.add(&plain, STORE_MAX_QUANTITY + 1, &plenty())
                .unwrap_err(),
            CartError::AboveMaximum {
                maximum: STORE_MAX_QUANTITY,
                ..
            }
        ));
    }

    #[test]
    fn the_hash_follows_the_contents() {
        let c = catalog();
        let add = resolve(&c, ProductId(1), &[]).unwrap();
        let mut cart = StoredCart::default();
        assert_eq!(cart.hash("USD"), "");
        cart.add(&add, 1, &plenty()).unwrap();
        let one = cart.hash("USD");
        cart.add(&add, 1, &plenty()).unwrap();
        assert_ne!(one, cart.hash("USD"));
        assert_eq!(one.len(), 32);
    }
}
