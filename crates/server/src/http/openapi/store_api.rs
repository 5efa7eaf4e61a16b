//! The Store API's calls under `/wp-json/wc/store/v1`: the catalogue, the cart and
//! checkout (`catalog::api`, `cart::api`, `checkout::api`).

use serde_json::json;

use super::operation::Op;
use super::shapes::{array, boolean, input, integer, one_of, shape, string};
use crate::http::STORE_API_ROOT;

fn path(p: &str) -> String {
    format!("{STORE_API_ROOT}{p}")
}

pub fn operations() -> Vec<Op> {
    let mut ops = catalog();
    ops.extend(cart());
    ops.extend(checkout());
    ops
}

const CATALOG: &str = "Catalogue";
const CART: &str = "Cart";
const CHECKOUT: &str = "Checkout";

const BAD_PARAM: &str =
    "A parameter is not of its type or range (`rest_invalid_param`, naming it in `data.params`).";

fn catalog() -> Vec<Op> {
    let id_list = json!({"type": "string", "description": "comma-separated"});
    let list = Op::get(&path("/products"), CATALOG, "List products")
        .describe("A page of the catalogue, filtered and sorted. Lists are comma-separated, or repeated as `name[]=`.")
        .store_read()
        .query("page", json!({"type": "integer", "minimum": 1}), "Page number, from 1.")
        .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 100}), "Products per page (default 10).")
        .query("orderby", one_of(&["menu_order", "popularity", "rating", "date", "price", "title", "slug", "id", "include"]), "Sort key.")
        .query("order", one_of(&["asc", "desc"]), "Sort direction.")
        .query("category", string(), "Category ids or slugs, comma-separated.")
        .query("brand", string(), "Brand ids or slugs, comma-separated (`brands` is read too).")
        .query("tag", string(), "Tag ids or slugs, comma-separated.")
        .query("search", string(), "Words to find in names, descriptions and SKUs.")
        .query("on_sale", boolean(), "Only products on sale.")
        .query("featured", boolean(), "Only featured products.")
        .query("min_price", integer(), "Lowest price, in minor units.")
        .query("max_price", integer(), "Highest price, in minor units.")
        .query("slug", string(), "One product by its slug.")
        .query("sku", string(), "Products by SKU.")
        .query("type", one_of(&["simple", "external", "variable", "variation"]), "Product type.")
        .query("stock_status", string(), "`instock`, `outofstock`, `onbackorder`, comma-separated.")
        .query("include", id_list.clone(), "Only these product ids.")
        .query("exclude", id_list.clone(), "Not these product ids.")
        .query("rating", string(), "Average ratings in whole stars (1 to 5), comma-separated.")
        .query("attribute_relation", one_of(&["and", "or"]), "How several `attributes[i]` filters combine.")
        .json(200, "The page of products.", array(shape("Product")))
        .header(200, "X-WP-Total", true)
        .header(200, "X-WP-TotalPages", true)
        .header(200, "Link", false)
        .error(400, BAD_PARAM);
    let one = Op::get(&path("/products/{id}"), CATALOG, "Get a product")
        .describe("One product, or one variation by its id; variable products list their `variations`.")
        .store_read()
        .path_param("id", integer(), "Product or variation id.")
        .json(200, "The product.", shape("Product"))
        .error(404, "No product has this id (`woocommerce_rest_product_invalid_id`), or the id is not a number (`rest_no_route`).");
    let facet_filters = |op: Op| -> Op {
        op.query(
            "category",
            string(),
            "Category ids or slugs, comma-separated.",
        )
        .query("brand", string(), "Brand ids or slugs, comma-separated.")
        .query("tag", string(), "Tag ids or slugs, comma-separated.")
        .query("search", string(), "Words to find.")
        .query("on_sale", boolean(), "Only products on sale.")
        .query("featured", boolean(), "Only featured products.")
        .query("min_price", integer(), "Lowest price, in minor units.")
        .query("max_price", integer(), "Highest price, in minor units.")
        .query(
            "stock_status",
            string(),
            "`instock`, `outofstock`, `onbackorder`, comma-separated.",
        )
        .query(
            "rating",
            string(),
            "Average ratings in whole stars (1 to 5), comma-separated.",
        )
        .query(
            "attribute_relation",
            one_of(&["and", "or"]),
            "How several `attributes[i]` filters combine.",
        )
    };
    let collection = facet_filters(
        Op::get(&path("/products/collection-data"), CATALOG, "Count products for filters")
            .describe("Counts over the products the filters match, for a filter panel. Attribute filters are `attributes[i][attribute]` with `[slug]` or `[term_id]` lists and `[operator]` (`in`, `and`, `not_in`); attribute counts are asked as `calculate_attribute_counts[i][taxonomy]` with `[query_type]` (`or` leaves that attribute's own filter out of its counts). Each count leaves out the query's filter on what it counts.")
            .store_read(),
    )
    .query("calculate_price_range", boolean(), "Lowest and highest price of the matching products (ignoring the price filter).")
    .query("calculate_rating_counts", boolean(), "Products per average rating in whole stars.")
    .query("calculate_stock_status_counts", boolean(), "Products per stock status.")
    .query("calculate_taxonomy_counts", string(), "`product_cat`, `product_brand`, `product_tag`, comma-separated: products per term.")
    .query("calculate_price_bands", boolean(), "Products per round price band (this shop's addition).")
    .json(200, "The counts asked for.", shape("CollectionData"))
    .error(400, BAD_PARAM);
    let mut ops = vec![list, collection, one];
    for (plural, singular, code) in [
        (
            "categories",
            "category",
            "woocommerce_rest_category_invalid_id",
        ),
        ("brands", "brand", "woocommerce_rest_brand_invalid_id"),
    ] {
        ops.push(
            Op::get(
                &path(&format!("/products/{plural}")),
                CATALOG,
                &format!("List product {plural}"),
            )
            .describe("Every term with its product count.")
            .store_read()
            .json(200, &format!("The {plural}."), array(shape("Term"))),
        );
        ops.push(
            Op::get(
                &path(&format!("/products/{plural}/{{id}}")),
                CATALOG,
                &format!("Get a product {singular}"),
            )
            .store_read()
            .path_param("id", integer(), &format!("The {singular}'s id."))
            .json(200, &format!("The {singular}."), shape("Term"))
            .error(404, &format!("No {singular} has this id (`{code}`).")),
        );
    }
    ops.push(
        Op::get(
            &path("/products/attributes"),
            CATALOG,
            "List product attributes",
        )
        .describe(
            "The shop's global attributes (`pa_color`, …); `count` is how many terms each has.",
        )
        .store_read()
        .json(200, "The attributes.", array(shape("Attribute"))),
    );
    ops.push(
        Op::get(
            &path("/products/attributes/{id}"),
            CATALOG,
            "Get a product attribute",
        )
        .store_read()
        .path_param("id", integer(), "The attribute's id.")
        .json(200, "The attribute.", shape("Attribute"))
        .error(
            404,
            "No attribute has this id (`woocommerce_rest_taxonomy_invalid`).",
        ),
    );
    ops.push(
        Op::get(
            &path("/products/attributes/{id}/terms"),
            CATALOG,
            "List an attribute's terms",
        )
        .describe(
            "The attribute's terms in display order, each with the number of products offering it.",
        )
        .store_read()
        .path_param("id", integer(), "The attribute's id.")
        .json(200, "The terms.", array(shape("AttributeTerm")))
        .error(
            404,
            "No attribute has this id (`woocommerce_rest_taxonomy_invalid`).",
        ),
    );
    ops
}

fn cart() -> Vec<Op> {
    let item_key = json!({"type": "string", "description": "A cart line's `key`."});
    let quantity = json!({"type": "integer", "minimum": 1});
    let invalid_key = "The cart holds no line with this key (`woocommerce_rest_cart_invalid_key`); `data.cart` is the cart as it is now.";
    vec![
        Op::get(&path("/cart"), CART, "Get the cart")
            .describe("The session's cart, priced for the shopper's addresses (or the shop's default location until they give one).")
            .store_read()
            .json(200, "The cart.", shape("Cart")),
        Op::get(&path("/cart/items"), CART, "List the cart's lines")
            .store_read()
            .json(200, "The cart's lines.", array(shape("CartItem"))),
        Op::get(&path("/cart/items/{key}"), CART, "Get a cart line")
            .store_read()
            .path_param("key", string(), "The line's key.")
            .json(200, "The line.", shape("CartItem"))
            .error(404, "The cart has no line with this key (`woocommerce_rest_cart_invalid_key`)."),
        Op::post(&path("/cart/add-item"), CART, "Add an item to the cart")
            .store_write()
            .body_with_example(
                input(
                    &[
                        ("id", json!({"type": "integer", "description": "Product or variation id."})),
                        ("quantity", quantity.clone()),
                        ("variation", array(input(&[("attribute", string()), ("value", string())], &["attribute", "value"]))),
                    ],
                    &["id"],
                ),
                json!({"id": 1, "quantity": 1}),
            )
            .json(201, "The item was added; the cart.", shape("Cart"))
            .error(400, "The product cannot be added: unknown, not purchasable, out of stock, over a quantity limit, or a variable product without a matching variation (`woocommerce_rest_…`); or a parameter is not of its type (`rest_invalid_param`)."),
        Op::post(&path("/cart/update-item"), CART, "Change a line's quantity")
            .store_write()
            .body(input(&[("key", item_key.clone()), ("quantity", quantity)], &["key"]))
            .json(200, "The cart.", shape("Cart"))
            .error(400, "`key` is missing (`rest_missing_callback_param`), the quantity is not allowed (`rest_invalid_param`, `woocommerce_rest_cart_invalid_quantity`, stock errors).")
            .error(409, invalid_key),
        Op::post(&path("/cart/remove-item"), CART, "Remove a line")
            .store_write()
            .body(input(&[("key", item_key)], &["key"]))
            .json(200, "The cart.", shape("Cart"))
            .error(400, "`key` is missing or not text.")
            .error(409, invalid_key),
    ]
}

fn checkout() -> Vec<Op> {
    let address = shape("AddressInput");
    let bad_address = "An address is not an object of text, a field is 200 characters or more, or a field fails its country's format (`rest_invalid_param`).";
    let example_address = json!({
        "first_name": "Ada", "last_name": "Lovelace", "company": "",
        "address_1": "1 Market Street", "address_2": "", "city": "San Francisco",
        "state": "CA", "postcode": "94105", "country": "US",
        "email": "ada@example.com", "phone": "+1 415 555 0100",
    });
    let coupon = input(&[("code", string())], &["code"]);
    let coupon_refused = "The coupon does not apply or is not in the cart (`woocommerce_rest_cart_coupon_error`, `woocommerce_rest_cart_coupon_invalid_code`), with the shop's message.";
    vec![
        Op::post(&path("/cart/update-customer"), CHECKOUT, "Set the shopper's addresses")
            .describe("Fields not sent keep their values; required fields are only checked when the order is placed.")
            .store_write()
            .body_with_example(
                input(&[("billing_address", address.clone()), ("shipping_address", address.clone())], &[]),
                json!({"billing_address": example_address, "shipping_address": example_address}),
            )
            .json(200, "The cart, priced for the addresses.", shape("Cart"))
            .error(400, bad_address),
        Op::post(&path("/cart/select-shipping-rate"), CHECKOUT, "Choose a shipping rate")
            .store_write()
            .body_with_example(
                input(
                    &[
                        ("package_id", json!({"type": "integer", "minimum": 0, "maximum": 99})),
                        ("rate_id", json!({"type": "string", "description": "As listed in the cart's `shipping_rates`, e.g. `flat_rate:1`."})),
                    ],
                    &["rate_id"],
                ),
                json!({"package_id": 0, "rate_id": "flat_rate:1"}),
            )
            .json(200, "The cart with the rate selected.", shape("Cart"))
            .error(400, "The rate or package is missing or not offered (`woocommerce_rest_cart_missing_rate_id`, `woocommerce_rest_cart_invalid_rate_id`, `woocommerce_rest_cart_invalid_shipping_package`), or `package_id` is not an integer from 0 to 99."),
        Op::post(&path("/cart/apply-coupon"), CHECKOUT, "Apply a coupon")
            .store_write()
            .body_with_example(coupon.clone(), json!({"code": "WELCOME10"}))
            .json(200, "The cart with the coupon.", shape("Cart"))
            .error(400, coupon_refused),
        Op::post(&path("/cart/remove-coupon"), CHECKOUT, "Remove a coupon")
            .store_write()
            .body(coupon)
            .json(200, "The cart without the coupon.", shape("Cart"))
            .error(400, coupon_refused),
        Op::get(&path("/checkout"), CHECKOUT, "Get the checkout's draft order")
            .describe("Unlike the cart, reading it needs the nonce (or a `Cart-Token`).")
            .store_read()
            .param(json!({"$ref": "#/components/parameters/Nonce"}))
            .json(200, "The draft order.", shape("CheckoutOrder"))
            .error(400, "The cart is empty (`woocommerce_rest_cart_empty`).")
            .error(401, "The `Nonce` header is missing (`woocommerce_rest_missing_nonce`).")
            .error(403, "The `Nonce` header is not this session's (`woocommerce_rest_invalid_nonce`)."),
        Op::post(&path("/checkout"), CHECKOUT, "Place the order")
            .describe("Places the cart as an order; without `shipping_address` the goods go to the billing address. With `create_account` an account is made for the billing e-mail and signed in. An express checkout (`X-WCSTRIPE-EXPRESS-CHECKOUT: true` with its nonce) sends the addresses as the wallet gave them: state names become the shop's codes first. A card payment made through a wallet names it in `payment_data` (`express_checkout_type`: `apple_pay`, `google_pay`, `link`), and the order's payment title says so (\"Apple Pay (Stripe)\").")
            .store_write()
            .param(json!({
                "name": "X-WCSTRIPE-EXPRESS-CHECKOUT", "in": "header", "required": false,
                "schema": {"type": "string", "enum": ["true"]},
                "description": "The order comes from the express checkout button.",
            }))
            .param(json!({
                "name": "X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE", "in": "header", "required": false,
                "schema": string(),
                "description": "The session's `wc_store_api_express_checkout` nonce from the express checkout params; a wrong one is refused (403 `woocommerce_rest_invalid_nonce`).",
            }))
            .body_with_example(
                input(
                    &[
                        ("billing_address", address.clone()),
                        ("shipping_address", address.clone()),
                        ("customer_note", json!({"type": "string", "maxLength": 5000})),
                        ("payment_method", json!({"type": "string", "description": "An offered payment method: by default `bacs`, `cheque` or `cod`."})),
                        ("payment_data", array(input(&[("key", string()), ("value", string())], &[]))),
                        ("create_account", boolean()),
                        ("customer_password", string()),
                    ],
                    &[],
                ),
                json!({"billing_address": example_address, "payment_method": "cod"}),
            )
            .json(200, "The order was placed.", shape("CheckoutOrder"))
            .error(400, "The order cannot be placed: the cart is empty, a required address field is missing or invalid (`data.fields`), no payment or shipping method, a product sold out, a coupon stopped applying, or the account asked for cannot be made (`woocommerce_rest_…`, `rest_invalid_param`, `registration-error-…`).")
            .error(403, "The shop requires an account, or does not let checkout make one (`woocommerce_rest_checkout_requires_account`, `woocommerce_rest_checkout_signup_disabled`), or the express checkout nonce is wrong (`woocommerce_rest_invalid_nonce`).")
            .rate_limited("Too many accounts were made from this network (`ferroshop_too_many_attempts`)."),
        Op::post(&path("/checkout/{id}"), CHECKOUT, "Pay for an order")
            .describe("Pays a pending order from the order-pay page: the key, and for a guest's order the billing e-mail, must match. An express payment sends the wallet's `shipping_address` too, which the order keeps.")
            .store_write()
            .path_param("id", integer(), "The order's id.")
            .required_query("key", string(), "The order's key.")
            .query("billing_email", string(), "The order's billing e-mail (guests' orders).")
            .body(input(
                &[
                    ("payment_method", string()),
                    ("billing_address", address.clone()),
                    ("shipping_address", address),
                    ("payment_data", array(input(&[("key", string()), ("value", string())], &[]))),
                ],
                &[],
            ))
            .json(200, "The order was paid for.", shape("CheckoutOrder"))
            .error(400, "The order cannot be paid (`woocommerce_rest_order_cannot_be_paid`), the payment method is not offered, or the address is invalid.")
            .error(403, "The billing e-mail does not match, or the order is another customer's (`woocommerce_rest_invalid_billing_email`).")
            .error(404, "No order has this id and key (`woocommerce_rest_invalid_order`)."),
    ]
}
