//! The staff API, in the shape of the original shop's REST API v3 under
//! `/wp-json/wc/v3`, so a shop owner's existing tools work: orders listed, read and
//! moved through their lifecycle, and order notes. Every call needs an API key (see
//! `auth`); every answer, refusals included, is JSON in the WordPress REST shape.

use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use super::auth::{authorize, Access};
use super::view::StaffView;
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::{as_int, parse_form, Params};
use crate::http::routes::ApiRoutes;
use crate::orders::service::{EditError, OrderEdit, OrderService};
use crate::shop_url::BaseUrl;
use crate::state::{AppState, SharedState};
use rules::orders::model::{NoteId, Order, OrderId, OrderStatus};
use store::orders::{OrderFilter, OrderSort};

pub use super::view::API_ROOT;

/// The staff calls, under `API_ROOT`.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/orders", list_orders)
        .get("/orders/{id}", get_order)
        .put("/orders/{id}", update_order)
        .post("/orders/{id}", update_order)
        .patch("/orders/{id}", update_order)
        .get("/orders/{id}/notes", list_notes)
        .post("/orders/{id}/notes", create_note)
        .get("/orders/{id}/notes/{note_id}", get_note)
}

/// Every answer: orders carry customers' addresses, so no cache keeps a copy.
pub(crate) fn answer(result: Result<Response, ApiError>) -> Response {
    let mut res = result.unwrap_or_else(IntoResponse::into_response);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// A query string's parameters; one that cannot be read is refused, not ignored.
pub(crate) fn query_params(raw: Option<&str>) -> Result<Map<String, Value>, ApiError> {
    match raw {
        None => Ok(Map::new()),
        Some(q) => parse_form(q).map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "rest_invalid_param",
                "The query string could not be read.",
            )
        }),
    }
}

fn view<'a>(state: &'a AppState, base_url: &'a str) -> StaffView<'a> {
    StaffView {
        currency: &state.config.currency,
        base_url,
    }
}

pub(super) fn invalid_order_id() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "woocommerce_rest_shop_order_invalid_id",
        "Invalid ID.",
    )
}

/// The id in the path. The original's routes only match digits, so anything else is
/// no route at all.
fn path_id(raw: &str) -> Result<i64, ApiError> {
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::not_found());
    }
    raw.parse().map_err(|_| invalid_order_id())
}

pub(super) fn order_id(path: &Result<Path<String>, PathRejection>) -> Result<OrderId, ApiError> {
    match path {
        Ok(Path(raw)) => Ok(OrderId(path_id(raw)?)),
        Err(_) => Err(ApiError::not_found()),
    }
}

pub(super) async fn find_order(state: &AppState, id: OrderId) -> Result<Order, ApiError> {
    store::orders::find_order(&state.db, id)
        .await?
        .filter(|o| o.status != OrderStatus::CheckoutDraft)
        .ok_or_else(invalid_order_id)
}

/// WordPress's answer to parameters the call does not take: named, never ignored.
fn unsupported(names: &[String], accepted: &str) -> ApiError {
    let params: Map<String, Value> = names
        .iter()
        .map(|n| {
            (
                n.clone(),
                json!(format!(
                    "{n} is not supported by this shop's API; this call accepts {accepted}."
                )),
            )
        })
        .collect();
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "rest_invalid_param",
        format!("Invalid parameter(s): {}", names.join(", ")),
    )
    .with_data("params", Value::Object(params))
}

pub(crate) fn refuse_unknown(
    params: &Map<String, Value>,
    accepted: &[&str],
) -> Result<(), ApiError> {
    let unknown: Vec<String> = params
        .keys()
        .filter(|k| !accepted.contains(&k.as_str()))
        .cloned()
        .collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(unsupported(&unknown, &accepted.join(", ")))
    }
}

fn not_in_enum(param: &str, allowed: &str) -> ApiError {
    ApiError::invalid_param(
        param,
        format!("{param} is not one of {allowed}."),
        "rest_not_in_enum",
    )
}

const STATUS_NAMES: &str =
    "pending, processing, on-hold, completed, cancelled, refunded, and failed";

/// `GET /orders`: its query, parsed at the edge.
struct ListQuery {
    filter: OrderFilter,
    page: i64,
    per_page: i64,
}

const LIST_PARAMS: [&str; 8] = [
    "page", "per_page", "status", "customer", "search", "order", "orderby", "context",
];

impl ListQuery {
    fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let params = query_params(raw)?;
        refuse_unknown(&params, &LIST_PARAMS)?;
        let text = |name: &str| -> Result<Option<String>, ApiError> {
            match params.get(name) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
                Some(_) => Err(ApiError::invalid_param(
                    name,
                    format!("{name} is not of type string."),
                    "rest_invalid_type",
                )),
            }
        };
        let int = |name: &str| -> Result<Option<i64>, ApiError> {
            params
                .get(name)
                .map(|v| as_int(v).ok_or_else(|| ApiError::not_integer(name)))
                .transpose()
        };
        let page = int("page")?.unwrap_or(1);
        if page < 1 {
            return Err(ApiError::invalid_param(
                "page",
                "page must be greater than or equal to 1",
                "rest_out_of_bounds",
            ));
        }
        let per_page = int("per_page")?.unwrap_or(10);
        if !(1..=100).contains(&per_page) {
            return Err(ApiError::invalid_param(
                "per_page",
                "per_page must be between 1 (inclusive) and 100 (inclusive)",
                "rest_out_of_bounds",
            ));
        }
        // One status, a comma list, or status[]=…; `any` is every placed status.
        let names: Vec<String> = match params.get("status") {
            None => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .map(|v| v.as_str().unwrap_or("").to_string())
                .collect(),
            Some(Value::String(s)) => s.split(',').map(str::to_string).collect(),
            Some(_) => vec![String::new()],
        };
        let mut statuses = Vec::new();
        let mut any = false;
        for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
            if name == "any" {
                any = true;
                continue;
            }
            let status = OrderStatus::parse_placed(name)
                .ok_or_else(|| not_in_enum("status", &format!("any, {STATUS_NAMES}")))?;
            if !statuses.contains(&status) {
                statuses.push(status);
            }
        }
        if any {
            statuses.clear();
        }
        let customer_id = match int("customer")? {
            None => None,
            Some(c) if c >= 1 => Some(c),
            Some(_) => {
                return Err(ApiError::invalid_param(
                    "customer",
                    "customer must be greater than or equal to 1",
                    "rest_out_of_bounds",
                ))
            }
        };
        let billing_email = text("search")?.filter(|s| !s.is_empty());
        let newest_first = match text("order")?.as_deref() {
            None | Some("desc") => true,
            Some("asc") => false,
            Some(_) => return Err(not_in_enum("order", "asc, and desc")),
        };
        let sort = match text("orderby")?.as_deref() {
            None | Some("date") => OrderSort::Date,
            Some("id") => OrderSort::Id,
            Some(_) => return Err(not_in_enum("orderby", "date, and id")),
        };
        match text("context")?.as_deref() {
            None | Some("view") | Some("edit") => {}
            Some(_) => return Err(not_in_enum("context", "view, and edit")),
        }
        Ok(Self {
            filter: OrderFilter {
                statuses,
                customer_id,
                billing_email,
                sort,
                newest_first,
            },
            page,
            per_page,
        })
    }
}

async fn list_orders(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::List).await?;
            let q = ListQuery::parse(query.as_deref())?;
            let offset = (q.page - 1).saturating_mul(q.per_page);
            let orders =
                store::orders::list_orders(&state.db, &q.filter, offset, q.per_page).await?;
            let total = store::orders::count_orders(&state.db, &q.filter).await?;
            let base = base.to_string();
            let v = view(&state, &base);
            let list: Vec<_> = orders.iter().map(|o| v.order(o)).collect();
            let mut res = json_value(StatusCode::OK, &list);
            let pages = (total + q.per_page - 1) / q.per_page;
            res.headers_mut()
                .insert("x-wp-total", HeaderValue::from(total));
            res.headers_mut()
                .insert("x-wp-totalpages", HeaderValue::from(pages));
            Ok(res)
        }
        .await,
    )
}

async fn get_order(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::View).await?;
            let id = order_id(&path)?;
            refuse_unknown(&query_params(query.as_deref())?, &["context"])?;
            let order = find_order(&state, id).await?;
            let base = base.to_string();
            Ok(json_value(
                StatusCode::OK,
                &view(&state, &base).order(&order),
            ))
        }
        .await,
    )
}

fn edit_error(e: EditError) -> ApiError {
    match e {
        EditError::NotFound => invalid_order_id(),
        EditError::Refused(_) | EditError::Moved(_) => ApiError::new(
            StatusCode::CONFLICT,
            "ferroshop_order_status_refused",
            e.to_string(),
        ),
        EditError::Store(e) => e.into(),
    }
}

/// `PUT /orders/{id}`: the fields this shop changes, parsed at the edge.
fn order_edit(params: &Params) -> Result<OrderEdit, ApiError> {
    refuse_unknown(&params.0, &["status", "customer_note"])?;
    let status = match params.string("status")? {
        None => None,
        Some(name) => Some(
            OrderStatus::parse_placed(&name).ok_or_else(|| not_in_enum("status", STATUS_NAMES))?,
        ),
    };
    Ok(OrderEdit {
        status,
        customer_note: params.string("customer_note")?,
        ..OrderEdit::default()
    })
}

async fn update_order(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    answer(
        async {
            let key = authorize(&state, &headers, Access::Edit).await?;
            let id = order_id(&path)?;
            // Fields come from the body only; the query string may carry no writes.
            refuse_unknown(&query_params(query.as_deref())?, &[])?;
            let params = Params::read(&headers, body, state.config.max_body_bytes).await?;
            let mut edit = order_edit(&params)?;
            // A card payment moves with its order: captured when an authorised order is
            // processed, released when it is cancelled, given back when it is refunded.
            if let Some(to) = edit.status {
                let order = find_order(&state, id).await?;
                if crate::payments::staff::before_status_change(
                    &crate::payments::staff::Desk::of(&state),
                    &order,
                    to,
                    &key.actor().to_string(),
                )
                .await
                .map_err(ApiError::from)?
                {
                    let now = find_order(&state, id).await?;
                    if now.status == to {
                        edit.status = None;
                    }
                }
            }
            let base = base.to_string();
            let mail = state.config.order_mails(&base);
            let orders = OrderService {
                db: &state.db,
                mail: &mail,
            };
            let order = orders
                .edit(id, &edit, &key.actor(), rules::clock::now())
                .await
                .map_err(edit_error)?
                .order;
            Ok(json_value(
                StatusCode::OK,
                &view(&state, &base).order(&order),
            ))
        }
        .await,
    )
}

async fn list_notes(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::List).await?;
            let id = order_id(&path)?;
            let params = query_params(query.as_deref())?;
            refuse_unknown(&params, &["type", "context"])?;
            let wanted = match params.get("type").and_then(Value::as_str) {
                None | Some("any") => None,
                Some("customer") => Some(true),
                Some("internal") => Some(false),
                Some(_) => return Err(not_in_enum("type", "any, customer, and internal")),
            };
            find_order(&state, id).await?;
            let base = base.to_string();
            let v = view(&state, &base);
            // Newest first, as the original lists them.
            let notes: Vec<Value> = store::orders::notes(&state.db, id)
                .await?
                .iter()
                .rev()
                .filter(|n| wanted.is_none_or(|c| n.for_customer == c))
                .map(|n| v.note(n))
                .collect();
            Ok(json_value(StatusCode::OK, &notes))
        }
        .await,
    )
}

async fn get_note(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::View).await?;
            let Ok(Path((order, note))) = &path else {
                return Err(ApiError::not_found());
            };
            let id = OrderId(path_id(order)?);
            let note_id = NoteId(path_id(note)?);
            find_order(&state, id).await?;
            let note = store::orders::find_note(&state.db, id, note_id)
                .await?
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::NOT_FOUND,
                        "woocommerce_rest_invalid_id",
                        "Invalid resource ID.",
                    )
                })?;
            let base = base.to_string();
            Ok(json_value(StatusCode::OK, &view(&state, &base).note(&note)))
        }
        .await,
    )
}

/// A boolean as WordPress reads one: JSON true/false, or "true", "false", "1", "0".
pub(crate) fn boolean(params: &Params, name: &str) -> Result<Option<bool>, ApiError> {
    match params.get(name) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(Value::Number(n)) if n.as_i64() == Some(0) || n.as_i64() == Some(1) => {
            Ok(Some(n.as_i64() == Some(1)))
        }
        Some(Value::String(s)) if matches!(s.as_str(), "true" | "1") => Ok(Some(true)),
        Some(Value::String(s)) if matches!(s.as_str(), "false" | "0" | "") => Ok(Some(false)),
        Some(_) => Err(ApiError::invalid_param(
            name,
            format!("{name} is not of type boolean."),
            "rest_invalid_type",
        )),
    }
}

async fn create_note(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    answer(
        async {
            let key = authorize(&state, &headers, Access::Create).await?;
            let id = order_id(&path)?;
            // Fields come from the body only; the query string may carry no writes.
            refuse_unknown(&query_params(query.as_deref())?, &[])?;
            let params = Params::read(&headers, body, state.config.max_body_bytes).await?;
            refuse_unknown(&params.0, &["note", "customer_note", "added_by_user"])?;
            let text = params
                .string("note")?
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .ok_or_else(|| ApiError::missing_param("note"))?;
            let for_customer = boolean(&params, "customer_note")?.unwrap_or(false);
            // The original can file a note under the shop instead of its user; here a
            // note always names the key that wrote it.
            if boolean(&params, "added_by_user")? == Some(false) {
                return Err(ApiError::invalid_param(
                    "added_by_user",
                    "Notes added through this shop's API always name the API key that added them.",
                    "rest_invalid_param",
                ));
            }
            let base = base.to_string();
            let mail = state.config.order_mails(&base);
            let orders = OrderService {
                db: &state.db,
                mail: &mail,
            };
            let note = orders
                .add_note(id, &text, for_customer, &key.actor(), rules::clock::now())
                .await
                .map_err(edit_error)?;
            Ok(json_value(
                StatusCode::CREATED,
                &view(&state, &base).note(&note),
            ))
        }
        .await,
    )
}
