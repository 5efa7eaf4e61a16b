//! A list as the storefront reads it (one page of its items, each with the Store
//! API's product figures) and as the plugin's client shows it (the table's HTML).

use serde_json::{json, Value};

use crate::catalog::view::{product_view, ViewContext};
use crate::http::store_api::StoreCtx;
use crate::state::AppState;
use rules::catalog::index::Catalog;
use rules::catalog::model::ProductId;
use rules::html::escape;
use rules::wishlist::{Paging, DEFAULT_TITLE};
use store::wishlists::{self as lists, Item, Wishlist};
use store::StoreResult;

/// One item as the JSON read shows it; None when its product is no longer shown.
pub fn item_json(view: &ViewContext, catalog: &Catalog, item: &Item) -> Option<Value> {
    let target = if item.variation_id > 0 {
        item.variation_id
    } else {
        item.product_id
    };
    let p = catalog.shown(ProductId(target))?;
    let pv = product_view(view, catalog, p);
    let image = pv
        .images
        .first()
        .map(|i| json!({"src": i.src, "srcset": i.srcset, "sizes": i.sizes, "alt": i.alt}));
    let stock_text = match pv.stock_status {
        "outofstock" => "Out of stock",
        "onbackorder" => "Available on backorder",
        _ => "In stock",
    };
    let variation: Vec<Value> = p
        .variation
        .iter()
        .map(|v| {
            json!({
                "attribute": catalog.attribute_label(&v.attribute),
                "value": catalog.value_name(&v.attribute, &v.value),
            })
        })
        .collect();
    Some(json!({
        "item_id": item.id,
        "product_id": item.product_id,
        "variation_id": item.variation_id,
        "name": pv.name,
        "permalink": pv.permalink,
        "image": image,
        "prices": pv.prices,
        "price_html": pv.price_html,
        "stock": {"is_in_stock": pv.is_in_stock, "text": stock_text},
        "variation": variation,
        "type": pv.kind,
        "is_purchasable": pv.is_purchasable,
        "added_at": rules::clock::iso_date(item.added_at),
    }))
}

/// A page of a list (or of no list yet: the shopper's empty default list, `ID` 0).
pub async fn list_page(
    state: &AppState,
    ctx: &StoreCtx,
    list: Option<&Wishlist>,
    is_owner: bool,
    page: i64,
    per_page: i64,
) -> StoreResult<Value> {
    let total = list.map_or(0, |l| l.item_count);
    let paging = Paging::of(total, page, per_page);
    let items = match list {
        Some(l) => lists::items_page(&state.db, l.id, paging.offset, paging.per_page).await?,
        None => Vec::new(),
    };
    let catalog = state.catalog.get();
    let view = ctx.view(state);
    let items: Vec<Value> = items
        .iter()
        .filter_map(|i| item_json(&view, &catalog, i))
        .collect();
    Ok(json!({
        "ID": list.map_or(0, |l| l.id),
        "title": list.map_or(DEFAULT_TITLE, |l| l.title.as_str()),
        "status": "share",
        "share_key": list.map_or("", |l| l.share_key.as_str()),
        "url": list.map_or_else(|| ctx.base_url.link("/wishlist/"), |l| super::list_url(ctx, l)),
        "is_owner": is_owner,
        "items": items,
        "total": total,
        "page": paging.page,
        "per_page": paging.per_page,
        "pages": paging.pages,
    }))
}

/// The list's table as the plugin's client replaces it (`content`), from a page as
/// `list_page` reads it.
pub fn table_html(page: &Value) -> String {
    let is_owner = page["is_owner"].as_bool().unwrap_or(false);
    let attr = |v: &Value| escape(&v.as_str().map_or_else(|| v.to_string(), str::to_string));
    let mut out = format!(
        "<div class=\"tinv-wishlist woocommerce tinv-wishlist-clear\"><form method=\"post\" data-tinvwl_paged=\"{}\" data-tinvwl_per_page=\"{}\" data-tinvwl_sharekey=\"{}\">",
        attr(&page["page"]),
        attr(&page["per_page"]),
        attr(&page["share_key"]),
    );
    let items = page["items"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if items.is_empty() {
        let text = if is_owner {
            "Your Wishlist is currently empty."
        } else {
            "Wishlist is currently empty."
        };
        out.push_str(&format!(
            "<p class=\"cart-empty woocommerce-info\">{text}</p></form></div>"
        ));
        return out;
    }
    out.push_str("<table class=\"tinvwl-table-manage-list\"><thead><tr>");
    if is_owner {
        out.push_str("<th class=\"product-cb\"><input type=\"checkbox\" class=\"global-cb\" title=\"Select all for bulk action\"></th><th class=\"product-remove\"></th>");
    }
    out.push_str("<th class=\"product-thumbnail\">&nbsp;</th><th class=\"product-name\">Product Name</th><th class=\"product-price\">Unit Price</th><th class=\"product-date\">Date Added</th><th class=\"product-stock\">Stock Status</th><th class=\"product-action\">&nbsp;</th></tr></thead><tbody>");
    for item in items {
        let id = attr(&item["item_id"]);
        out.push_str("<tr class=\"wishlist_item\">");
        if is_owner {
            out.push_str(&format!("<td class=\"product-cb\"><input type=\"checkbox\" name=\"wishlist_pr[]\" value=\"{id}\"></td><td class=\"product-remove\"><button type=\"submit\" name=\"tinvwl-remove\" value=\"{id}\" title=\"Remove\"><i class=\"ftinvwl ftinvwl-times\"></i></button></td>"));
        }
        let image = item["image"]["src"]
            .as_str()
            .map(|src| {
                format!(
                    "<img src=\"{}\" alt=\"{}\">",
                    escape(src),
                    attr(&item["image"]["alt"])
                )
            })
            .unwrap_or_default();
        let date = item["added_at"].as_str().unwrap_or_default();
        out.push_str(&format!(
            "<td class=\"product-thumbnail\">{image}</td><td class=\"product-name\"><a href=\"{}\">{}</a></td><td class=\"product-price\">{}</td><td class=\"product-date\"><time class=\"entry-date\" datetime=\"{}\">{}</time></td><td class=\"product-stock\"><p class=\"stock\"><span>{}</span></p></td><td class=\"product-action\"><button class=\"button alt\" name=\"tinvwl-add-to-cart\" value=\"{id}\" title=\"Add to Cart\">Add to Cart</button></td></tr>",
            attr(&item["permalink"]),
            attr(&item["name"]),
            // The shop's own price HTML.
            item["price_html"].as_str().unwrap_or_default(),
            escape(&date.replace('T', " ")),
            escape(date.split('T').next().unwrap_or_default()),
            attr(&item["stock"]["text"]),
        ));
    }
    out.push_str("</tbody></table>");
    if page["pages"].as_i64().unwrap_or(1) > 1 {
        out.push_str(&format!(
            "<div class=\"tinv-lists-nav tinv-wishlist-clear\"><span>{}/{}</span></div>",
            attr(&page["page"]),
            attr(&page["pages"])
        ));
    }
    out.push_str("</form></div>");
    out
}
