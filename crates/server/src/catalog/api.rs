//! The Store API's catalogue calls: product listing and lookup, categories, brands,
//! global attributes and their terms.

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;

use super::view::{
    brand_view, category_view, collection_view, global_attribute_view, global_term_view,
    product_view, TermView,
};
use crate::error::ApiError;
use crate::http::json::{json_bytes, json_value};
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::StoreCtx;
use crate::state::SharedState;
use rules::catalog::index::{
    AttributeFilter, FacetRequest, IdOrSlug, OrderBy, ProductQuery, SortOrder, TermOperator,
    TermRelation,
};
use rules::catalog::model::{
    AttributeId, BrandId, CategoryId, ProductId, ProductKind, StockStatus,
};

pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/products", list_products)
        .get("/products/collection-data", collection_data)
        .get(
            "/products/categories",
            |State(s): State<SharedState>, ctx: StoreCtx| list_terms(s, ctx, Taxonomy::Category),
        )
        .get(
            "/products/categories/{id}",
            |State(s): State<SharedState>, ctx: StoreCtx, PathText(id): PathText| {
                get_term(s, ctx, id, Taxonomy::Category)
            },
        )
        .get(
            "/products/brands",
            |State(s): State<SharedState>, ctx: StoreCtx| list_terms(s, ctx, Taxonomy::Brand),
        )
        .get(
            "/products/brands/{id}",
            |State(s): State<SharedState>, ctx: StoreCtx, PathText(id): PathText| {
                get_term(s, ctx, id, Taxonomy::Brand)
            },
        )
        .get("/products/attributes", list_attributes)
        .get("/products/attributes/{id}", get_attribute)
        .get("/products/attributes/{id}/terms", list_attribute_terms)
        .get("/products/{id}", get_product)
}

async fn list_products(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    RawQuery(raw): RawQuery,
) -> Response {
    let res = match parse_product_query(raw.as_deref().unwrap_or("")) {
        Err(e) => e.into_response(),
        Ok(mut query) => {
            let catalog = state.catalog.get();
            let key = snapshot_key(&ctx, raw.as_deref().unwrap_or(""));
            let (total, pages, body) = match catalog.listings.get(&key) {
                Some(hit) => hit,
                None => {
                    if let Some(text) = &query.search {
                        query.search_hits = search_hits(&state, text).await;
                    }
                    let (page, total) = catalog.list(&query);
                    let view = ctx.view(&state);
                    let items: Vec<_> = page
                        .into_iter()
                        .map(|p| product_view(&view, &catalog, p))
                        .collect();
                    let body =
                        Bytes::from(serde_json::to_vec(&items).unwrap_or_else(|_| b"[]".to_vec()));
                    let pages = total.div_ceil(query.per_page);
                    // Search answers follow the search index, which changes apart
                    // from the snapshot (and is built after start): never cached.
                    if query.search.is_none() {
                        let size = body.len();
                        catalog
                            .listings
                            .put(key, (total, pages, body.clone()), size);
                    }
                    (total, pages, body)
                }
            };
            let mut res = json_bytes(StatusCode::OK, body);
            let h = res.headers_mut();
            h.insert("x-wp-total", HeaderValue::from(total));
            h.insert("x-wp-totalpages", HeaderValue::from(pages));
            if let Some(link) = page_links(
                ctx.base_url.as_str(),
                raw.as_deref().unwrap_or(""),
                query.page,
                pages,
            ) {
                if let Ok(v) = HeaderValue::from_str(&link) {
                    h.insert("link", v);
                }
            }
            res
        }
    };
    ctx.finish(&state, res)
}

/// What a response kept per catalogue snapshot (listings, filter counts) is kept
/// under: the shop's address (its links are absolute) and the request's query as sent.
fn snapshot_key(ctx: &StoreCtx, raw: &str) -> String {
    format!("{}?{raw}", ctx.base_url)
}

/// The search index's matches for `text` (None: match plainly).
async fn search_hits(state: &SharedState, text: &str) -> Option<Vec<ProductId>> {
    let search = state.search.clone();
    let text = text.to_string();
    tokio::task::spawn_blocking(move || search.hits(&text))
        .await
        .ok()
        .flatten()
}

/// Counts for a filter panel over the products a listing query matches, in the
/// Store API's collection-data shape.
async fn collection_data(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    RawQuery(raw): RawQuery,
) -> Response {
    let raw = raw.as_deref().unwrap_or("");
    let pairs = query_pairs(raw);
    let res = match product_query(&pairs).and_then(|q| Ok((q, parse_facet_request(&pairs)?))) {
        Err(e) => e.into_response(),
        Ok((mut query, want)) => {
            let catalog = state.catalog.get();
            let key = snapshot_key(&ctx, raw);
            match catalog.collections.get(&key) {
                Some(body) => json_bytes(StatusCode::OK, body),
                None => {
                    let searched = query.search.is_some();
                    if let Some(text) = &query.search {
                        query.search_hits = search_hits(&state, text).await;
                    }
                    let facets = catalog.facets(&query, &want);
                    let view = ctx.view(&state);
                    let body = Bytes::from(
                        serde_json::to_vec(&collection_view(&view, &facets))
                            .unwrap_or_else(|_| b"{}".to_vec()),
                    );
                    // As listings: kept for this snapshot, but never for a search.
                    if !searched {
                        let size = body.len();
                        catalog.collections.put(key, body.clone(), size);
                    }
                    json_bytes(StatusCode::OK, body)
                }
            }
        }
    };
    ctx.finish(&state, res)
}

async fn get_product(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
) -> Response {
    let catalog = state.catalog.get();
    let res = match id.parse::<i64>() {
        // The original's route only matches digits.
        Err(_) => ApiError::not_found().into_response(),
        Ok(id) => match catalog.shown(ProductId(id)) {
            None => ApiError::new(
                StatusCode::NOT_FOUND,
                "woocommerce_rest_product_invalid_id",
                "Invalid product ID.",
            )
            .into_response(),
            Some(p) => {
                let view = ctx.view(&state);
                json_value(StatusCode::OK, &product_view(&view, &catalog, p))
            }
        },
    };
    ctx.finish(&state, res)
}

async fn list_attributes(State(state): State<SharedState>, ctx: StoreCtx) -> Response {
    let catalog = state.catalog.get();
    let items: Vec<_> = catalog
        .data
        .attributes
        .iter()
        .map(global_attribute_view)
        .collect();
    ctx.finish(&state, json_value(StatusCode::OK, &items))
}

async fn get_attribute(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
) -> Response {
    let catalog = state.catalog.get();
    let res = match find_attribute(&catalog, &id) {
        Some(a) => json_value(StatusCode::OK, &global_attribute_view(a)),
        None => attribute_not_found(),
    };
    ctx.finish(&state, res)
}

async fn list_attribute_terms(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
) -> Response {
    let catalog = state.catalog.get();
    let res = match find_attribute(&catalog, &id) {
        Some(a) => {
            let items: Vec<_> = a
                .terms
                .iter()
                .map(|t| global_term_view(&catalog, a, t))
                .collect();
            json_value(StatusCode::OK, &items)
        }
        None => attribute_not_found(),
    };
    ctx.finish(&state, res)
}

fn find_attribute<'a>(
    catalog: &'a rules::catalog::index::Catalog,
    id: &str,
) -> Option<&'a rules::catalog::model::Attribute> {
    catalog.attribute(AttributeId(id.parse().ok()?))
}

fn attribute_not_found() -> Response {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "woocommerce_rest_taxonomy_invalid",
        "Attribute does not exist.",
    )
    .into_response()
}

/// Categories and brands answer alike.
#[derive(Clone, Copy)]
enum Taxonomy {
    Category,
    Brand,
}

async fn list_terms(state: SharedState, ctx: StoreCtx, taxonomy: Taxonomy) -> Response {
    let catalog = state.catalog.get();
    let view = ctx.view(&state);
    let items: Vec<TermView> = match taxonomy {
        Taxonomy::Category => catalog
            .data
            .categories
            .iter()
            .map(|c| category_view(&view, &catalog, c))
            .collect(),
        Taxonomy::Brand => catalog
            .data
            .brands
            .iter()
            .map(|b| brand_view(&view, &catalog, b))
            .collect(),
    };
    ctx.finish(&state, json_value(StatusCode::OK, &items))
}

async fn get_term(state: SharedState, ctx: StoreCtx, id: String, taxonomy: Taxonomy) -> Response {
    let catalog = state.catalog.get();
    let view = ctx.view(&state);
    let id = id.parse().ok();
    let found = match taxonomy {
        Taxonomy::Category => id
            .and_then(|id| catalog.category(CategoryId(id)))
            .map(|c| category_view(&view, &catalog, c)),
        Taxonomy::Brand => id
            .and_then(|id| catalog.brand(BrandId(id)))
            .map(|b| brand_view(&view, &catalog, b)),
    };
    let res = match (found, taxonomy) {
        (Some(term), _) => json_value(StatusCode::OK, &term),
        (None, Taxonomy::Category) => ApiError::new(
            StatusCode::NOT_FOUND,
            "woocommerce_rest_category_invalid_id",
            "Invalid category ID.",
        )
        .into_response(),
        (None, Taxonomy::Brand) => ApiError::new(
            StatusCode::NOT_FOUND,
            "woocommerce_rest_brand_invalid_id",
            "Invalid brand ID.",
        )
        .into_response(),
    };
    ctx.finish(&state, res)
}

fn out_of_bounds(param: &str, message: String) -> ApiError {
    ApiError::invalid_param(param, message, "rest_out_of_bounds")
}

fn not_in_enum(param: &str, allowed: &str) -> ApiError {
    ApiError::invalid_param(
        param,
        format!("{param} is not one of {allowed}."),
        "rest_not_in_enum",
    )
}

fn parse_bool(param: &str, v: &str) -> Result<bool, ApiError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" | "" => Ok(false),
        _ => Err(ApiError::invalid_param(
            param,
            format!("{param} is not of type boolean."),
            "rest_invalid_type",
        )),
    }
}

fn parse_int(param: &str, v: &str) -> Result<i64, ApiError> {
    v.trim().parse().map_err(|_| ApiError::not_integer(param))
}

/// A list given as `a,b` or as repeated `name[]=a&name[]=b`.
fn list_values(pairs: &[(String, String)], name: &str) -> Option<Vec<String>> {
    let array_name = format!("{name}[]");
    let values: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == name || *k == array_name)
        .flat_map(|(_, v)| {
            v.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    (!values.is_empty()).then_some(values)
}

pub fn parse_product_query(raw: &str) -> Result<ProductQuery, ApiError> {
    product_query(&query_pairs(raw))
}

/// A query string's name-value pairs, in order.
fn query_pairs(raw: &str) -> Vec<(String, String)> {
    serde_urlencoded::from_str(raw).unwrap_or_default()
}

fn product_query(pairs: &[(String, String)]) -> Result<ProductQuery, ApiError> {
    let one = |name: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let mut q = ProductQuery::default();
    if let Some(v) = one("page") {
        let page = parse_int("page", v)?;
        if page < 1 {
            return Err(out_of_bounds(
                "page",
                "page must be greater than or equal to 1".into(),
            ));
        }
        q.page = usize::try_from(page).unwrap_or(usize::MAX).min(1_000_000);
    }
    if let Some(v) = one("per_page") {
        let per_page = parse_int("per_page", v)?;
        if !(1..=100).contains(&per_page) {
            return Err(out_of_bounds(
                "per_page",
                "per_page must be between 1 (inclusive) and 100 (inclusive)".into(),
            ));
        }
        q.per_page = per_page as usize;
    }
    if let Some(v) = one("orderby") {
        q.orderby = OrderBy::parse(v).ok_or_else(|| not_in_enum("orderby", OrderBy::NAMES))?;
    }
    if let Some(v) = one("order") {
        q.order = match v {
            "asc" => SortOrder::Asc,
            "desc" => SortOrder::Desc,
            _ => return Err(not_in_enum("order", "asc, desc")),
        };
    }
    q.category =
        list_values(pairs, "category").map(|v| v.iter().map(|s| IdOrSlug::parse(s)).collect());
    q.brand = list_values(pairs, "brand")
        .or_else(|| list_values(pairs, "brands"))
        .map(|v| v.iter().map(|s| IdOrSlug::parse(s)).collect());
    q.tag = list_values(pairs, "tag").map(|v| v.iter().map(|s| IdOrSlug::parse(s)).collect());
    q.search = one("search")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().take(200).collect());
    if q.search.is_some() && one("orderby").is_none() {
        // A search names no order: best match first.
        q.orderby = OrderBy::Relevance;
    }
    if let Some(v) = one("on_sale") {
        q.on_sale = Some(parse_bool("on_sale", v)?).filter(|b| *b);
    }
    if let Some(v) = one("featured") {
        q.featured = Some(parse_bool("featured", v)?).filter(|b| *b);
    }
    if let Some(v) = one("min_price").filter(|v| !v.is_empty()) {
        q.min_price = Some(parse_int("min_price", v)?);
    }
    if let Some(v) = one("max_price").filter(|v| !v.is_empty()) {
        q.max_price = Some(parse_int("max_price", v)?);
    }
    if let Some(values) = list_values(pairs, "include") {
        q.include = Some(
            values
                .iter()
                .map(|v| parse_int("include", v).map(ProductId))
                .collect::<Result<_, _>>()?,
        );
    }
    if let Some(values) = list_values(pairs, "exclude") {
        q.exclude = values
            .iter()
            .map(|v| parse_int("exclude", v).map(ProductId))
            .collect::<Result<_, _>>()?;
    }
    q.slug = one("slug").filter(|s| !s.is_empty()).map(str::to_string);
    q.sku = one("sku").filter(|s| !s.is_empty()).map(str::to_string);
    if let Some(v) = one("type").filter(|s| !s.is_empty()) {
        q.kind = Some(
            ProductKind::parse(v)
                .ok_or_else(|| not_in_enum("type", "simple, external, variable, variation"))?,
        );
    }
    if let Some(values) = list_values(pairs, "stock_status") {
        q.stock_status = Some(
            values
                .iter()
                .map(|v| {
                    StockStatus::parse(v).ok_or_else(|| {
                        not_in_enum("stock_status", "instock, outofstock, onbackorder")
                    })
                })
                .collect::<Result<_, _>>()?,
        );
    }
    if let Some(values) = list_values(pairs, "rating") {
        q.rating = Some(
            values
                .iter()
                .map(|v| match v.parse::<u8>() {
                    Ok(stars @ 1..=5) => Ok(stars),
                    _ => Err(not_in_enum("rating", "1, 2, 3, 4, 5")),
                })
                .collect::<Result<_, _>>()?,
        );
    }
    q.attributes = attribute_filters(pairs)?;
    if let Some(v) = one("attribute_relation") {
        q.attribute_relation = match v {
            "and" => TermRelation::And,
            "or" => TermRelation::Or,
            _ => return Err(not_in_enum("attribute_relation", "and, or")),
        };
    }
    Ok(q)
}

/// Each index's (field, value) pairs, in the order given.
type IndexedParams<'a> = std::collections::BTreeMap<u32, Vec<(&'a str, &'a str)>>;

/// The fields of `name[i][field]=value` parameters, by index `i` in order; a list
/// field may be written `name[i][field][]`. More than 20 indexes is refused.
fn indexed_params<'a>(
    pairs: &'a [(String, String)],
    name: &str,
) -> Result<IndexedParams<'a>, ApiError> {
    let prefix = format!("{name}[");
    let mut by_index = IndexedParams::new();
    for (key, value) in pairs {
        let Some((index, field)) = key
            .strip_prefix(prefix.as_str())
            .and_then(|rest| rest.split_once("]["))
        else {
            continue;
        };
        let Ok(index) = index.parse::<u32>() else {
            continue;
        };
        if by_index.len() >= 20 && !by_index.contains_key(&index) {
            return Err(ApiError::invalid_param(
                name,
                format!("{name} holds too many entries."),
                "rest_invalid_param",
            ));
        }
        let field = field.trim_end_matches("[]").trim_end_matches(']');
        by_index
            .entry(index)
            .or_default()
            .push((field, value.as_str()));
    }
    Ok(by_index)
}

/// `attributes[0][attribute]=pa_color&attributes[0][slug][]=blue&attributes[0][operator]=in`
/// (terms by `slug` or `term_id`, each a list).
fn attribute_filters(pairs: &[(String, String)]) -> Result<Vec<AttributeFilter>, ApiError> {
    let mut filters = Vec::new();
    for fields in indexed_params(pairs, "attributes")?.into_values() {
        let mut filter = AttributeFilter {
            taxonomy: String::new(),
            terms: Vec::new(),
            operator: TermOperator::In,
        };
        for (field, value) in fields {
            let values = value.split(',').map(str::trim).filter(|s| !s.is_empty());
            match field {
                "attribute" => filter.taxonomy = value.trim().to_string(),
                "slug" => filter
                    .terms
                    .extend(values.map(|s| IdOrSlug::Slug(s.to_string()))),
                "term_id" => {
                    for v in values {
                        filter.terms.push(IdOrSlug::Id(parse_int("attributes", v)?));
                    }
                }
                "operator" => {
                    filter.operator = TermOperator::parse(value.trim())
                        .ok_or_else(|| not_in_enum("attributes", "in, not_in, and"))?
                }
                _ => {}
            }
        }
        if !filter.taxonomy.is_empty() && !filter.terms.is_empty() {
            filters.push(filter);
        }
    }
    Ok(filters)
}

/// What `/products/collection-data` is asked to count:
/// `calculate_price_range`, `calculate_rating_counts`, `calculate_stock_status_counts`,
/// `calculate_attribute_counts[i][taxonomy]` with `[query_type]` (`or`, `and`),
/// `calculate_taxonomy_counts` (`product_cat`, `product_brand`, `product_tag`), and
/// this shop's `calculate_price_bands`.
fn parse_facet_request(pairs: &[(String, String)]) -> Result<FacetRequest, ApiError> {
    let flag = |name: &str| -> Result<bool, ApiError> {
        match pairs.iter().rev().find(|(k, _)| k == name) {
            None => Ok(false),
            Some((_, v)) => parse_bool(name, v),
        }
    };
    let mut want = FacetRequest {
        price_range: flag("calculate_price_range")?,
        price_bands: flag("calculate_price_bands")?,
        rating_counts: flag("calculate_rating_counts")?,
        stock_status_counts: flag("calculate_stock_status_counts")?,
        ..FacetRequest::default()
    };
    for fields in indexed_params(pairs, "calculate_attribute_counts")?.into_values() {
        let (mut taxonomy, mut or) = (String::new(), true);
        for (field, value) in fields {
            match field {
                "taxonomy" => taxonomy = value.trim().to_string(),
                "query_type" => {
                    or = match value.trim() {
                        "or" => true,
                        "and" => false,
                        _ => return Err(not_in_enum("calculate_attribute_counts", "or, and")),
                    }
                }
                _ => {}
            }
        }
        if !taxonomy.is_empty() {
            want.attribute_counts.push((taxonomy, or));
        }
    }
    if let Some(values) = list_values(pairs, "calculate_taxonomy_counts") {
        for v in values.into_iter().take(3) {
            if !matches!(v.as_str(), "product_cat" | "product_brand" | "product_tag") {
                return Err(not_in_enum(
                    "calculate_taxonomy_counts",
                    "product_cat, product_brand, product_tag",
                ));
            }
            if !want.taxonomy_counts.contains(&v) {
                want.taxonomy_counts.push(v);
            }
        }
    }
    Ok(want)
}

/// `Link` header with the previous and next pages, as WordPress sends it.
fn page_links(base_url: &str, raw: &str, page: usize, pages: usize) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw).unwrap_or_default();
    let url_for = |n: usize| {
        let mut p: Vec<(String, String)> =
            pairs.iter().filter(|(k, _)| k != "page").cloned().collect();
        p.push(("page".into(), n.to_string()));
        format!(
            "{base_url}/wp-json/wc/store/v1/products?{}",
            serde_urlencoded::to_string(&p).unwrap_or_default()
        )
    };
    let mut links = Vec::new();
    if page > 1 && page <= pages + 1 {
        links.push(format!("<{}>; rel=\"prev\"", url_for(page - 1)));
    }
    if page < pages {
        links.push(format!("<{}>; rel=\"next\"", url_for(page + 1)));
    }
    (!links.is_empty()).then(|| links.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_query_is_parsed_and_checked() {
        let q = parse_product_query(
            "per_page=12&orderby=price&order=asc&category=hoodies,5&on_sale=true&min_price=1000",
        )
        .unwrap();
        assert_eq!(q.per_page, 12);
        assert_eq!(q.orderby, OrderBy::Price);
        assert_eq!(q.order, SortOrder::Asc);
        assert_eq!(
            q.category,
            Some(vec![IdOrSlug::Slug("hoodies".into()), IdOrSlug::Id(5)])
        );
        assert_eq!(q.on_sale, Some(true));
        assert_eq!(q.min_price, Some(1000));
    }

    #[test]
    fn bad_listing_parameters_are_named() {
        for (raw, param) in [
            ("per_page=0", "per_page"),
            ("per_page=101", "per_page"),
            ("page=abc", "page"),
            ("page=0", "page"),
            ("orderby=colour", "orderby"),
            ("order=up", "order"),
            ("on_sale=perhaps", "on_sale"),
            ("min_price=cheap", "min_price"),
            ("type=bundle", "type"),
        ] {
            let err = parse_product_query(raw).unwrap_err();
            assert_eq!(err.code, "rest_invalid_param", "{raw}");
            assert!(err.data["params"].get(param).is_some(), "{raw}");
        }
    }

    #[test]
    fn links_point_to_neighbouring_pages() {
        let l = page_links("http://s", "per_page=12&page=2", 2, 4).unwrap();
        assert!(l.contains("page=1>; rel=\"prev\""));
        assert!(l.contains("page=3>; rel=\"next\""));
        assert!(page_links("http://s", "", 1, 1).is_none());
    }
}
