//! Wishlists (`wishlist::api`, `wishlist::ajax`, `wishlist::add`): the storefront's
//! reads under the shop's own root, and what the classic calls' description on `/`
//! adds for the table's call (`?wc-ajax=tinvwl`) and the add posted to a page.

use serde_json::{json, Value};

use super::operation::Op;
use super::shapes::{
    any_object, array, boolean, integer, map_of, nullable, record, record_with_optional, string,
};
use crate::http::FERROSHOP_API_ROOT;

const WISHLISTS: &str = "Wishlists";

pub fn operations() -> Vec<Op> {
    vec![list_wishlists(), get_wishlist()]
}

fn list_wishlists() -> Op {
    Op::get(&format!("{FERROSHOP_API_ROOT}/wishlists"), WISHLISTS, "List the shopper's wishlists")
        .describe("The lists of the signed-in customer, or of the guest whose `tinv_wishlistkey` cookie names them: the default list first. `[]` for a shopper with none. Never cached.")
        .store_read()
        .json(200, "The lists.", array(record(&[
            ("ID", integer()),
            ("title", string()),
            ("status", string()),
            ("share_key", string()),
            ("url", string()),
            ("count", integer()),
            ("is_default", boolean()),
        ])))
        .header(200, "Cache-Control", true)
}

fn get_wishlist() -> Op {
    let image = nullable(record(&[
        ("src", string()),
        ("srcset", string()),
        ("sizes", string()),
        ("alt", string()),
    ]));
    let item = record(&[
        ("item_id", integer()),
        ("product_id", integer()),
        ("variation_id", integer()),
        ("name", string()),
        ("permalink", string()),
        ("image", image),
        ("prices", any_object()),
        ("price_html", string()),
        (
            "stock",
            record(&[("is_in_stock", boolean()), ("text", string())]),
        ),
        (
            "variation",
            array(record(&[("attribute", string()), ("value", string())])),
        ),
        ("type", string()),
        ("is_purchasable", boolean()),
        ("added_at", string()),
    ]);
    Op::get(&format!("{FERROSHOP_API_ROOT}/wishlists/{{key}}"), WISHLISTS, "Get a page of a wishlist")
        .path_param("key", json!({"type": "string"}), "A list's share key (12 lowercase hexadecimal characters), or `default`: the shopper's default list (`ID` 0 and no items when they have none yet).")
        .query("page", json!({"type": "integer", "minimum": 1}), "The page (default 1); beyond the last, the last.")
        .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 50}), "Items per page (default 10).")
        .describe("A page of the list's items, newest first, each with the Store API's product figures; `is_owner` says whether the shopper may change it. Anyone with the share key may read a list. Never cached.")
        .store_read()
        .json(200, "The page.", record(&[
            ("ID", integer()),
            ("title", string()),
            ("status", string()),
            ("share_key", string()),
            ("url", string()),
            ("is_owner", boolean()),
            ("items", array(item)),
            ("total", integer()),
            ("page", integer()),
            ("per_page", integer()),
            ("pages", integer()),
        ]))
        .header(200, "Cache-Control", true)
        .error(400, "`page` or `per_page` is out of range or not an integer (`rest_invalid_param`).")
        .error(404, "No list has this key (`wishlist_not_found`: \"Wishlist is not found!\").")
}

/// The form fields of the table's call and of the add posted to a page.
pub fn classic_fields() -> Vec<(&'static str, Value)> {
    let text = |d: &str| json!({"type": "string", "description": d});
    vec![
        ("tinvwl-action", text("tinvwl: remove, remove_selected, add_to_cart_single, add_to_cart_selected, add_to_cart_all, get_data, create_list, rename_list, delete_list")),
        ("tinvwl-security", text("tinvwl: the session's `wp_rest` nonce (or the `X-WP-Nonce` header)")),
        ("tinvwl-product_id", json!({"type": ["integer", "string"], "description": "tinvwl: an item of the list (remove, add_to_cart_single)"})),
        ("tinvwl-products", json!({"type": "array", "items": {"type": ["integer", "string"]}, "maxItems": 500, "description": "tinvwl: items of the list (`tinvwl-products[]`)"})),
        ("tinvwl-paged", json!({"type": ["integer", "string"], "description": "tinvwl: the table's page"})),
        ("tinvwl-per-page", json!({"type": ["integer", "string"], "description": "tinvwl: the table's page size (at most 50)"})),
        ("tinvwl-sharekey", text("tinvwl: the list (empty: the shopper's default list)")),
        ("tinvwl-name", text("tinvwl: create_list, rename_list: the list's title (1 to 100 characters)")),
        ("stats", text("tinvwl and the add: non-empty and not `0` adds `stats` and `stats_count` to `wishlists_data`")),
    ]
}

/// `wishlists_data`.
fn wishlists_data() -> Value {
    record_with_optional(
        &[
            ("products", map_of(map_of(any_object()))),
            ("counter", integer()),
        ],
        &[
            ("stats", map_of(map_of(integer()))),
            ("stats_count", integer()),
        ],
    )
}

/// The table's answer.
pub fn table_answer() -> Value {
    record_with_optional(
        &[
            ("status", boolean()),
            ("action", string()),
            ("icon", string()),
            ("wishlists_data", wishlists_data()),
        ],
        &[
            ("msg", string()),
            ("content", string()),
            ("redirect", string()),
            ("wishlist", any_object()),
        ],
    )
}

/// The add's answer.
pub fn add_answer() -> Value {
    record_with_optional(
        &[
            ("status", boolean()),
            ("icon", string()),
            ("action", string()),
            ("wishlist_url", string()),
            ("wishlists_data", wishlists_data()),
        ],
        &[
            ("msg", string()),
            ("wishlist", any_object()),
            ("redirect", string()),
            ("force_redirect", string()),
            ("make_remove", boolean()),
            ("removed", boolean()),
        ],
    )
}

/// A refused wishlist call: `{status: false, icon, msg, code}`.
pub fn refusal() -> Value {
    record_with_optional(
        &[("status", boolean()), ("icon", string()), ("msg", string())],
        &[("code", string())],
    )
}
