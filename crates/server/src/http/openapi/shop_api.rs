//! The shop's own calls under `/wp-json/ferroshop/v1` (`orders::api`, `customers::api`,
//! `checkout::locale::api`, this description), and the two outside any API root: the
//! shop's images and the health check.

use serde_json::json;

use super::operation::{Op, TEXT};
use super::shapes::{array, input, one_of, record, shape, string};
use crate::http::FERROSHOP_API_ROOT;

fn path(p: &str) -> String {
    format!("{FERROSHOP_API_ROOT}{p}")
}

const ORDERS: &str = "Orders";
const ACCOUNT: &str = "Account";
const SHOP: &str = "Shop";
const PAYMENTS: &str = "Payments";

pub fn operations() -> Vec<Op> {
    let mut ops = vec![variation_form()];
    ops.extend(platform_users());
    ops.extend(orders());
    ops.extend(account());
    ops.extend(payments());
    ops.extend(shop());
    ops
}

/// `/wp-json/wp/v2/users/{id}` (`customers::wp_users`).
fn platform_users() -> Vec<Op> {
    let user = record(&[
        ("id", json!({"type": "integer"})),
        ("name", string()),
        (
            "woocommerce_meta",
            record(&[(
                "coming_soon_banner_dismissed",
                json!({"enum": ["", "yes", "no"]}),
            )]),
        ),
    ]);
    let id = json!({"type": "string", "pattern": "^(me|[0-9]+)$"});
    let nonce = json!({"name": "X-WP-Nonce", "in": "header", "required": false, "schema": {"type": "string"}, "description": "The session's `wp_rest` nonce: a login cookie counts only with it."});
    let mut ops = vec![Op::get("/wp-json/wp/v2/users/{id}", ACCOUNT, "Get the signed-in account's storefront settings")
        .describe("`me` or the signed-in account's own id: its id, name and `woocommerce_meta` (`coming_soon_banner_dismissed`). The login cookie counts only with the `X-WP-Nonce` header.")
        .path_param("id", id.clone(), "`me`, or the signed-in account's id.")
        .param(nonce.clone())
        .json(200, "The account.", user.clone())
        .error(401, "No `X-WP-Nonce`, or nobody is signed in (`rest_not_logged_in`).")
        .error(403, "The nonce is not this session's (`rest_cookie_invalid_nonce`), or the id is someone else's (`rest_user_cannot_view`).")
        .error(404, "The id is not a user id (`rest_user_invalid_id`).")];
    for method in ["post", "put", "patch"] {
        ops.push(
            Op::new(method, "/wp-json/wp/v2/users/{id}", ACCOUNT, "Change the signed-in account's storefront settings")
                .describe("Writes `woocommerce_meta` settings of the signed-in account (`coming_soon_banner_dismissed`: `yes` or `no`, when staff dismiss the coming-soon banner). Any other field or setting is refused with a 400 naming it.")
                .guarded()
                .path_param("id", id.clone(), "`me`, or the signed-in account's id.")
                .param(nonce.clone())
                .body(input(&[("woocommerce_meta", record(&[("coming_soon_banner_dismissed", one_of(&["yes", "no"]))]))], &[]))
                .json(200, "The account as it now is.", user.clone())
                .error(400, "A field or setting that cannot be changed here, or a value it does not take (`rest_invalid_param`), or a body that is not JSON.")
                .error(401, "No `X-WP-Nonce`, or nobody is signed in (`rest_not_logged_in`).")
                .error(403, "The nonce is not this session's (`rest_cookie_invalid_nonce`), or the id is someone else's (`rest_cannot_edit`).")
                .error(404, "The id is not a user id (`rest_user_invalid_id`).")
                .error(413, "The body is larger than the shop takes."),
        );
    }
    ops
}

fn variation_form() -> Op {
    let option = record(&[
        ("value", string()),
        ("label", string()),
        ("color", json!({"type": ["string", "null"]})),
        ("image", json!({"type": ["object", "null"]})),
    ]);
    let attribute = record(&[
        ("name", string()),
        ("taxonomy", json!({"type": ["string", "null"]})),
        ("field", string()),
        ("swatch", one_of(&["select", "color", "image", "label"])),
        ("default", string()),
        ("options", array(option)),
    ]);
    let variation = json!({"type": "object", "required": ["variation_id", "attributes", "is_in_stock", "max_qty", "min_qty", "variation_stock_left"]});
    Op::get(&path("/products/{id}/variation-form"), SHOP, "Get a variable product's variation form")
        .describe("How the product page offers each variation attribute (`swatch`: a drop-down, or swatches of colours, images or names, with each option's colour or picture) and the product's variations as the original embeds them in the page (`get_available_variation`: `attributes` by form field, `is_in_stock`, `max_qty`, `min_qty`, `variation_stock_left`, `price_html`, `prices` in minor units, `image`, `sku`, `variation_id`…). A product with more variations than `ajax_threshold` gets `variations: false`: the page then asks `?wc-ajax=get_variation` for each complete choice. A swatch says how many are left at or below `stock_label_threshold`.")
        .store_read()
        .path_param("id", json!({"type": "integer", "minimum": 1}), "The variable product.")
        .json(200, "The form.", record(&[
            ("product_id", json!({"type": "integer"})),
            ("attributes", array(attribute)),
            ("variations", json!({"anyOf": [array(variation), {"const": false}]})),
            ("variation_count", json!({"type": "integer"})),
            ("ajax_threshold", json!({"type": "integer"})),
            ("stock_label_threshold", json!({"type": "integer"})),
        ]))
        .error(404, "No variable product in the shop has this id (`woocommerce_rest_product_invalid_id`).")
}

fn payments() -> Vec<Op> {
    let kept = array(record(&[
        ("id", json!({"type": "integer"})),
        ("gateway", string()),
        ("type", string()),
        ("brand", string()),
        ("last4", string()),
        ("exp_month", json!({"type": "integer"})),
        ("exp_year", json!({"type": "integer"})),
        ("is_default", json!({"type": "boolean"})),
    ]));
    let method_id = json!({"type": "integer", "minimum": 1});
    let no_method =
        "The customer keeps no payment method with this id (`ferroshop_invalid_payment_method`).";
    let not_logged_in = "Nobody is signed in (`woocommerce_rest_missing_login`).";
    vec![
        Op::get(&path("/payments/page-settings"), PAYMENTS, "Get a payment page's settings")
            .describe("What the card provider's element needs on checkout, order-pay, change-payment and add-payment-method: the publishable key, the methods offered with their countries and rules, the amount in minor units, the shopper's nonces for the payment calls, the error messages, the kept cards. `{enabled: false}` when the shop takes no cards.")
            .store_read()
            .query("context", one_of(&["checkout", "order-pay", "change-payment", "add-payment-method"]), "The page (default `checkout`).")
            .query("order_id", json!({"type": "integer", "minimum": 1}), "order-pay, change-payment: the order.")
            .query("key", string(), "order-pay, change-payment: the order's key.")
            .json(200, "The settings.", json!({"type": "object", "required": ["enabled", "gatewayId"]}))
            .error(400, "`context` is not one of the pages (`rest_invalid_param`).")
            .error(401, not_logged_in)
            .error(404, "No order has this id and key, or it is another customer's (`woocommerce_rest_invalid_order`)."),
        Op::get(&path("/payments/express-checkout-params"), PAYMENTS, "Get the express checkout button's params")
            .describe("What the provider's express checkout button (Apple Pay, Google Pay, Link) needs on a product, cart or checkout page, in the shape of the original's `wc_stripe_express_checkout_params`: `ajax_url` (with `%%endpoint%%` for the call's name), the publishable key, the currency and country, the amount with its display items (minor units), whether to ask for a shipping address, the button's look, and the shopper's nonces for the sheet's calls (`nonce`: `shipping`, `update_shipping`, `normalize_address`, `wc_store_api`, `wc_store_api_express_checkout`, `get_cart_details`, `add_to_cart`, `clear_cart`, `get_selected_product_data`). On a product page the button buys in a cart of its own: `cart_token` names it (the one the request's `Cart-Token` named, or a new one), the nonces are bound to it, and the page makes the sheet's calls and the Store API's with that `Cart-Token` and without cookies, so the shopper's cart is left as it is. `{enabled: false}` when the shop offers no express checkout.")
            .store_read()
            .query("context", one_of(&["product", "cart", "checkout"]), "The page (default `checkout`).")
            .query("product_id", json!({"type": "integer", "minimum": 1}), "product: the product the page shows.")
            .json(200, "The params.", json!({"type": "object", "required": ["enabled", "is_product_page"]}))
            .error(400, "`context` is not one of the pages, or `product_id` names no product (`rest_invalid_param`).")
            .error(404, "No product on sale has this id (`woocommerce_rest_product_invalid_id`)."),
        Op::get(&path("/account/payment-methods"), PAYMENTS, "List the customer's kept payment methods")
            .store_read()
            .json(200, "The methods, the default first.", kept.clone())
            .error(401, not_logged_in),
        Op::post(&path("/account/payment-methods/{id}/default"), PAYMENTS, "Make a kept payment method the default")
            .store_write()
            .path_param("id", method_id.clone(), "The kept method's id.")
            .body(input(&[], &[]))
            .json(200, "The methods as they now are.", kept.clone())
            .error(401, not_logged_in)
            .error(404, no_method),
        Op::post(&path("/account/payment-methods/{id}/delete"), PAYMENTS, "Delete a kept payment method")
            .describe("The method is forgotten and detached from the customer at the provider.")
            .store_write()
            .path_param("id", method_id, "The kept method's id.")
            .body(input(&[], &[]))
            .json(200, "The methods left.", kept)
            .error(401, not_logged_in)
            .error(404, no_method),
    ]
}

const NOT_LOGGED_IN: &str = "Nobody is signed in (`ferroshop_not_logged_in`).";

fn orders() -> Vec<Op> {
    let order_id = json!({"type": "integer", "minimum": 1});
    let not_found = "No order of yours has this id (`ferroshop_order_not_found`).";
    vec![
        Op::get(&path("/orders/{id}"), ORDERS, "Get an order by its key")
            .describe("For the thank-you and order-pay pages: whoever holds the order's key may read it.")
            .store_read()
            .path_param("id", order_id.clone(), "The order's id.")
            .query("key", string(), "The order's key.")
            .json(200, "The order.", shape("Order"))
            .error(404, "No order has this id and key (`ferroshop_order_not_found`)."),
        Op::post(&path("/orders/lookup"), ORDERS, "Look up a guest order")
            .store_write()
            .body(input(&[("order_number", json!({"type": ["string", "integer"]})), ("billing_email", string())], &["order_number", "billing_email"]))
            .json(200, "The order.", shape("Order"))
            .error(400, "The order number or e-mail is missing (`ferroshop_order_lookup_incomplete`), or not text.")
            .error(404, "No order has this number and billing e-mail (`ferroshop_order_not_found`).")
            .rate_limited("Too many lookups from this network or for this e-mail address (`ferroshop_too_many_attempts`)."),
        Op::get(&path("/account/orders"), ORDERS, "List the customer's orders")
            .store_read()
            .query("page", json!({"type": "integer", "minimum": 1}), "Page number, from 1.")
            .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 100}), "Orders per page (default 10).")
            .json(200, "A page of the customer's orders, newest first.", array(shape("OrderSummary")))
            .header(200, "X-WP-Total", true)
            .header(200, "X-WP-TotalPages", true)
            .error(400, "`page` or `per_page` is out of range or not an integer (`rest_invalid_param`).")
            .error(401, NOT_LOGGED_IN),
        Op::get(&path("/account/orders/{id}"), ORDERS, "Get one of the customer's orders")
            .store_read()
            .path_param("id", order_id, "The order's id.")
            .json(200, "The order.", shape("Order"))
            .error(401, NOT_LOGGED_IN)
            .error(404, not_found),
    ]
}

fn account() -> Vec<Op> {
    let user = record(&[("user", shape("User"))]);
    let message = record(&[("message", string())]);
    let text_params = "A field is not text (`rest_invalid_param`).";
    vec![
        Op::get(&path("/account"), ACCOUNT, "Get the signed-in customer")
            .store_read()
            .json(200, "The customer and their saved addresses.", shape("Account"))
            .error(401, NOT_LOGGED_IN),
        Op::post(&path("/account/register"), ACCOUNT, "Create an account")
            .describe("Creates the account and signs it in (the answer sets the login cookie; its `Nonce` is the new customer's).")
            .store_write()
            .body_with_example(
                input(&[("email", string()), ("password", string()), ("first_name", string()), ("last_name", string())], &["email", "password"]),
                json!({"email": "new.customer@example.com", "password": "correct horse battery staple"}),
            )
            .json(201, "The account was created and signed in.", user.clone())
            .error(400, "The e-mail is invalid or taken, or the password is missing or too short (`registration-error-…`, `ferroshop_password_too_short`, naming the field in `data.field`). ")
            .error(400, text_params)
            .rate_limited("Too many accounts were made from this network (`ferroshop_too_many_attempts`)."),
        Op::post(&path("/account/login"), ACCOUNT, "Sign in")
            .store_write()
            .body(input(&[("username", string()), ("password", string()), ("remember", json!({"type": ["boolean", "string", "integer"]}))], &["username", "password"]))
            .json(200, "Signed in (the answer sets the login cookie).", user)
            .error(400, "The username or password is missing (`ferroshop_missing_username`, `ferroshop_missing_password`).")
            .error(400, text_params)
            .error(401, "Unknown e-mail address or wrong password (`ferroshop_invalid_login`).")
            .rate_limited("Too many failed attempts for this account or from this network (`ferroshop_too_many_attempts`)."),
        Op::post(&path("/account/logout"), ACCOUNT, "Sign out")
            .store_write()
            .body(input(&[], &[]))
            .json(200, "Signed out.", record(&[])),
        Op::post(&path("/account/lost-password"), ACCOUNT, "Ask for a password reset e-mail")
            .store_write()
            .body(input(&[("user_login", string())], &["user_login"]))
            .json(200, "The reset e-mail was queued.", message.clone())
            .error(400, "The login is missing or unknown (`empty_username`, `invalid_username`).")
            .error(400, text_params)
            .rate_limited("Too many reset requests (`ferroshop_too_many_attempts`)."),
        Op::post(&path("/account/reset-password"), ACCOUNT, "Set a new password with a reset key")
            .store_write()
            .body(input(&[("login", string()), ("key", string()), ("password", string()), ("password_confirm", string())], &["login", "key", "password", "password_confirm"]))
            .json(200, "The password was changed.", message)
            .error(400, "The key is invalid or used, or the passwords are missing, too short or differ (`invalid_key`, `password_reset_…`, `ferroshop_password_too_short`).")
            .error(400, text_params)
            .rate_limited("Too many reset attempts (`ferroshop_too_many_attempts`)."),
        Op::post(&path("/account/details"), ACCOUNT, "Change the account's details")
            .describe("Names, display name, e-mail, and the password (with the current one).")
            .store_write()
            .body(input(
                &[
                    ("first_name", string()),
                    ("last_name", string()),
                    ("display_name", string()),
                    ("email", string()),
                    ("password_current", string()),
                    ("password_1", string()),
                    ("password_2", string()),
                ],
                &["first_name", "last_name", "display_name", "email"],
            ))
            .json(200, "The details were saved (`message` says so).", shape("Account"))
            .error(400, "A field is missing or invalid, or the password change does not add up (`ferroshop_…`, naming the field in `data.field`).")
            .error(400, text_params)
            .error(401, NOT_LOGGED_IN)
            .rate_limited("Too many wrong current passwords (`ferroshop_too_many_attempts`)."),
        Op::post(&path("/account/address/{kind}"), ACCOUNT, "Save a billing or shipping address")
            .describe("The address form's fields at the top level of the body, checked by the country's rules.")
            .store_write()
            .path_param("kind", one_of(&["billing", "shipping"]), "Which address.")
            .body(input(
                &[
                    ("first_name", string()),
                    ("last_name", string()),
                    ("company", string()),
                    ("address_1", string()),
                    ("address_2", string()),
                    ("city", string()),
                    ("state", string()),
                    ("postcode", string()),
                    ("country", string()),
                    ("email", string()),
                    ("phone", string()),
                ],
                &[],
            ))
            .json(200, "The address was saved (`message` says so).", shape("Account"))
            .error(400, "A field fails the country's rules (naming it in `data.field`), or is not text.")
            .error(401, NOT_LOGGED_IN)
            .error(404, "`kind` is neither `billing` nor `shipping` (`rest_no_route`)."),
    ]
}

fn shop() -> Vec<Op> {
    vec![
        Op::get(&path("/address-locale"), SHOP, "Get the address rules of every country")
            .describe("Every country's name, states and address-field rules (labels, required, hidden, order): the table the server validates addresses with. Cacheable for an hour, revalidated by its entity tag.")
            .guarded()
            .param(json!({"$ref": "#/components/parameters/If-None-Match"}))
            .json(200, "The address rules.", shape("AddressLocale"))
            .header(200, "ETag", true)
            .empty(304, "The client's copy is current.")
            .header(304, "ETag", true),
        Op::get(&path(super::OPENAPI_PATH), SHOP, "Get this API description")
            .describe("This document (OpenAPI 3.1).")
            .guarded()
            .json(
                200,
                "The API description.",
                json!({"type": "object", "required": ["openapi", "info", "paths", "components"]}),
            ),
        Op::get("/media/{file}", SHOP, "Get an image")
            .describe("An image of the catalogue, stored in the shop's database, as uploaded; with `w`, a photograph's WebP copy that many pixels wide (made on first request). A product image's `srcset` lists the widths offered.")
            .path_param("file", json!({"type": "string", "pattern": "^[A-Za-z0-9._-]{1,200}$"}), "The image's file name, as in a product's `images[].src`.")
            .query("w", json!({"type": "integer", "enum": [160, 320, 480, 640, 960, 1280, 1920]}), "A width the image's `srcset` offers (narrower than the photograph; drawings have none).")
            .param(json!({"$ref": "#/components/parameters/If-None-Match"}))
            .answer(200, "The image (a copy is `image/webp`).", "image/*", None)
            .header(200, "ETag", true)
            .empty(304, "The client's copy is current.")
            .empty(404, "No image has this name, or no copy at this width.")
            .html(400, "The request names a host the shop does not answer for."),
        Op::get("/healthz", SHOP, "Health check")
            .describe("For load balancers: answers `ok` whenever the server runs, whatever the Host.")
            .answer(200, "The server runs.", TEXT, Some(json!({"const": "ok"}))),
    ]
}
