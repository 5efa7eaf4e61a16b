//! The JSON Schemas of the API description: small builders, and the shapes several
//! calls share (the error, the addresses, the product, the cart, the order), each
//! named once under `components` and referred to by name. Answers are described
//! exactly, extra members refused, so a view that gains a field without the
//! description saying so is caught by the fuzzer.

use serde_json::{json, Map, Value};

use rules::address::ADDRESS_FIELDS;

pub fn string() -> Value {
    json!({"type": "string"})
}

pub fn integer() -> Value {
    json!({"type": "integer"})
}

pub fn boolean() -> Value {
    json!({"type": "boolean"})
}

pub fn number() -> Value {
    json!({"type": "number"})
}

/// One of these strings.
pub fn one_of(values: &[&str]) -> Value {
    json!({"type": "string", "enum": values})
}

/// Exactly this value.
pub fn constant(value: Value) -> Value {
    json!({ "const": value })
}

/// Money in the APIs: a string of the currency's minor units ("1999" for 19.99).
pub fn minor_units() -> Value {
    json!({"type": "string", "pattern": "^-?[0-9]+$"})
}

/// An amount that is empty when there is none (a product without a sale price).
pub fn minor_units_or_empty() -> Value {
    json!({"type": "string", "pattern": "^(-?[0-9]+)?$"})
}

pub fn nullable(schema: Value) -> Value {
    json!({"anyOf": [schema, {"type": "null"}]})
}

pub fn array(items: Value) -> Value {
    json!({"type": "array", "items": items})
}

/// An object of any members whose values are all `values`.
pub fn map_of(values: Value) -> Value {
    json!({"type": "object", "additionalProperties": values})
}

/// Any JSON object (the `extensions` other shops fill in).
pub fn any_object() -> Value {
    json!({"type": "object"})
}

/// A shape named under `components/schemas`.
pub fn shape(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// An answer's object: every member always present, no others.
pub fn record(members: &[(&str, Value)]) -> Value {
    record_with_optional(members, &[])
}

/// An answer's object with members that are sometimes left out.
pub fn record_with_optional(members: &[(&str, Value)], optional: &[(&str, Value)]) -> Value {
    let mut properties = Map::new();
    for (name, schema) in members.iter().chain(optional) {
        properties.insert((*name).to_string(), schema.clone());
    }
    let required: Vec<&str> = members.iter().map(|(name, _)| *name).collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// A request body's object: the members the call reads (`required` ones refused when
/// missing); members it does not know are ignored.
pub fn input(members: &[(&str, Value)], required: &[&str]) -> Value {
    let properties: Map<String, Value> = members
        .iter()
        .map(|(name, schema)| ((*name).to_string(), schema.clone()))
        .collect();
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// `members` followed by the currency fields the Store API puts beside every price.
pub fn with_currency<'a>(members: &[(&'a str, Value)]) -> Vec<(&'a str, Value)> {
    let mut all = members.to_vec();
    all.extend([
        ("currency_code", string()),
        ("currency_symbol", string()),
        (
            "currency_minor_unit",
            json!({"type": "integer", "minimum": 0}),
        ),
        ("currency_decimal_separator", string()),
        ("currency_thousand_separator", string()),
        ("currency_prefix", string()),
        ("currency_suffix", string()),
    ]);
    all
}

/// The Store API's error: `{code, message, data: {status, …}}`, with `status` the
/// answer's own.
pub fn error(status: u16) -> Value {
    json!({
        "allOf": [
            shape("Error"),
            {"type": "object", "properties": {"data": {"type": "object", "properties": {"status": {"const": status}}}}},
        ]
    })
}

/// Every shape named under `components/schemas`.
pub fn components() -> Map<String, Value> {
    let mut c = Map::new();
    let mut add = |name: &str, schema: Value| {
        c.insert(name.to_string(), schema);
    };
    add("Error", error_shape());
    add("BillingAddress", address(true));
    add("ShippingAddress", address(false));
    add("AddressInput", address_input());
    add("Image", image());
    add("TermLink", term_link());
    add("Product", product());
    add("Term", term());
    add("Attribute", attribute());
    add("AttributeTerm", attribute_term());
    add("CollectionData", collection_data());
    add("CartItem", cart_item());
    add("Cart", cart());
    add("CheckoutOrder", checkout_order());
    add("Order", order());
    add("OrderSummary", order_summary());
    add("User", user());
    add("Account", account());
    add("AddressLocale", address_locale());
    add("ClassicError", classic_error());
    add("Fragments", fragments());
    c
}

fn error_shape() -> Value {
    json!({
        "type": "object",
        "description": "An error. `code` is stable and meant for programs; `message` is for people. `data.status` repeats the HTTP status; a bad parameter adds `params` and `details` (WordPress's `rest_invalid_param`), account calls name the form field in `field`, checkout names the address fields at fault in `fields`, a refused cart-item key carries the current `cart`, a refused review names its field in `param` or why it was refused in `reason`, and rate limits give `retry_after` in seconds.",
        "required": ["code", "message", "data"],
        "additionalProperties": false,
        "properties": {
            "code": string(),
            "message": string(),
            "data": {
                "type": "object",
                "required": ["status"],
                "properties": {
                    "status": {"type": "integer", "minimum": 400, "maximum": 599},
                    "params": {"type": ["object", "array"]},
                    "details": {"type": "object"},
                    "field": string(),
                    "fields": array(record(&[("field_id", string()), ("code", string()), ("message", string())])),
                    "retry_after": {"type": "integer", "minimum": 1},
                    "cart": shape("Cart"),
                    "json_error_code": integer(),
                    "json_error_message": string(),
                },
            },
        },
    })
}

/// The Store API's address: every field as text; billing addresses carry `email`.
fn address(billing: bool) -> Value {
    let members: Vec<(&str, Value)> = ADDRESS_FIELDS
        .iter()
        .filter(|f| billing || **f != "email")
        .map(|f| (*f, string()))
        .collect();
    record(&members)
}

/// An address sent to the shop: any of the fields, as text (numbers are taken as
/// text); fields not sent are empty, fields of 200 characters or more are refused.
fn address_input() -> Value {
    let members: Vec<(&str, Value)> = ADDRESS_FIELDS
        .iter()
        .map(|f| (*f, json!({"type": ["string", "number"]})))
        .collect();
    input(&members, &[])
}

fn image() -> Value {
    record(&[
        ("id", integer()),
        ("src", string()),
        ("thumbnail", string()),
        ("srcset", string()),
        ("sizes", string()),
        ("name", string()),
        ("alt", string()),
        ("caption", string()),
        ("width", integer()),
        ("height", integer()),
    ])
}

fn term_link() -> Value {
    record(&[
        ("id", integer()),
        ("name", string()),
        ("slug", string()),
        ("link", string()),
    ])
}

/// `/products/collection-data`: each part null unless asked for.
fn collection_data() -> Value {
    let counts = |key: &str, value: Value| {
        nullable(array(record(&[
            (key, value),
            ("count", json!({"type": "integer", "minimum": 0})),
        ])))
    };
    record_with_optional(
        &[
            (
                "price_range",
                nullable(record(&with_currency(&[
                    ("min_price", nullable(minor_units())),
                    ("max_price", nullable(minor_units())),
                ]))),
            ),
            ("attribute_counts", counts("term", integer())),
            (
                "rating_counts",
                counts(
                    "rating",
                    json!({"type": "integer", "minimum": 1, "maximum": 5}),
                ),
            ),
            (
                "stock_status_counts",
                counts("status", one_of(&["instock", "outofstock", "onbackorder"])),
            ),
            ("taxonomy_counts", counts("term", integer())),
        ],
        &[(
            "price_bands",
            array(record(&[
                ("min_price", minor_units()),
                ("max_price", minor_units()),
                ("count", json!({"type": "integer", "minimum": 0})),
            ])),
        )],
    )
}

fn product() -> Value {
    let prices = record(&with_currency(&[
        ("price", minor_units_or_empty()),
        ("regular_price", minor_units_or_empty()),
        ("sale_price", minor_units_or_empty()),
        (
            "price_range",
            nullable(record(&[
                ("min_amount", minor_units()),
                ("max_amount", minor_units()),
            ])),
        ),
    ]));
    let attribute = record(&[
        ("id", integer()),
        ("name", string()),
        ("taxonomy", nullable(string())),
        ("has_variations", boolean()),
        (
            "terms",
            array(record(&[
                ("id", integer()),
                ("name", string()),
                ("slug", string()),
            ])),
        ),
    ]);
    let variation = record(&[
        ("id", integer()),
        (
            "attributes",
            array(record(&[("name", string()), ("value", string())])),
        ),
    ]);
    let add_to_cart = record(&[
        ("text", string()),
        ("description", string()),
        ("url", string()),
        ("minimum", integer()),
        ("maximum", integer()),
        ("multiple_of", integer()),
    ]);
    record(&[
        ("id", integer()),
        ("name", string()),
        ("slug", string()),
        ("parent", integer()),
        (
            "type",
            one_of(&["simple", "variable", "external", "variation"]),
        ),
        ("variation", string()),
        ("permalink", string()),
        ("sku", string()),
        ("short_description", string()),
        ("description", string()),
        ("on_sale", boolean()),
        ("prices", prices),
        ("price_html", string()),
        ("average_rating", string()),
        ("review_count", integer()),
        ("images", array(shape("Image"))),
        ("categories", array(shape("TermLink"))),
        ("tags", array(shape("TermLink"))),
        ("brands", array(shape("TermLink"))),
        ("attributes", array(attribute)),
        ("variations", array(variation)),
        ("has_options", boolean()),
        ("is_purchasable", boolean()),
        ("is_in_stock", boolean()),
        ("is_on_backorder", boolean()),
        ("low_stock_remaining", nullable(integer())),
        (
            "stock_status",
            one_of(&["instock", "outofstock", "onbackorder"]),
        ),
        ("sold_individually", boolean()),
        ("featured", boolean()),
        ("add_to_cart", add_to_cart),
        (
            "additional_information",
            array(record(&[("label", string()), ("value", string())])),
        ),
        ("extensions", any_object()),
    ])
}

fn term() -> Value {
    record(&[
        ("id", integer()),
        ("name", string()),
        ("slug", string()),
        ("description", string()),
        ("parent", integer()),
        ("count", json!({"type": "integer", "minimum": 0})),
        ("image", nullable(shape("Image"))),
        ("review_count", integer()),
        ("permalink", string()),
        ("link", string()),
    ])
}

fn attribute() -> Value {
    record(&[
        ("id", integer()),
        ("name", string()),
        ("taxonomy", string()),
        ("type", string()),
        ("order", string()),
        ("has_archives", boolean()),
        ("count", json!({"type": "integer", "minimum": 0})),
    ])
}

fn attribute_term() -> Value {
    record(&[
        ("id", integer()),
        ("name", string()),
        ("slug", string()),
        ("description", string()),
        ("parent", integer()),
        ("count", json!({"type": "integer", "minimum": 0})),
    ])
}

fn cart_item() -> Value {
    record(&[
        ("key", string()),
        ("id", integer()),
        (
            "type",
            one_of(&["simple", "variable", "external", "variation"]),
        ),
        ("quantity", integer()),
        (
            "quantity_limits",
            record(&[
                ("minimum", integer()),
                ("maximum", integer()),
                ("multiple_of", integer()),
                ("editable", boolean()),
            ]),
        ),
        ("name", string()),
        ("short_description", string()),
        ("description", string()),
        ("sku", string()),
        ("low_stock_remaining", nullable(integer())),
        ("backorders_allowed", boolean()),
        ("show_backorder_badge", boolean()),
        ("sold_individually", boolean()),
        ("permalink", string()),
        ("images", array(shape("Image"))),
        (
            "variation",
            array(record(&[("attribute", string()), ("value", string())])),
        ),
        ("item_data", array(json!({}))),
        (
            "prices",
            record(&with_currency(&[
                ("price", minor_units()),
                ("regular_price", minor_units()),
                ("sale_price", minor_units()),
                ("price_range", json!({"type": "null"})),
                (
                    "raw_prices",
                    record(&[
                        ("precision", integer()),
                        ("price", minor_units()),
                        ("regular_price", minor_units()),
                        ("sale_price", minor_units()),
                    ]),
                ),
            ])),
        ),
        (
            "totals",
            record(&with_currency(&[
                ("line_subtotal", minor_units()),
                ("line_subtotal_tax", minor_units()),
                ("line_total", minor_units()),
                ("line_total_tax", minor_units()),
            ])),
        ),
        ("catalog_visibility", string()),
        ("extensions", any_object()),
    ])
}

fn cart() -> Value {
    let coupon = record(&[
        ("code", string()),
        (
            "discount_type",
            one_of(&["percent", "fixed_cart", "fixed_product"]),
        ),
        (
            "totals",
            record(&with_currency(&[
                ("total_discount", minor_units()),
                ("total_discount_tax", minor_units()),
            ])),
        ),
    ]);
    let rate = record(&with_currency(&[
        ("rate_id", string()),
        ("name", string()),
        ("description", string()),
        ("delivery_time", string()),
        ("price", minor_units()),
        ("taxes", minor_units()),
        ("instance_id", integer()),
        ("method_id", string()),
        ("meta_data", array(json!({}))),
        ("selected", boolean()),
    ]));
    let package = record(&[
        ("package_id", integer()),
        ("name", string()),
        (
            "destination",
            record(&[
                ("address_1", string()),
                ("address_2", string()),
                ("city", string()),
                ("state", string()),
                ("postcode", string()),
                ("country", string()),
            ]),
        ),
        (
            "items",
            array(record(&[
                ("key", string()),
                ("name", string()),
                ("quantity", integer()),
            ])),
        ),
        ("shipping_rates", array(rate)),
    ]);
    let totals = record(&with_currency(&[
        ("total_items", minor_units()),
        ("total_items_tax", minor_units()),
        ("total_fees", minor_units()),
        ("total_fees_tax", minor_units()),
        ("total_discount", minor_units()),
        ("total_discount_tax", minor_units()),
        ("total_shipping", minor_units()),
        ("total_shipping_tax", minor_units()),
        ("total_price", minor_units()),
        ("total_tax", minor_units()),
        (
            "tax_lines",
            array(record(&[
                ("name", string()),
                ("price", minor_units()),
                ("rate", string()),
            ])),
        ),
    ]));
    record(&[
        ("coupons", array(coupon)),
        ("shipping_rates", array(package)),
        ("shipping_address", shape("ShippingAddress")),
        ("billing_address", shape("BillingAddress")),
        ("items", array(shape("CartItem"))),
        ("items_count", json!({"type": "integer", "minimum": 0})),
        ("items_weight", number()),
        ("cross_sells", array(json!({}))),
        ("needs_payment", boolean()),
        ("needs_shipping", boolean()),
        ("has_calculated_shipping", boolean()),
        ("fees", array(json!({}))),
        ("totals", totals),
        (
            "errors",
            array(record(&[("code", string()), ("message", string())])),
        ),
        ("payment_methods", array(string())),
        ("payment_requirements", array(string())),
        ("extensions", any_object()),
    ])
}

fn order_status() -> Value {
    one_of(&[
        "checkout-draft",
        "pending",
        "on-hold",
        "processing",
        "completed",
        "cancelled",
        "failed",
        "refunded",
    ])
}

fn checkout_order() -> Value {
    record(&[
        ("order_id", integer()),
        ("status", order_status()),
        ("order_key", string()),
        ("customer_note", string()),
        ("customer_id", integer()),
        ("billing_address", shape("BillingAddress")),
        ("shipping_address", shape("ShippingAddress")),
        ("payment_method", string()),
        (
            "payment_result",
            record(&[
                ("payment_status", one_of(&["", "success"])),
                (
                    "payment_details",
                    array(record(&[("key", string()), ("value", string())])),
                ),
                ("redirect_url", string()),
            ]),
        ),
        ("extensions", any_object()),
    ])
}

fn order() -> Value {
    let item = record(&[
        ("id", integer()),
        ("product_id", integer()),
        ("variation_id", integer()),
        ("name", string()),
        ("sku", string()),
        ("quantity", integer()),
        (
            "variation",
            array(record(&[("attribute", string()), ("value", string())])),
        ),
        ("price", minor_units()),
        ("subtotal", minor_units()),
        ("subtotal_tax", minor_units()),
        ("total", minor_units()),
        ("total_tax", minor_units()),
    ]);
    let bank_account = record(&[
        ("account_name", string()),
        ("account_number", string()),
        ("bank_name", string()),
        ("sort_code", string()),
        ("iban", string()),
        ("bic", string()),
    ]);
    record(&[
        ("id", integer()),
        ("number", string()),
        ("order_key", string()),
        ("status", order_status()),
        ("status_label", string()),
        ("date_created", string()),
        ("customer_id", integer()),
        ("customer_note", string()),
        ("billing_address", shape("BillingAddress")),
        ("shipping_address", shape("ShippingAddress")),
        ("payment_method", string()),
        ("payment_method_title", string()),
        ("needs_payment", boolean()),
        ("pay_url", string()),
        ("received_url", string()),
        ("items", array(item)),
        (
            "shipping_lines",
            array(record(&[
                ("method_id", string()),
                ("instance_id", integer()),
                ("name", string()),
                ("total", minor_units()),
                ("total_tax", minor_units()),
            ])),
        ),
        (
            "coupon_lines",
            array(record(&[
                ("code", string()),
                ("discount", minor_units()),
                ("discount_tax", minor_units()),
            ])),
        ),
        ("fee_lines", array(json!({}))),
        (
            "tax_lines",
            array(record(&[
                ("rate_id", integer()),
                ("label", string()),
                ("rate_percent", string()),
                ("compound", boolean()),
                ("tax_total", minor_units()),
                ("shipping_tax_total", minor_units()),
            ])),
        ),
        (
            "totals",
            record(&with_currency(&[
                ("subtotal", minor_units()),
                ("discount", minor_units()),
                ("discount_tax", minor_units()),
                ("shipping", minor_units()),
                ("shipping_tax", minor_units()),
                ("tax", minor_units()),
                ("total", minor_units()),
            ])),
        ),
        ("payment_instructions", nullable(string())),
        ("bank_accounts", array(bank_account)),
    ])
}

fn order_summary() -> Value {
    record(&with_currency(&[
        ("id", integer()),
        ("number", string()),
        ("date_created", string()),
        ("status", order_status()),
        ("status_label", string()),
        ("total", minor_units()),
        ("item_count", integer()),
        ("order_key", string()),
    ]))
}

fn user() -> Value {
    record(&[
        ("id", integer()),
        ("email", string()),
        ("display_name", string()),
        ("first_name", string()),
        ("last_name", string()),
    ])
}

fn account() -> Value {
    record_with_optional(
        &[
            ("user", shape("User")),
            ("billing", shape("BillingAddress")),
            ("shipping", shape("ShippingAddress")),
        ],
        &[("message", string())],
    )
}

fn address_locale() -> Value {
    let rule = json!({
        "type": "object",
        "properties": {
            "label": string(),
            "required": boolean(),
            "hidden": boolean(),
            "priority": integer(),
            "class": array(string()),
            "label_class": array(string()),
            "validate": array(string()),
            "autocomplete": string(),
            "type": string(),
            "placeholder": string(),
        },
        "additionalProperties": false,
    });
    record(&[
        (
            "countries",
            array(json!({
                "type": "array",
                "description": "[code, name]",
                "items": string(),
                "minItems": 2,
                "maxItems": 2,
            })),
        ),
        (
            "states",
            map_of(json!({
                "anyOf": [map_of(string()), {"type": "array", "maxItems": 0}]
            })),
        ),
        ("default", map_of(rule.clone())),
        ("billing_fields", map_of(rule.clone())),
        ("locale", map_of(map_of(rule))),
        ("i18n_required_text", string()),
        ("i18n_optional_text", string()),
    ])
}

/// The classic calls' refusal (WordPress's `wp_send_json_error`).
fn classic_error() -> Value {
    record_with_optional(
        &[("success", constant(json!(false)))],
        &[("data", record(&[("code", string()), ("message", string())]))],
    )
}

/// The mini-cart's fragments: CSS selector → server-rendered markup, and the cart hash.
fn fragments() -> Value {
    record(&[("fragments", map_of(string())), ("cart_hash", string())])
}
