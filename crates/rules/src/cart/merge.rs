//! What happens to carts when a customer signs in: the cart they left signed in
//! elsewhere joins the one in front of them. A line both hold keeps the larger
//! quantity; every merged line still obeys the cart's rules (stock, minimum, maximum,
//! sold individually), shrinking to what is allowed or staying out if nothing is.

use std::collections::HashMap;

use crate::cart::model::{check_quantity, resolve, CartError, CartLine, StoredCart};
use crate::catalog::index::Catalog;
use crate::catalog::model::ProductId;
use crate::stock::StockLevel;

/// Merges `from`'s lines into `into`. `stock` holds live figures for `from`'s products;
/// a line whose product is missing there, or gone from the catalogue, is left out.
pub fn merge_carts(
    catalog: &Catalog,
    into: &mut StoredCart,
    from: &StoredCart,
    stock: &HashMap<ProductId, StockLevel>,
) {
    for line in &from.items {
        let chosen: Vec<(String, String)> = line
            .variation
            .iter()
            .map(|v| (v.attribute.clone(), v.value.clone()))
            .collect();
        let Ok(addition) = resolve(catalog, line.id, &chosen) else {
            continue;
        };
        let Some(level) = stock.get(&addition.product.id) else {
            continue;
        };
        let key = addition.key();
        let held = into.line(&key).map_or(0, |l| l.quantity);
        let Some(quantity) = allowed(line.quantity.max(held), |q| {
            check_quantity(&addition, q, 0, level)
        }) else {
            continue;
        };
        if quantity <= held {
            continue;
        }
        match into.items.iter_mut().find(|l| l.key == key) {
            Some(existing) => existing.quantity = quantity,
            None => into.items.push(CartLine {
                key,
                id: addition.product.id,
                quantity,
                variation: addition.variation.clone(),
            }),
        }
    }
}

/// The largest quantity up to `wanted` that `check` accepts, following the limits
/// its refusals name; None when no quantity is acceptable.
fn allowed(wanted: i64, check: impl Fn(i64) -> Result<(), CartError>) -> Option<i64> {
    let mut q = wanted;
    // Each refusal lowers the quantity to a limit; a few rounds settle every case.
    for _ in 0..4 {
        if q < 1 {
            return None;
        }
        match check(q) {
            Ok(()) => return Some(q),
            Err(CartError::NotEnoughStock { available, .. }) if available < q => q = available,
            Err(CartError::AboveMaximum { maximum, .. }) if maximum < q => q = maximum,
            Err(CartError::SoldIndividually { .. }) if q > 1 => q = 1,
            Err(_) => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::model::*;

    fn product(id: i64) -> Product {
        let mut p = Product::simple(ProductId(id), &format!("P{id}"), &format!("p{id}"));
        p.regular_price = Some(1000);
        p
    }

    fn plenty() -> StockLevel {
        StockLevel {
            manage_stock: false,
            quantity: None,
            status: StockStatus::InStock,
            backorders: Backorders::No,
        }
    }

    fn line(id: i64, quantity: i64) -> CartLine {
        CartLine {
            key: crate::cart::model::line_key(ProductId(id), &[]),
            id: ProductId(id),
            quantity,
            variation: vec![],
        }
    }

    fn cart(lines: Vec<CartLine>) -> StoredCart {
        StoredCart {
            items: lines,
            ..StoredCart::default()
        }
    }

    #[test]
    fn lines_join_and_shared_lines_keep_the_larger_quantity() {
        let mut capped = product(3);
        capped.max_quantity = Some(4);
        let catalog = Catalog::new(
            1,
            CatalogData {
                products: vec![product(1), product(2), capped],
                ..Default::default()
            },
        );
        let stock: HashMap<ProductId, StockLevel> = [
            (ProductId(1), plenty()),
            (ProductId(2), plenty()),
            (ProductId(3), plenty()),
        ]
        .into();
        let mut current = cart(vec![line(1, 2)]);
        let saved = cart(vec![line(1, 5), line(2, 1), line(3, 9), line(99, 1)]);
        merge_carts(&catalog, &mut current, &saved, &stock);
        let quantities: Vec<(i64, i64)> =
            current.items.iter().map(|l| (l.id.0, l.quantity)).collect();
        assert_eq!(quantities, vec![(1, 5), (2, 1), (3, 4)]);
    }

    #[test]
    fn merged_lines_respect_live_stock() {
        let catalog = Catalog::new(
            1,
            CatalogData {
                products: vec![product(1), product(2)],
                ..Default::default()
            },
        );
        let managed = |q| StockLevel {
            manage_stock: true,
            quantity: Some(q),
            ..plenty()
        };
        let stock: HashMap<ProductId, StockLevel> =
            [(ProductId(1), managed(3)), (ProductId(2), managed(0))].into();
        let mut current = cart(vec![line(1, 1)]);
        merge_carts(
            &catalog,
            &mut current,
            &cart(vec![line(1, 8), line(2, 2)]),
            &stock,
        );
        assert_eq!(current.items.len(), 1);
        assert_eq!(current.items[0].quantity, 3);
    }
}
