//! One described call, built up the way its handler answers: its parameters and body,
//! each status it can answer with the shapes of those answers, and the frame it runs
//! in (the Store API's headers and refusals are added once, here, for every call in
//! that frame).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::shapes;

pub const JSON: &str = "application/json";
pub const FORM: &str = "application/x-www-form-urlencoded";
pub const HTML: &str = "text/html";
pub const TEXT: &str = "text/plain";
pub const MULTIPART: &str = "multipart/form-data";

/// The frame a call runs in, which decides what it shares with the calls around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// Nothing shared (the load balancer's health check).
    Bare,
    /// Behind the host guard only; its refusal is an API error.
    Guarded,
    /// A Store API read: a `Cart-Token` may name the cart, the answer carries the
    /// session headers.
    StoreRead,
    /// A Store API write: also the `Nonce`, JSON or form bodies, and the refusals of
    /// writes.
    StoreWrite,
}

/// Everything answered with one status: why, in which media types, with which headers.
#[derive(Default)]
struct Answer {
    reasons: Vec<String>,
    content: BTreeMap<&'static str, Vec<Value>>,
    headers: Map<String, Value>,
}

pub struct Op {
    method: &'static str,
    path: String,
    tag: &'static str,
    summary: String,
    description: Option<String>,
    parameters: Vec<Value>,
    body: Option<(Value, &'static [&'static str], Option<Value>)>,
    answers: BTreeMap<u16, Answer>,
    frame: Frame,
    /// Needs HTTP Basic auth (the staff API's keys).
    basic_auth: bool,
}

impl Op {
    pub fn get(path: &str, tag: &'static str, summary: &str) -> Self {
        Self::new("get", path, tag, summary)
    }

    pub fn post(path: &str, tag: &'static str, summary: &str) -> Self {
        Self::new("post", path, tag, summary)
    }

    /// A call by any method (`"put"`, `"patch"`, …).
    pub fn new(method: &'static str, path: &str, tag: &'static str, summary: &str) -> Self {
        Self {
            method,
            path: path.to_string(),
            tag,
            summary: summary.to_string(),
            description: None,
            parameters: Vec::new(),
            body: None,
            answers: BTreeMap::new(),
            frame: Frame::Bare,
            basic_auth: false,
        }
    }

    pub fn method(&self) -> &'static str {
        self.method
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn describe(mut self, text: &str) -> Self {
        self.description = Some(text.to_string());
        self
    }

    /// Behind the host guard: a request naming a host the shop does not answer for is
    /// refused with an API error.
    pub fn guarded(mut self) -> Self {
        self.frame = Frame::Guarded;
        self
    }

    /// Needs an API key sent with HTTP Basic auth.
    pub fn basic_auth(mut self) -> Self {
        self.basic_auth = true;
        self
    }

    /// A Store API read (the frame of every `/wp-json` call that has a session).
    pub fn store_read(mut self) -> Self {
        self.frame = Frame::StoreRead;
        self
    }

    /// A Store API write.
    pub fn store_write(mut self) -> Self {
        self.frame = Frame::StoreWrite;
        self
    }

    pub fn param(mut self, parameter: Value) -> Self {
        self.parameters.push(parameter);
        self
    }

    pub fn path_param(self, name: &str, schema: Value, description: &str) -> Self {
        self.param(json!({
            "name": name, "in": "path", "required": true,
            "schema": schema, "description": description,
        }))
    }

    pub fn query(self, name: &str, schema: Value, description: &str) -> Self {
        self.param(json!({
            "name": name, "in": "query", "required": false,
            "schema": schema, "description": description,
        }))
    }

    pub fn required_query(self, name: &str, schema: Value, description: &str) -> Self {
        self.param(json!({
            "name": name, "in": "query", "required": true,
            "schema": schema, "description": description,
        }))
    }

    /// A body taken as JSON or as a form (PHP-style `a[b]=c` nesting), read alike.
    pub fn body(mut self, schema: Value) -> Self {
        self.body = Some((schema, &[JSON, FORM], None));
        self
    }

    /// A JSON or form body, with an example that the call takes.
    pub fn body_with_example(mut self, schema: Value, example: Value) -> Self {
        self.body = Some((schema, &[JSON, FORM], Some(example)));
        self
    }

    /// A form body only (the classic calls).
    pub fn form(mut self, schema: Value) -> Self {
        self.body = Some((schema, &[FORM], None));
        self
    }

    /// A multipart form body only (forms with files).
    pub fn multipart(mut self, schema: Value) -> Self {
        self.body = Some((schema, &[MULTIPART], None));
        self
    }

    /// An answer with `status` in `media_type` of `schema` (None: any body of that type).
    pub fn answer(
        mut self,
        status: u16,
        reason: &str,
        media_type: &'static str,
        schema: Option<Value>,
    ) -> Self {
        let answer = self.answers.entry(status).or_default();
        if !reason.is_empty() && !answer.reasons.iter().any(|r| r == reason) {
            answer.reasons.push(reason.to_string());
        }
        let schemas = answer.content.entry(media_type).or_default();
        if let Some(schema) = schema {
            if !schemas.contains(&schema) {
                schemas.push(schema);
            }
        }
        self
    }

    pub fn json(self, status: u16, reason: &str, schema: Value) -> Self {
        self.answer(status, reason, JSON, Some(schema))
    }

    pub fn html(self, status: u16, reason: &str) -> Self {
        self.answer(status, reason, HTML, Some(shapes::string()))
    }

    /// An answer without a body.
    pub fn empty(mut self, status: u16, reason: &str) -> Self {
        let answer = self.answers.entry(status).or_default();
        answer.reasons.push(reason.to_string());
        self
    }

    /// The API's error shape.
    pub fn error(self, status: u16, reason: &str) -> Self {
        self.json(status, reason, shapes::error(status))
    }

    /// A header the answers with `status` carry (`required`: always).
    pub fn header(mut self, status: u16, name: &str, required: bool) -> Self {
        let answer = self.answers.entry(status).or_default();
        let mut header = json!({ "$ref": format!("#/components/headers/{name}") });
        if !required {
            header = json!({
                "description": format!("Sent when it applies; see `{name}`."),
                "schema": header_schema(name),
            });
        }
        answer.headers.insert(name.to_string(), header);
        self
    }

    /// A refusal that asks the client to wait: 429 with `Retry-After`.
    pub fn rate_limited(self, reason: &str) -> Self {
        self.error(429, reason).header(429, "Retry-After", true)
    }

    /// The operation object, with what its frame adds.
    pub fn build(self) -> Value {
        let mut op = self;
        let frame = op.frame;
        if matches!(frame, Frame::StoreRead | Frame::StoreWrite) {
            op = op.param(json!({"$ref": "#/components/parameters/Cart-Token"}));
        }
        if frame == Frame::StoreWrite {
            op = op
                .param(json!({"$ref": "#/components/parameters/Nonce"}))
                .error(401, "The `Nonce` header is missing and no valid `Cart-Token` names the cart (`woocommerce_rest_missing_nonce`).")
                .error(403, "The `Nonce` header is not this session's (`woocommerce_rest_invalid_nonce`), or a browser said the request came from another site and no `Cart-Token` was sent (`ferroshop_cross_site_request`).");
            if op.body.is_some() {
                op = op
                    .error(400, "The body could not be read: JSON that is not an object (`rest_invalid_json`), or a form that is not UTF-8 text or has more than 1000 fields (`ferroshop_invalid_form`).")
                    .error(413, "The body is larger than the shop takes (`rest_request_too_large`).");
            }
        }
        if frame != Frame::Bare {
            op = op.error(
                400,
                "The request names a host the shop does not answer for (`ferroshop_unknown_host`).",
            );
        }
        let session_headers = matches!(frame, Frame::StoreRead | Frame::StoreWrite);

        let mut responses = Map::new();
        for (status, answer) in op.answers {
            let mut response = Map::new();
            response.insert("description".into(), json!(answer.reasons.join(" ")));
            let mut headers = answer.headers;
            if session_headers && (200..300).contains(&status) {
                for name in ["Nonce", "Nonce-Timestamp", "User-ID", "Cart-Token"] {
                    headers.insert(
                        name.into(),
                        json!({ "$ref": format!("#/components/headers/{name}") }),
                    );
                }
            }
            if !headers.is_empty() {
                response.insert("headers".into(), Value::Object(headers));
            }
            if !answer.content.is_empty() {
                let content: Map<String, Value> = answer
                    .content
                    .into_iter()
                    .map(|(media_type, mut schemas)| {
                        let media = match schemas.len() {
                            0 => json!({}),
                            1 => json!({ "schema": schemas.remove(0) }),
                            _ => json!({ "schema": { "anyOf": schemas } }),
                        };
                        (media_type.to_string(), media)
                    })
                    .collect();
                response.insert("content".into(), Value::Object(content));
            }
            responses.insert(status.to_string(), Value::Object(response));
        }

        let mut out = Map::new();
        out.insert("tags".into(), json!([op.tag]));
        out.insert("summary".into(), json!(op.summary));
        if let Some(d) = op.description {
            out.insert("description".into(), json!(d));
        }
        out.insert(
            "operationId".into(),
            json!(operation_id(op.method, &op.path)),
        );
        if !op.parameters.is_empty() {
            out.insert("parameters".into(), Value::Array(op.parameters));
        }
        if op.basic_auth {
            out.insert("security".into(), json!([{"basicAuth": []}]));
        }
        if let Some((schema, media_types, example)) = op.body {
            let content: Map<String, Value> = media_types
                .iter()
                .map(|m| {
                    let mut media = json!({ "schema": schema });
                    if *m == FORM {
                        if let Some(encoding) = nested_form_fields(&schema) {
                            media["encoding"] = encoding;
                        }
                    }
                    if let Some(example) = &example {
                        media["example"] = example.clone();
                    }
                    (m.to_string(), media)
                })
                .collect();
            out.insert(
                "requestBody".into(),
                json!({"required": false, "content": content}),
            );
        }
        out.insert("responses".into(), Value::Object(responses));
        Value::Object(out)
    }
}

/// A form's objects and lists are sent PHP-style, `billing_address[city]=…` and
/// `variation[0][attribute]=…`: OpenAPI's `deepObject`.
fn nested_form_fields(schema: &Value) -> Option<Value> {
    let encoding: Map<String, Value> = schema["properties"]
        .as_object()?
        .iter()
        .filter(|(_, s)| {
            let nested = |t: &Value| t == "object" || t == "array";
            s.get("$ref").is_some()
                || match &s["type"] {
                    Value::Array(types) => types.iter().any(nested),
                    t => nested(t),
                }
        })
        .map(|(name, _)| {
            (
                name.clone(),
                json!({"style": "deepObject", "explode": true}),
            )
        })
        .collect();
    (!encoding.is_empty()).then(|| Value::Object(encoding))
}

/// `post /wp-json/wc/store/v1/cart/add-item` → `post_wc_store_v1_cart_add_item`.
fn operation_id(method: &str, path: &str) -> String {
    let words: Vec<String> = path
        .trim_start_matches("/wp-json")
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        format!("{method}_root")
    } else {
        format!("{method}_{}", words.join("_"))
    }
}

/// The schema of a named response header, for the copies that are not always sent.
fn header_schema(name: &str) -> Value {
    headers()
        .get(name)
        .and_then(|h| h.get("schema"))
        .cloned()
        .unwrap_or_else(shapes::string)
}

/// The response headers several calls share, under `components/headers`.
pub fn headers() -> Map<String, Value> {
    let header = |description: &str, schema: Value| json!({"description": description, "required": true, "schema": schema});
    let count = json!({"type": "integer", "minimum": 0});
    let mut h = Map::new();
    let mut add = |name: &str, value: Value| {
        h.insert(name.to_string(), value);
    };
    add(
        "Nonce",
        header(
            "This session's nonce for Store API writes: send it back in the `Nonce` header.",
            shapes::string(),
        ),
    );
    add(
        "Nonce-Timestamp",
        header("When the nonce was made (Unix seconds).", shapes::integer()),
    );
    add(
        "User-ID",
        header("The signed-in customer, or 0.", shapes::integer()),
    );
    add("Cart-Token", header("A token naming this session's cart: sent back in the `Cart-Token` header, it stands for the session without cookies and lets writes go without a nonce.", shapes::string()));
    add(
        "X-WP-Total",
        header(
            "How many items the listing has over all its pages.",
            count.clone(),
        ),
    );
    add(
        "X-WP-TotalPages",
        header("How many pages the listing has.", count),
    );
    add(
        "Link",
        header(
            "The previous and next pages (`rel=\"prev\"`, `rel=\"next\"`).",
            shapes::string(),
        ),
    );
    add(
        "Retry-After",
        header(
            "Seconds to wait before trying again.",
            json!({"type": "integer", "minimum": 1}),
        ),
    );
    add(
        "ETag",
        header("The entity tag, for `If-None-Match`.", shapes::string()),
    );
    add(
        "Allow",
        header("The methods the call takes.", shapes::string()),
    );
    add(
        "Location",
        header("Where the answer sends the client.", shapes::string()),
    );
    add(
        "Cache-Control",
        header(
            "How the answer may be kept (`no-store` for staff answers).",
            shapes::string(),
        ),
    );
    h
}

/// The request parameters several calls share, under `components/parameters`.
pub fn parameters() -> Map<String, Value> {
    let mut p = Map::new();
    p.insert(
        "Cart-Token".into(),
        json!({
            "name": "Cart-Token", "in": "header", "required": false,
            "schema": shapes::string(),
            "description": "A `Cart-Token` from an earlier answer: names the session's cart without cookies. A write that names its cart this way needs no nonce, and is not refused as cross-site. A token that is not valid is ignored (the request gets a new session).",
        }),
    );
    p.insert(
        "Nonce".into(),
        json!({
            "name": "Nonce", "in": "header", "required": false,
            "schema": shapes::string(),
            "description": "The session's nonce from the `Nonce` header of an earlier answer (`X-WC-Store-API-Nonce` is read too). Needed on writes unless a valid `Cart-Token` names the cart.",
        }),
    );
    p.insert(
        "If-None-Match".into(),
        json!({
            "name": "If-None-Match", "in": "header", "required": false,
            "schema": shapes::string(),
            "description": "An entity tag from an earlier answer: 304 when it is still current.",
        }),
    );
    p
}
