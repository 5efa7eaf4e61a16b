//! The classic calls, `?wc-ajax=NAME` on any path (`cart::ajax`, `checkout::ajax`),
//! described on `/`. They answer in the shapes the original shop's scripts read:
//! JSON with HTML fragments, bare HTML notices, and `-1` for a refused nonce.

use serde_json::{json, Value};

use super::operation::Op;
use super::shapes::{
    boolean, constant, input, integer, map_of, record, record_with_optional, shape, string,
};

const CLASSIC: &str = "Classic calls";

/// Every classic call's name; `get_refreshed_fragments` alone is also taken by GET.
const NAMES: [&str; 24] = [
    "add_to_cart",
    "get_variation",
    "remove_from_cart",
    "get_refreshed_fragments",
    "update_order_review",
    "checkout",
    "apply_coupon",
    "remove_coupon",
    "wc_stripe_init_setup_intent",
    "wc_stripe_create_payment_intent",
    "wc_stripe_create_and_confirm_setup_intent",
    "wc_stripe_update_payment_intent",
    "wc_stripe_update_order_status",
    "wc_stripe_confirm_change_payment",
    "wc_stripe_update_failed_order",
    "wc_stripe_save_appearance",
    "wc_stripe_get_cart_details",
    "wc_stripe_get_shipping_options",
    "wc_stripe_update_shipping_method",
    "wc_stripe_normalize_address",
    "wc_stripe_add_to_cart",
    "wc_stripe_clear_cart",
    "wc_stripe_get_selected_product_data",
    "tinvwl",
];

pub fn operations() -> Vec<Op> {
    vec![read(), write()]
}

fn name_param(names: &[&str]) -> Value {
    json!({
        "name": "wc-ajax", "in": "query", "required": true,
        "schema": {"type": "string", "enum": names},
        "description": "The call. Any path takes it; without it the path is a storefront page.",
    })
}

fn read() -> Op {
    Op::get("/", CLASSIC, "Refresh the mini-cart (classic call)")
        .describe("`?wc-ajax=get_refreshed_fragments`: the mini-cart's fragments and the cart hash. The calls that change something are refused by GET. Without `wc-ajax`, `/` is the storefront's home page.")
        .param(name_param(&["get_refreshed_fragments"]))
        .json(200, "The fragments.", shape("Fragments"))
        .html(200, "Without `wc-ajax`: the storefront's home page.")
        .json(400, "An unknown call (`unknown_action`), or a host the shop does not answer for (`ferroshop_unknown_host`).", shape("ClassicError"))
        .html(400, "Without `wc-ajax`: a host the shop does not answer for.")
        .json(405, "A call that changes something, sent by GET (`method_not_allowed`).", shape("ClassicError"))
        .header(405, "Allow", true)
}

fn write() -> Op {
    let text = string();
    let mut fields: Vec<(String, Value)> = [
        ("product_id", json!({"type": ["integer", "string"], "description": "add_to_cart"})),
        ("add-to-cart", json!({"type": ["integer", "string"], "description": "add_to_cart: the product, when `product_id` is not sent"})),
        ("quantity", json!({"type": ["integer", "string"], "description": "add_to_cart"})),
        ("variation_id", json!({"type": ["integer", "string"], "description": "add_to_cart; `attribute_pa_…` fields choose the variation"})),
        ("cart_item_key", json!({"type": "string", "description": "remove_from_cart"})),
        ("security", json!({"type": "string", "description": "update_order_review, apply_coupon, remove_coupon: the page's nonce for the call; the express checkout calls: theirs from the express checkout params"})),
        ("qty", json!({"type": ["integer", "string"], "description": "wc_stripe_add_to_cart, wc_stripe_get_selected_product_data: how many (default 1)"})),
        ("attributes", json!({"type": "object", "additionalProperties": {"type": "string"}, "description": "wc_stripe_add_to_cart, wc_stripe_get_selected_product_data: a variable product's options, `attributes[attribute_pa_color]=blue`"})),
        ("is_product_page", json!({"type": "string", "description": "wc_stripe_get_shipping_options, wc_stripe_update_shipping_method: `1` lists each line of the cart, `0` a subtotal"})),
        ("address", json!({"type": "string", "description": "update_order_review, wc_stripe_get_shipping_options: the first address line"})),
        ("data", json!({"type": "object", "description": "wc_stripe_normalize_address: `data[billing_address][…]`, `data[shipping_address][…]`"})),
        ("booking_id", json!({"type": ["integer", "string"], "description": "wc_stripe_clear_cart"})),
        ("coupon_code", json!({"type": "string", "description": "apply_coupon"})),
        ("coupon", json!({"type": "string", "description": "remove_coupon"})),
        ("billing_email", json!({"type": "string", "description": "apply_coupon: checks coupons limited to some customers; checkout: the billing address"})),
        ("post_data", json!({"type": "string", "description": "update_order_review: the checkout form, serialised"})),
        ("has_full_address", text.clone()),
        ("shipping_method", json!({"type": ["array", "object"], "description": "The rate chosen per package: `shipping_method[0]=flat_rate:1`."})),
        ("payment_method", text.clone()),
        ("ship_to_different_address", text.clone()),
        ("order_comments", text.clone()),
        ("terms", text.clone()),
        ("createaccount", text.clone()),
        ("account_password", text.clone()),
        ("woocommerce-process-checkout-nonce", json!({"type": "string", "description": "checkout: the page's nonce"})),
        ("_ajax_nonce", json!({"type": "string", "description": "wc_stripe_…: the call's own nonce from the page settings (or the 3-D Secure fragment's)"})),
        ("stripe_order_id", json!({"type": ["integer", "string"], "description": "wc_stripe_create_payment_intent, wc_stripe_update_payment_intent"})),
        ("order_id", json!({"type": ["integer", "string"], "description": "wc_stripe_update_order_status, wc_stripe_confirm_change_payment, wc_stripe_update_failed_order"})),
        ("intent_id", json!({"type": "string", "description": "the intent (`pi_…`, `seti_…`)"})),
        ("payment_method_id", text.clone()),
        ("payment_method_type", json!({"type": "string", "description": "card, sepa_debit, …"})),
        ("wc_payment_intent_id", text.clone()),
        ("save_payment_method", text.clone()),
        ("selected_upe_payment_type", text.clone()),
        ("appearance", json!({"type": "string", "description": "wc_stripe_save_appearance: the element's appearance, as JSON text"})),
        ("is_block_checkout", text.clone()),
        ("theme_name", text.clone()),
        ("wc-stripe-payment-method", json!({"type": "string", "description": "checkout, wc_stripe_create_and_confirm_setup_intent: the payment method made in the page (`pm_…`)"})),
        ("wc-stripe-payment-type", text.clone()),
        ("wc-stripe-payment-token", json!({"type": "string", "description": "checkout: a kept card's id"})),
        ("wc-stripe-new-payment-method", json!({"type": "string", "description": "checkout: `true` keeps the card (signed-in customers)"})),
    ]
    .into_iter()
    .chain(super::wishlist::classic_fields())
    .chain([
        ("tinv_wishlist_id", json!({"type": "string", "description": "The wishlist's add (no `wc-ajax`): the shopper's list, or empty for their default list"})),
        ("tinv_wishlist_name", json!({"type": "string", "description": "The wishlist's add: a new list's name"})),
        ("product_type", text.clone()),
        ("product_variation", json!({"type": ["integer", "string"], "description": "The wishlist's add: the variation"})),
        ("product_action", json!({"type": "string", "description": "The wishlist's add: `addto`, `add` or `remove` (simple flow)"})),
        ("redirect", text.clone()),
        ("_wpnonce", json!({"type": "string", "description": "The wishlist's add: the session's `wp_rest` nonce (or the `X-WP-Nonce` header)"})),
    ])
    .map(|(name, schema)| (name.to_string(), schema))
    .collect();
    for field in [
        "country",
        "state",
        "postcode",
        "city",
        "address",
        "address_2",
    ] {
        if field != "address" {
            fields.push((field.to_string(), text.clone()));
        }
        fields.push((format!("s_{field}"), text.clone()));
    }
    // `billing_email` is listed above; shipping addresses have no e-mail.
    for field in rules::address::ADDRESS_FIELDS
        .into_iter()
        .filter(|f| *f != "email")
    {
        fields.push((format!("billing_{field}"), text.clone()));
        fields.push((format!("shipping_{field}"), text.clone()));
    }
    let fields: Vec<(&str, Value)> = fields
        .iter()
        .map(|(name, schema)| (name.as_str(), schema.clone()))
        .collect();
    let fragments = shape("Fragments");
    let payment = record_with_optional(
        &[("success", boolean())],
        &[("data", json!({"type": "object"}))],
    );
    let intent_update = record_with_optional(
        &[("result", json!({"enum": ["success", "failure"]}))],
        &[("messages", string())],
    );
    let review = record(&[
        ("result", json!({"enum": ["success", "failure"]})),
        ("messages", string()),
        ("reload", boolean()),
        ("fragments", map_of(string())),
    ]);
    let review_expired = record(&[(
        "fragments",
        record(&[("form.woocommerce-checkout", string())]),
    )]);
    let placed = record(&[
        ("result", constant(json!("success"))),
        ("redirect", string()),
        ("order_id", integer()),
    ]);
    let refused = record(&[
        ("result", constant(json!("failure"))),
        ("messages", string()),
        ("refresh", boolean()),
        ("reload", boolean()),
    ]);
    let express = express_answers();
    let add_refused = record_with_optional(
        &[
            ("error", constant(json!(true))),
            (
                "product_url",
                json!({"anyOf": [string(), {"const": false}]}),
            ),
        ],
        &[("message", string())],
    );
    Op::post("/", CLASSIC, "The classic calls")
        .describe("`?wc-ajax=NAME` on any path, with a form body:\n\n- `add_to_cart`: `product_id`, `quantity`, `variation_id`, `attribute_pa_…`; answers the fragments.\n- `remove_from_cart`: `cart_item_key`; answers the fragments.\n- `get_variation`: `product_id` (a variable product) and its `attribute_…` fields; answers the variation the choice picks, as the variation form describes it, or `false`.\n- `get_refreshed_fragments`: the fragments.\n- `update_order_review`: `security`, `payment_method`, the billing location (`country`, `state`, `postcode`, `city`, `address`, `address_2`), the shipping one (`s_…`), `post_data`, `shipping_method[i]`; answers `{result, messages, reload, fragments}` with the review table and the payment box.\n- `checkout`: the checkout form (`billing_…`, `shipping_…`, `ship_to_different_address`, `order_comments`, `shipping_method[i]`, `payment_method`, `terms`, `createaccount`, `account_password`, `woocommerce-process-checkout-nonce`); answers `{result: \"success\", redirect, order_id}` or `{result: \"failure\", messages, refresh, reload}` with one `<li data-id=\"FIELD\">` per problem.\n- `apply_coupon` (`security`, `coupon_code`, `billing_email`), `remove_coupon` (`security`, `coupon`): an HTML notice; errors are `ul.woocommerce-error`.\n- `wc_stripe_…` (card payments): each with its own `_ajax_nonce`; `{success, data}` (`data.error.message` on failure), or `{result, messages}` for `wc_stripe_update_payment_intent`.\n- The express checkout's (Apple Pay, Google Pay, Link), each with its `security` nonce from the express checkout params, on the session the request names (the product page's own cart when it sends that cart's `Cart-Token`; amounts in minor units): `wc_stripe_get_cart_details` → `{shipping_required, order_data: {currency, country_code, displayItems, total}}`; `wc_stripe_get_shipping_options` (`country`, `state`, `postcode`, `city`, `address`, `address_2`, `is_product_page`) → `{result: \"success\", shipping_options: [{id, label, detail, amount}], displayItems, total}` or `{result: \"invalid_shipping_address\"}`; `wc_stripe_update_shipping_method` (`shipping_method[]`, `is_product_page`) → `{result, displayItems, total}`; `wc_stripe_normalize_address` (`data[billing_address]`, `data[shipping_address]`) → the addresses ready for checkout; `wc_stripe_add_to_cart` (`product_id`, `qty`, `attributes`) → the cart holds that product only, `{result, displayItems, total}`; `wc_stripe_clear_cart` (`booking_id`) → `{result}`; `wc_stripe_get_selected_product_data` (`product_id`, `qty`, `attributes`) → `{displayItems, total, currency, country_code, requestShipping, needs_shipping}` or `{error}`. Refusals are `{success: false, data: {error: {message}}}`.\n- `tinvwl` (the wishlist's table): `tinvwl-action` (`remove`, `remove_selected`: the list's owner; `add_to_cart_single`, `add_to_cart_selected`, `add_to_cart_all`: anyone with the list, items leave it only for its owner; `get_data`; `create_list`, `rename_list`, `delete_list`), `tinvwl-security` (the session's `wp_rest` nonce), `tinvwl-product_id` or `tinvwl-products[]` (item ids), `tinvwl-sharekey`, `tinvwl-paged`, `tinvwl-per-page`, `tinvwl-name`, `stats`; answers `{status, msg, content, action, icon, redirect, wishlists_data}`.\n\nWithout `wc-ajax`, a form posted to any storefront page with the field `tinv_wishlist_id` is the wishlist's add (`product_id`, `product_variation`, `product_type`, `product_action`, `tinv_wishlist_name`, `stats`, and the session's `wp_rest` nonce in `X-WP-Nonce` or `_wpnonce`; at most 64 KB); it answers `{status, icon, action, msg, wishlist, wishlist_url, redirect, wishlists_data}`.\n\nChanges set the `woocommerce_items_in_cart` and `woocommerce_cart_hash` cookies.")
        .param(name_param(&NAMES))
        .form(input(&fields, &[]))
        .json(200, "The call's answer: the fragments (cart calls), the order review, or the checkout's outcome.", fragments)
        .json(200, "", review.clone())
        .json(200, "", review_expired)
        .json(200, "", placed)
        .json(200, "", refused.clone())
        .json(200, "", payment.clone())
        .json(200, "", intent_update.clone())
        .json(200, "", express.cart_details)
        .json(200, "", express.shipping_options)
        .json(200, "", express.no_shipping.clone())
        .json(200, "", express.priced.clone())
        .json(200, "", express.addresses)
        .json(200, "", express.cleared)
        .json(200, "", express.product)
        .json(200, "", json!({"type": "object", "required": ["variation_id", "attributes", "is_in_stock", "max_qty"]}))
        .json(200, "", constant(json!(false)))
        .json(200, "tinvwl: the table's answer; the wishlist's add: its answer.", super::wishlist::table_answer())
        .json(200, "", super::wishlist::add_answer())
        .html(200, "apply_coupon and remove_coupon answer with an HTML notice.")
        .json(400, "add_to_cart could not add the product (`product_url` is the page that says why); remove_from_cart had no key; an unknown call; a host the shop does not answer for; or a body that could not be read.", add_refused.clone())
        .json(400, "", shape("ClassicError"))
        .json(400, "", refused.clone())
        .json(400, "", review.clone())
        .json(400, "", payment.clone())
        .json(400, "", intent_update)
        .json(400, "", express.no_shipping)
        .json(400, "", express.no_shipping_method)
        .json(400, "", express.product_refused)
        .json(400, "tinvwl: an unknown action, a bad share key, too many or bad item ids, or a body that could not be read.", super::wishlist::refusal())
        .json(403, "tinvwl and the wishlist's add: the nonce is missing or not this session's (`invalid_nonce`).", super::wishlist::refusal())
        .json(404, "tinvwl: no list has this share key (`wishlist_not_found`).", super::wishlist::refusal())
        .json(413, "tinvwl and the wishlist's add: the body is larger than 64 KB.", super::wishlist::refusal())
        .json(429, "tinvwl and the wishlist's add: too many wishlist calls from this address.", super::wishlist::refusal())
        .json(500, "tinvwl and the wishlist's add: the list could not be changed.", super::wishlist::refusal())
        .html(400, "Without `wc-ajax`, or for the coupon calls: the same refusals as a page.")
        .json(403, "A browser said the request came from another site (`ferroshop_cross_site_request`).", shape("ClassicError"))
        .html(403, "The call's nonce (`security`) is missing or wrong: `-1`.")
        .json(403, "", payment.clone())
        .json(404, "remove_from_cart: the cart has no line with this key.", shape("ClassicError"))
        .json(401, "wc_stripe_…: the call needs a signed-in customer.", payment.clone())
        .json(402, "wc_stripe_…: the provider refused the payment or the card.", payment.clone())
        .json(404, "wc_stripe_…: the shop takes no cards, or no order of this shopper has this id.", payment.clone())
        .json(409, "wc_stripe_create_payment_intent: the order is not waiting for payment.", payment.clone())
        .json(429, "wc_stripe_…: too many payment attempts.", payment.clone())
        .json(500, "wc_stripe_…: the payment could not be recorded.", payment.clone())
        .json(502, "wc_stripe_…: the provider could not be reached.", payment)
        .html(405, "Without `wc-ajax`: the storefront's pages are not taken by POST.")
        .json(413, "The body is larger than the shop takes.", add_refused)
        .json(413, "", shape("ClassicError"))
        .json(413, "", refused)
        .json(413, "", review)
        .html(413, "")
}

/// The answers of the express checkout's calls (`payments::express::calls`).
struct ExpressAnswers {
    cart_details: Value,
    shipping_options: Value,
    no_shipping: Value,
    no_shipping_method: Value,
    priced: Value,
    addresses: Value,
    cleared: Value,
    product: Value,
    product_refused: Value,
}

fn express_answers() -> ExpressAnswers {
    let item = record_with_optional(
        &[("label", string()), ("amount", integer())],
        &[("key", string()), ("pending", boolean())],
    );
    let display = || json!({"type": "array", "items": item.clone()});
    let total = record(&[
        ("label", string()),
        ("amount", integer()),
        ("pending", boolean()),
    ]);
    let option = record(&[
        ("id", string()),
        ("label", string()),
        ("displayName", string()),
        ("detail", string()),
        ("amount", integer()),
    ]);
    ExpressAnswers {
        cart_details: record(&[
            ("shipping_required", boolean()),
            (
                "order_data",
                record(&[
                    ("displayItems", display()),
                    ("total", total.clone()),
                    ("currency", string()),
                    ("country_code", string()),
                ]),
            ),
        ]),
        shipping_options: record(&[
            ("result", constant(json!("success"))),
            (
                "shipping_options",
                json!({"type": "array", "items": option}),
            ),
            ("displayItems", display()),
            ("total", total.clone()),
        ]),
        no_shipping: record_with_optional(
            &[
                ("result", constant(json!("invalid_shipping_address"))),
                ("message", string()),
            ],
            &[("displayItems", display()), ("total", total.clone())],
        ),
        no_shipping_method: record(&[
            ("result", constant(json!("invalid_shipping_method"))),
            ("message", string()),
        ]),
        priced: record(&[
            ("result", constant(json!("success"))),
            ("displayItems", display()),
            ("total", total.clone()),
        ]),
        addresses: record_with_optional(
            &[],
            &[
                ("billing_address", shape("BillingAddress")),
                ("shipping_address", shape("ShippingAddress")),
            ],
        ),
        cleared: record(&[("result", constant(json!("success")))]),
        product: record_with_optional(
            &[
                ("displayItems", display()),
                ("total", total),
                ("currency", string()),
                ("country_code", string()),
                ("requestShipping", boolean()),
                ("needs_shipping", boolean()),
            ],
            &[(
                "shippingOptions",
                record(&[
                    ("id", string()),
                    ("label", string()),
                    ("detail", string()),
                    ("amount", integer()),
                ]),
            )],
        ),
        product_refused: record(&[("error", string())]),
    }
}
