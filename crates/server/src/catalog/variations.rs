//! A variable product's variation form: how each variation attribute is offered
//! (swatches of colours, pictures or names, or a drop-down) and the variations' data
//! as the original shop embeds it in the product page (`data-product_variations`).
//! A product with more variations than the shop embeds gets `false` there instead,
//! and the page asks `?wc-ajax=get_variation` for each complete choice, as the
//! original does.

use axum::body::Body;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::view::{image_view, price_html, ViewContext};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::StoreCtx;
use crate::state::{AppState, SharedState};
use rules::catalog::index::Catalog;
use rules::catalog::model::{
    max_quantity, min_quantity, Backorders, Product, ProductId, ProductKind, ProductStatus,
    StockStatus, SwatchType, STORE_MAX_QUANTITY,
};

/// The shop's own calls under `/wp-json/ferroshop/v1`.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new().get("/products/{id}/variation-form", variation_form)
}

async fn variation_form(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
) -> Response {
    let catalog = state.catalog.get();
    let product = id
        .parse::<i64>()
        .ok()
        .and_then(|id| catalog.shown(ProductId(id)))
        .filter(|p| p.kind == ProductKind::Variable);
    let res = match product {
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            "woocommerce_rest_product_invalid_id",
            "Invalid product ID.",
        )
        .into_response(),
        Some(p) => {
            let view = ctx.view(&state);
            json_value(StatusCode::OK, &form_view(&state, &view, &catalog, p))
        }
    };
    ctx.finish(&state, res)
}

/// The form: attributes with their swatches, the variations (or `false` above the
/// threshold) and the thresholds the page works with.
fn form_view(state: &AppState, view: &ViewContext, catalog: &Catalog, p: &Product) -> Value {
    let settings = &state.config.catalog;
    let variations: Vec<&Product> = published_variations(catalog, p).collect();
    let embedded = if variations.len() <= settings.ajax_threshold {
        Value::Array(
            variations
                .iter()
                .map(|v| available_variation(view, catalog, p, v))
                .collect(),
        )
    } else {
        Value::Bool(false)
    };
    json!({
        "product_id": p.id.0,
        "attributes": attributes_view(view, catalog, p),
        "variations": embedded,
        "variation_count": variations.len(),
        "ajax_threshold": settings.ajax_threshold,
        "stock_label_threshold": settings.stock_label_threshold,
    })
}

fn published_variations<'a>(
    catalog: &'a Catalog,
    p: &Product,
) -> impl Iterator<Item = &'a Product> {
    catalog
        .variations_of(p.id)
        .filter(|v| v.status == ProductStatus::Publish)
}

/// Each variation attribute with its form field, how it is offered and its options
/// in the attribute's order (a custom attribute's in the product's).
fn attributes_view(view: &ViewContext, catalog: &Catalog, p: &Product) -> Vec<Value> {
    p.attributes
        .iter()
        .filter(|a| a.used_for_variations)
        .map(|a| {
            let key = catalog.attribute_key(a);
            let global = a.attribute_id.and_then(|id| catalog.attribute(id));
            let swatch = global.map_or(SwatchType::Select, |g| g.swatch);
            let options: Vec<Value> = match global {
                Some(g) => g
                    .terms
                    .iter()
                    .filter(|t| a.values.iter().any(|v| v == &t.slug))
                    .map(|t| {
                        let image = t
                            .image_id
                            .and_then(|id| catalog.media(id))
                            .map(|m| image_view(view, m));
                        json!({
                            "value": t.slug,
                            "label": t.name,
                            "color": (!t.color.is_empty()).then_some(&t.color),
                            "image": image,
                        })
                    })
                    .collect(),
                None => a
                    .values
                    .iter()
                    .map(|v| json!({"value": v, "label": v, "color": null, "image": null}))
                    .collect(),
            };
            json!({
                "name": a.name,
                "taxonomy": global.map(|g| g.taxonomy.as_str()),
                "field": format!("attribute_{key}"),
                "swatch": swatch.as_str(),
                "default": a.default_value,
                "options": options,
            })
        })
        .collect()
}

/// The stock left of a variation that keeps count and takes no backorders.
fn stock_left(catalog: &Catalog, v: &Product) -> Option<i64> {
    let counted = v.manage_stock && v.backorders == Backorders::No;
    if counted && catalog.stock_status(v) != StockStatus::OutOfStock {
        v.stock_quantity.map(|q| q.max(0))
    } else {
        None
    }
}

/// One variation as the original shop's `get_available_variation` describes it
/// (prices as the Store API gives them, in minor units, rather than as floats).
fn available_variation(
    view: &ViewContext,
    catalog: &Catalog,
    parent: &Product,
    v: &Product,
) -> Value {
    let prices = catalog.prices(v);
    let in_stock = catalog.is_in_stock(v);
    let left = stock_left(catalog, v);
    // Unlimited is an empty string in the original.
    let limit = max_quantity(v, Some(parent));
    let max_qty = if limit >= STORE_MAX_QUANTITY {
        json!("")
    } else {
        json!(limit)
    };
    let attributes: serde_json::Map<String, Value> = parent
        .attributes
        .iter()
        .filter(|a| a.used_for_variations)
        .map(|a| {
            let key = catalog.attribute_key(a);
            let value = v
                .variation
                .iter()
                .find(|vv| vv.attribute == key)
                .map_or("", |vv| vv.value.as_str());
            (format!("attribute_{key}"), json!(value))
        })
        .collect();
    let image = v
        .image_ids
        .first()
        .or(parent.image_ids.first())
        .and_then(|id| catalog.media(*id));
    let availability = match (catalog.stock_status(v), left) {
        (StockStatus::OutOfStock, _) => {
            "<p class=\"stock out-of-stock\">Out of stock</p>".to_string()
        }
        (StockStatus::OnBackorder, _) => {
            "<p class=\"stock available-on-backorder\">Available on backorder</p>".to_string()
        }
        (_, Some(q)) => format!("<p class=\"stock in-stock\">{q} in stock</p>"),
        _ => String::new(),
    };
    json!({
        "attributes": attributes,
        "availability_html": availability,
        "backorders_allowed": v.backorders != Backorders::No,
        "image": image.map(|m| image_view(view, m)),
        "image_id": image.map_or(0, |m| m.id.0),
        "is_in_stock": in_stock,
        "is_purchasable": catalog.is_purchasable(v),
        "is_sold_individually": if v.sold_individually || parent.sold_individually { "yes" } else { "no" },
        "max_qty": max_qty,
        "min_qty": min_quantity(v, Some(parent)),
        "price_html": price_html(view.currency, &prices),
        "prices": {
            "price": prices.price.map(|x| x.to_string()).unwrap_or_default(),
            "regular_price": prices.regular.map(|x| x.to_string()).unwrap_or_default(),
            "sale_price": prices.sale.map(|x| x.to_string()).unwrap_or_default(),
        },
        "sku": if v.sku.is_empty() { &parent.sku } else { &v.sku },
        "variation_id": v.id.0,
        "variation_is_active": true,
        "variation_is_visible": true,
        "variation_stock_left": left,
    })
}

/// The classic call's name.
pub const GET_VARIATION: &str = "get_variation";

/// `?wc-ajax=get_variation`: the variation a complete choice picks (`product_id` and
/// the `attribute_…` fields), or `false` when none matches, as in the original.
pub async fn get_variation(state: &AppState, parts: &Parts, body: Body) -> Response {
    let ctx = match StoreCtx::from_parts(state, parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let params = match Params::read(&parts.headers, body, state.config.max_body_bytes).await {
        Ok(p) => p,
        Err(e) => {
            return crate::http::guard::classic_error(e.status, "bad_request", &e.message);
        }
    };
    let catalog = state.catalog.get();
    let parent = params
        .int("product_id")
        .ok()
        .flatten()
        .and_then(|id| catalog.shown(ProductId(id)))
        .filter(|p| p.kind == ProductKind::Variable);
    let Some(parent) = parent else {
        return crate::http::guard::classic_error(
            StatusCode::BAD_REQUEST,
            "invalid_product",
            "Choose a variable product (product_id).",
        );
    };
    let chosen: Vec<(String, String)> = params
        .0
        .iter()
        .filter_map(|(k, v)| {
            let key = k.strip_prefix("attribute_")?;
            Some((key.to_string(), v.as_str()?.to_string()))
        })
        .collect();
    let view = ctx.view(state);
    let body = match catalog.find_variation(parent.id, &chosen) {
        Some(v) => available_variation(&view, &catalog, parent, v),
        None => Value::Bool(false),
    };
    let mut res = json_value(StatusCode::OK, &body);
    ctx.keep_session(state, res.headers_mut());
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::catalog::model::CatalogData;

    fn variation(id: i64, stock: Option<i64>) -> Product {
        let mut v = Product::simple(ProductId(id), "V", &format!("v-{id}"));
        v.kind = ProductKind::Variation;
        v.parent_id = Some(ProductId(1));
        v.manage_stock = stock.is_some();
        v.stock_quantity = stock;
        v
    }

    #[test]
    fn stock_left_is_known_only_for_counted_stock_without_backorders() {
        let catalog = Catalog::new(1, CatalogData::default());
        assert_eq!(stock_left(&catalog, &variation(2, Some(3))), Some(3));
        assert_eq!(stock_left(&catalog, &variation(2, None)), None);
        let mut backordered = variation(2, Some(3));
        backordered.backorders = Backorders::Yes;
        assert_eq!(stock_left(&catalog, &backordered), None);
        let mut sold_out = variation(2, Some(0));
        sold_out.stock_status = StockStatus::OutOfStock;
        assert_eq!(stock_left(&catalog, &sold_out), None);
    }
}
