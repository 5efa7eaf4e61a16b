//! The published description of the shop's API: an OpenAPI 3.1 document of every call
//! the server answers, served at `/wp-json/ferroshop/v1/openapi.json`. It is built once
//! from the shapes in `shapes` and one list of operations per surface; a test holds it
//! to the routes `api_routes()` registers, both ways, and the fuzzer (`scripts/fuzz-api`)
//! holds the server's answers to it.
//!
//! To describe a new call, add an `Op` to the list of its surface (or a new list,
//! joined in `operations()`), in the frame its handler runs in.

mod classic;
mod contact;
mod operation;
mod reviews;
mod shapes;
mod shop_api;
mod staff_api;
mod store_api;
mod wishlist;

use std::sync::OnceLock;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use bytes::Bytes;
use serde_json::{json, Map, Value};

use super::json::json_bytes;
use super::routes::ApiRoutes;
use operation::Op;

/// Under the shop's own API root.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// The route needs no shared state.
pub fn routes<S: Clone + Send + Sync + 'static>() -> ApiRoutes<S> {
    ApiRoutes::new().get(OPENAPI_PATH, get_openapi)
}

async fn get_openapi() -> Response {
    static BODY: OnceLock<Bytes> = OnceLock::new();
    let body = BODY.get_or_init(|| Bytes::from(document().to_string()));
    let mut res = json_bytes(StatusCode::OK, body.clone());
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    res
}

/// Every described call: the Store API, the shop's own calls, the classic calls.
fn operations() -> Vec<Op> {
    let mut ops = store_api::operations();
    ops.extend(shop_api::operations());
    ops.extend(staff_api::operations());
    ops.extend(reviews::operations());
    ops.extend(contact::operations());
    ops.extend(contact::newsletter_operations());
    ops.extend(wishlist::operations());
    ops.extend(classic::operations());
    ops
}

const DESCRIPTION: &str = "\
The calls of the Ferroshop server: the Store API under `/wp-json/wc/store/v1` (also \
answered, alike, under the unversioned `/wp-json/wc/store`, which is not listed again \
here), the shop's own calls under `/wp-json/ferroshop/v1`, the platform's user call under \
`/wp-json/wp/v2`, the staff API under `/wp-json/wc/v3` \
(an API key with HTTP Basic auth), the shop's images, the health check, the review form without \
scripts at `/wp-comments-post.php`, and the classic `?wc-ajax=NAME` calls, which any path takes and which are \
described on `/` (with the wishlist's add, a form posted to any storefront page).

**Sessions.** Every Store API answer carries `Nonce` and `Cart-Token` headers. A write \
needs the `Nonce` header (401 without it, 403 with a wrong one) unless a valid \
`Cart-Token` header names the cart, which also works without cookies. A write a browser \
says comes from another site is refused (403 `ferroshop_cross_site_request`) unless it \
sends a `Cart-Token`. A request naming a host the shop does not answer for is refused \
(400 `ferroshop_unknown_host`).

**Bodies** may be JSON or form-encoded (`a[b]=c` nests); parameters of writes are never \
read from the query string. A POST with `X-HTTP-Method-Override: PUT`, `PATCH` or \
`DELETE` is taken as that method (400 `rest_invalid_method_override` for any other \
value), as the platform's script helper sends them.

**Errors** are `{\"code\", \"message\", \"data\": {\"status\", …}}`, with WordPress's \
`rest_invalid_param` shape for a bad parameter. Rate-limited calls answer 429 with \
`Retry-After`.

**Money** is a string of the currency's minor units (`\"1999\"` for 19.99), with the \
currency's fields beside it.";

/// The whole document.
pub fn document() -> Value {
    let mut paths = Map::new();
    for op in operations() {
        let item = paths
            .entry(op.path().to_string())
            .or_insert_with(|| json!({}));
        let method = op.method();
        item[method] = op.build();
    }
    let mut schemas = shapes::components();
    schemas.extend(staff_api::components());
    schemas.extend(reviews::components());
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Ferroshop API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": DESCRIPTION,
        },
        "servers": [{"url": "/"}],
        "tags": [
            {"name": "Catalogue", "description": "Products, categories and brands (Store API)."},
            {"name": "Cart", "description": "The session's cart (Store API)."},
            {"name": "Checkout", "description": "Addresses, shipping, coupons and placing the order (Store API)."},
            {"name": "Orders", "description": "Orders for whoever holds their key, guest lookup, and a customer's own orders."},
            {"name": "Account", "description": "Customer accounts: sign-up, sign-in, password reset, details and addresses."},
            {"name": "Shop", "description": "Address rules, images, the health check and this description."},
            {"name": "Reviews", "description": "Product reviews and replies: the Store API's listing, a product page's threaded list and posting, the form without scripts, and the staff's moderation."},
            {"name": "Contact forms", "description": "Contact forms at the original plugin's root: a form's validation schema, its refill and sending it (multipart, with files); the form as the storefront draws it; and the staff's forms and submissions."},
            {"name": "Wishlists", "description": "The shopper's wishlists as the storefront reads them; the add from a page and the table's `?wc-ajax=tinvwl` are among the classic calls."},
            {"name": "Classic calls", "description": "`?wc-ajax=NAME`, as the original shop's scripts call them."},
            {"name": "Staff", "description": "Orders and order notes for the shop owner's tools, in the original shop's REST API v3 shape; every call needs an API key (`ferroshop api-keys create`) sent with HTTP Basic auth."},
        ],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "parameters": operation::parameters(),
            "headers": operation::headers(),
            "securitySchemes": {
                "basicAuth": {
                    "type": "http",
                    "scheme": "basic",
                    "description": "A staff API key: the consumer key as the user name, the consumer secret as the password.",
                },
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// (method, path) of every operation the document describes, but the classic calls.
    fn described(doc: &Value) -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            if path == "/" {
                continue;
            }
            for method in item.as_object().unwrap().keys() {
                out.insert((method.clone(), path.clone()));
            }
        }
        out
    }

    #[test]
    fn the_description_and_the_routes_name_the_same_calls() {
        let registered: BTreeSet<(String, String)> = crate::router::api_routes()
            .operations()
            .iter()
            .map(|op| (op.method.as_str().to_ascii_lowercase(), op.path.clone()))
            .collect();
        let described = described(&document());
        let undescribed: Vec<_> = registered.difference(&described).collect();
        let unregistered: Vec<_> = described.difference(&registered).collect();
        assert!(
            undescribed.is_empty() && unregistered.is_empty(),
            "registered in api_routes() but not described in openapi.json: {undescribed:?}\n\
             described in openapi.json but not registered in api_routes(): {unregistered:?}"
        );
    }

    #[test]
    fn the_classic_calls_are_described_on_the_root() {
        let doc = document();
        let root = &doc["paths"]["/"];
        assert!(root["get"].is_object() && root["post"].is_object());
        let names = &root["post"]["parameters"][0]["schema"]["enum"];
        assert!(names.as_array().unwrap().len() >= 7, "{names}");
        assert_eq!(
            root["get"]["parameters"][0]["schema"]["enum"],
            json!(["get_refreshed_fragments"])
        );
    }

    /// Every `$ref` in `v`, as written.
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    match (k.as_str(), v) {
                        ("$ref", Value::String(r)) => out.push(r.clone()),
                        _ => refs(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }

    #[test]
    fn every_reference_names_a_component() {
        let doc = document();
        let mut found = Vec::new();
        refs(&doc, &mut found);
        assert!(!found.is_empty());
        for r in found {
            let pointer = r.strip_prefix('#').expect("a local reference");
            assert!(doc.pointer(pointer).is_some(), "{r} names nothing");
        }
    }

    #[test]
    fn every_path_parameter_is_declared_and_every_operation_is_named_once() {
        let doc = document();
        let mut ids = BTreeSet::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            let in_path: BTreeSet<&str> = path
                .split('{')
                .skip(1)
                .filter_map(|s| s.split('}').next())
                .collect();
            for (method, op) in item.as_object().unwrap() {
                let declared: BTreeSet<&str> = op["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["in"] == "path")
                    .filter_map(|p| p["name"].as_str())
                    .collect();
                assert_eq!(in_path, declared, "{method} {path}");
                assert!(op["responses"].as_object().is_some_and(|r| !r.is_empty()));
                let id = op["operationId"].as_str().unwrap().to_string();
                assert!(ids.insert(id.clone()), "{id} twice");
            }
        }
    }

    #[test]
    fn writes_take_the_nonce_and_rate_limits_say_when_to_retry() {
        let doc = document();
        let add = &doc["paths"]["/wp-json/wc/store/v1/cart/add-item"]["post"];
        for status in ["201", "400", "401", "403", "413"] {
            assert!(add["responses"][status].is_object(), "{status}");
        }
        assert!(add["responses"]["201"]["headers"]["Cart-Token"].is_object());
        let login = &doc["paths"]["/wp-json/ferroshop/v1/account/login"]["post"];
        assert!(login["responses"]["429"]["headers"]["Retry-After"].is_object());
    }
}
