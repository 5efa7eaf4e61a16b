//! The staff API under `/wp-json/wc/v3` (`staff::api`): orders and order notes in the
//! original shop's REST API v3 shape, for an API key sent with HTTP Basic auth.

use serde_json::{json, Map, Value};

use super::operation::Op;
use super::shapes::{
    array, boolean, input, integer, nullable, number, one_of, record, shape, string,
};
use crate::http::STAFF_API_ROOT as API_ROOT;

const STAFF: &str = "Staff";

fn path(p: &str) -> String {
    format!("{API_ROOT}{p}")
}

/// An amount in the v3 shape: a decimal string in the shop's decimals ("29.35").
fn decimal() -> Value {
    json!({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"})
}

pub(super) fn links() -> Value {
    json!({"type": "object", "additionalProperties": array(record(&[("href", string())]))})
}

fn rate_amounts() -> Value {
    array(record(&[
        ("id", integer()),
        ("total", decimal()),
        (
            "subtotal",
            json!({"type": "string", "pattern": "^(-?[0-9]+(\\.[0-9]+)?)?$"}),
        ),
    ]))
}

fn empty_list() -> Value {
    json!({"type": "array", "maxItems": 0})
}

fn v3_address(billing: bool) -> Value {
    let mut members: Vec<(&str, Value)> = [
        "first_name",
        "last_name",
        "company",
        "address_1",
        "address_2",
        "city",
        "state",
        "postcode",
        "country",
    ]
    .iter()
    .map(|f| (*f, string()))
    .collect();
    if billing {
        members.push(("email", string()));
    }
    members.push(("phone", string()));
    record(&members)
}

fn v3_order() -> Value {
    let date = json!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$"});
    let line_item = record(&[
        ("id", integer()),
        ("name", string()),
        ("product_id", integer()),
        ("variation_id", integer()),
        ("quantity", integer()),
        ("tax_class", string()),
        ("subtotal", decimal()),
        ("subtotal_tax", decimal()),
        ("total", decimal()),
        ("total_tax", decimal()),
        ("taxes", rate_amounts()),
        (
            "meta_data",
            array(record(&[
                ("id", integer()),
                ("key", string()),
                ("value", string()),
                ("display_key", string()),
                ("display_value", string()),
            ])),
        ),
        ("sku", string()),
        ("price", number()),
        ("parent_name", nullable(string())),
    ]);
    let tax_line = record(&[
        ("id", integer()),
        ("rate_code", string()),
        ("rate_id", integer()),
        ("label", string()),
        ("compound", boolean()),
        ("tax_total", decimal()),
        ("shipping_tax_total", decimal()),
        ("rate_percent", number()),
        ("meta_data", empty_list()),
    ]);
    let shipping_line = record(&[
        ("id", integer()),
        ("method_title", string()),
        ("method_id", string()),
        ("instance_id", string()),
        ("total", decimal()),
        ("total_tax", decimal()),
        ("taxes", rate_amounts()),
        ("meta_data", empty_list()),
    ]);
    let coupon_line = record(&[
        ("id", integer()),
        ("code", string()),
        ("discount", decimal()),
        ("discount_tax", decimal()),
        ("meta_data", empty_list()),
    ]);
    record(&[
        ("id", integer()),
        ("parent_id", integer()),
        (
            "status",
            one_of(&[
                "pending",
                "on-hold",
                "processing",
                "completed",
                "cancelled",
                "failed",
                "refunded",
            ]),
        ),
        ("currency", string()),
        ("version", string()),
        ("prices_include_tax", boolean()),
        ("date_created", date.clone()),
        ("date_modified", date.clone()),
        ("discount_total", decimal()),
        ("discount_tax", decimal()),
        ("shipping_total", decimal()),
        ("shipping_tax", decimal()),
        ("cart_tax", decimal()),
        ("total", decimal()),
        ("total_tax", decimal()),
        ("customer_id", integer()),
        ("order_key", string()),
        ("billing", v3_address(true)),
        ("shipping", v3_address(false)),
        ("payment_method", string()),
        ("payment_method_title", string()),
        ("transaction_id", string()),
        ("customer_ip_address", string()),
        ("customer_user_agent", string()),
        ("created_via", string()),
        ("customer_note", string()),
        ("date_completed", nullable(date.clone())),
        ("date_paid", nullable(date.clone())),
        ("cart_hash", string()),
        ("number", string()),
        ("meta_data", empty_list()),
        ("line_items", array(line_item)),
        ("tax_lines", array(tax_line)),
        ("shipping_lines", array(shipping_line)),
        ("fee_lines", empty_list()),
        ("coupon_lines", array(coupon_line)),
        ("refunds", empty_list()),
        ("payment_url", string()),
        ("is_editable", boolean()),
        ("needs_payment", boolean()),
        ("needs_processing", boolean()),
        ("date_created_gmt", date.clone()),
        ("date_modified_gmt", date.clone()),
        ("date_completed_gmt", nullable(date.clone())),
        ("date_paid_gmt", nullable(date)),
        ("currency_symbol", string()),
        ("_links", links()),
    ])
}

fn v3_note() -> Value {
    record(&[
        ("id", integer()),
        ("author", string()),
        ("date_created", string()),
        ("date_created_gmt", string()),
        ("note", string()),
        ("customer_note", boolean()),
        ("_links", links()),
    ])
}

/// The staff API's shapes, under `components/schemas`.
pub fn components() -> Map<String, Value> {
    let mut c = Map::new();
    c.insert("V3Order".into(), v3_order());
    c.insert("V3OrderNote".into(), v3_note());
    c
}

const UNAUTHORIZED: &str = "No API key was sent (`woocommerce_rest_cannot_view`, `_cannot_edit`, `_cannot_create`), the key or secret is wrong or revoked (`woocommerce_rest_authentication_error`), or the key may not do this.";
const NO_ORDER: &str = "No order has this id (`woocommerce_rest_shop_order_invalid_id`), or the id is not a number (`rest_no_route`).";
const BAD_PARAM: &str = "A parameter is not of its type, not one of its values, or not one this call takes (`rest_invalid_param`).";

/// Every staff call answers these: behind the host guard, for an API key.
pub(super) fn staff(op: Op) -> Op {
    op.guarded()
        .basic_auth()
        .header(200, "Cache-Control", true)
        .error(401, UNAUTHORIZED)
        .error(400, BAD_PARAM)
}

/// A staff write: a JSON or form body, and the refusals of bodies and other sites.
pub(super) fn staff_write(op: Op, body: Value) -> Op {
    staff(op)
        .body(body)
        .error(400, "The body could not be read: JSON that is not an object (`rest_invalid_json`), or a form that is not UTF-8 text (`ferroshop_invalid_form`).")
        .error(403, "A browser said the request came from another site (`ferroshop_cross_site_request`).")
        .error(413, "The body is larger than the shop takes (`rest_request_too_large`).")
}

pub fn operations() -> Vec<Op> {
    let refund = record(&[
        ("id", integer()),
        ("date_created", string()),
        ("date_created_gmt", string()),
        ("amount", string()),
        ("reason", string()),
        ("refunded_by", string()),
        ("refunded_payment", boolean()),
        ("meta_data", json!({"type": "array"})),
        ("line_items", json!({"type": "array"})),
    ]);
    let id = json!({"type": "integer", "minimum": 1});
    let order_edit = input(
        &[
            (
                "status",
                one_of(&["processing", "completed", "cancelled", "refunded"]),
            ),
            ("customer_note", string()),
        ],
        &[],
    );
    let mut ops = vec![
        staff(Op::get(&path("/orders"), STAFF, "List orders"))
            .query("page", json!({"type": "integer", "minimum": 1}), "Page number, from 1.")
            .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 100}), "Orders per page (default 10).")
            .query("status", string(), "A status, a comma-separated list of them, or `any`.")
            .query("customer", json!({"type": "integer", "minimum": 0}), "The customer's account id.")
            .query("search", string(), "A billing e-mail address (any case).")
            .query("order", one_of(&["asc", "desc"]), "Oldest or newest first (default `desc`).")
            .query("orderby", one_of(&["date", "id"]), "What the order follows (default `date`).")
            .json(200, "A page of orders.", array(shape("V3Order")))
            .header(200, "X-WP-Total", true)
            .header(200, "X-WP-TotalPages", true),
        staff(Op::get(&path("/orders/{id}"), STAFF, "Get an order"))
            .path_param("id", id.clone(), "The order's id.")
            .json(200, "The order.", shape("V3Order"))
            .error(404, NO_ORDER),
        staff(Op::get(&path("/orders/{id}/notes"), STAFF, "List an order's notes"))
            .path_param("id", id.clone(), "The order's id.")
            .query("type", one_of(&["any", "customer", "internal"]), "Which notes (default `any`).")
            .json(200, "The notes, newest first; `author` names who made each.", array(shape("V3OrderNote")))
            .error(404, NO_ORDER),
        staff(Op::get(&path("/orders/{id}/notes/{note_id}"), STAFF, "Get an order note"))
            .path_param("id", id.clone(), "The order's id.")
            .path_param("note_id", id.clone(), "The note's id.")
            .json(200, "The note.", shape("V3OrderNote"))
            .error(404, "No such order (`woocommerce_rest_shop_order_invalid_id`) or note (`woocommerce_rest_invalid_id`), or an id is not a number (`rest_no_route`)."),
        staff_write(
            Op::post(&path("/orders/{id}/notes"), STAFF, "Add a note to an order"),
            input(&[("note", string()), ("customer_note", json!({"type": ["boolean", "string", "integer"]})), ("added_by_user", json!({"type": ["boolean", "string", "integer"]}))], &["note"]),
        )
        .path_param("id", id.clone(), "The order's id.")
        .describe("A note for the customer (`customer_note`) is mailed to them.")
        .json(201, "The note.", shape("V3OrderNote"))
        .header(201, "Cache-Control", true)
        .error(400, "`note` is missing (`rest_missing_callback_param`).")
        .error(404, NO_ORDER),
        staff(Op::get(&path("/orders/{id}/refunds"), STAFF, "List an order's refunds"))
            .path_param("id", id.clone(), "The order's id.")
            .json(200, "The refunds, newest first.", array(refund.clone()))
            .error(404, NO_ORDER),
        staff_write(
            Op::post(&path("/orders/{id}/refunds"), STAFF, "Refund an order"),
            input(&[("amount", json!({"type": ["string", "number"]})), ("reason", string()), ("api_refund", json!({"type": ["boolean", "string", "integer"]})), ("line_items", json!({"type": "array"}))], &[]),
        )
        .path_param("id", id.clone(), "The order's id.")
        .describe("Gives `amount` (all that is left when absent) back through the card provider (`api_refund`, default true), or records a refund made by hand (`api_refund: false`). An authorised card payment not yet captured is released instead and the order cancelled. The refunds reaching the total refund the order (stock and coupon uses back, the customer told).")
        .json(201, "The refund.", refund)
        .header(201, "Cache-Control", true)
        .error(400, "The amount is not positive or more than is left, or the order was not paid (`woocommerce_rest_cannot_create_order_refund`, `woocommerce_rest_invalid_order_refund`).")
        .error(404, NO_ORDER)
        .error(502, "The provider refused the refund or could not be reached; nothing was recorded (`woocommerce_rest_cannot_create_order_refund`)."),
    ];
    for method in ["put", "post", "patch"] {
        ops.push(
            staff_write(
                Op::new(method, &path("/orders/{id}"), STAFF, "Change an order"),
                order_edit.clone(),
            )
            .path_param("id", id.clone(), "The order's id.")
            .describe("Moves the order through its lifecycle by the shop's rules (stock and coupon uses go back when it is cancelled or refunded; mails go out), and records who did it in the order's notes. Any other field is refused with a 400 naming it.")
            .json(200, "The order as it now is.", shape("V3Order"))
            .error(404, NO_ORDER)
            .error(409, "The order's status may not change that way (`ferroshop_order_status_refused`)."),
        );
    }
    ops
}
