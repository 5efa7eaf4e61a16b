//! Reviews in the staff API, in the original's REST API v3 shape under
//! `/wp-json/wc/v3/products/reviews`: listed by status and product, read, moderated
//! and edited (`PUT`), trashed or deleted for good (`DELETE`, `force=true`), and
//! entered (`POST`, with `parent` for a reply). Every call needs an API key (the staff
//! API's own); every change recomputes the product's figures.

use axum::body::Body;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{json, Map, Value};

use super::service::{self, StaffEdit, StaffPost};
use super::view::staff_review;
use crate::catalog::view::ViewContext;
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::{as_int, Params};
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::shop_url::BaseUrl;
use crate::staff::api::{answer, boolean, query_params, refuse_unknown};
use crate::staff::auth::{authorize, Access};
use crate::state::{AppState, SharedState};
use rules::catalog::model::ProductId;
use rules::reviews::{Rating, Review, ReviewId, ReviewStatus};
use store::reviews::{StaffFilter, StaffOrder};

/// Under the staff API's root.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/products/reviews", list_reviews)
        .post("/products/reviews", create_review)
        .get("/products/reviews/{id}", get_review)
        .put("/products/reviews/{id}", update_review)
        .post("/products/reviews/{id}", update_review)
        .patch("/products/reviews/{id}", update_review)
        .delete("/products/reviews/{id}", delete_review)
}

fn not_in_enum(param: &str, allowed: &str) -> ApiError {
    ApiError::invalid_param(
        param,
        format!("{param} is not one of {allowed}."),
        "rest_not_in_enum",
    )
}

fn text_param(params: &Map<String, Value>, name: &str) -> Result<Option<String>, ApiError> {
    match params.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
        Some(_) => Err(ApiError::invalid_param(
            name,
            format!("{name} is not of type string."),
            "rest_invalid_type",
        )),
    }
}

fn int_param(params: &Map<String, Value>, name: &str) -> Result<Option<i64>, ApiError> {
    params
        .get(name)
        .filter(|v| !v.is_null())
        .map(|v| as_int(v).ok_or_else(|| ApiError::not_integer(name)))
        .transpose()
}

/// Whether the answer shows the text as stored (`edit`) or as pages show it (`view`).
fn edit_context(params: &Map<String, Value>) -> Result<bool, ApiError> {
    match text_param(params, "context")?.as_deref() {
        None | Some("view") => Ok(false),
        Some("edit") => Ok(true),
        Some(_) => Err(not_in_enum("context", "view, and edit")),
    }
}

/// The path's review id: digits only (anything else is no route, as in the original).
fn review_id(raw: &str) -> Result<ReviewId, ApiError> {
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::not_found());
    }
    raw.parse()
        .map(ReviewId)
        .map_err(|_| service::StaffError::NotFound.into())
}

async fn find(state: &AppState, id: ReviewId) -> Result<Review, ApiError> {
    store::reviews::find(&state.db, id)
        .await?
        .ok_or_else(|| service::StaffError::NotFound.into())
}

fn render(state: &AppState, base: &BaseUrl, r: &Review, edit: bool) -> Value {
    let view = ViewContext {
        base_url: base.as_str(),
        currency: &state.config.currency,
    };
    staff_review(&view, &state.catalog.get(), r, edit)
}

const LIST_PARAMS: [&str; 8] = [
    "page", "per_page", "offset", "status", "product", "order", "orderby", "context",
];
const STATUSES: &str = "all, any, approved, hold, spam, trash";

/// `GET /products/reviews`, parsed at the edge.
struct ListQuery {
    filter: StaffFilter,
    order: StaffOrder,
    descending: bool,
    per_page: i64,
    offset: i64,
    edit: bool,
}

impl ListQuery {
    fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let params = query_params(raw)?;
        refuse_unknown(&params, &LIST_PARAMS)?;
        let page = int_param(&params, "page")?.unwrap_or(1);
        if page < 1 {
            return Err(ApiError::invalid_param(
                "page",
                "page must be greater than or equal to 1",
                "rest_out_of_bounds",
            ));
        }
        let per_page = int_param(&params, "per_page")?.unwrap_or(10);
        if !(1..=100).contains(&per_page) {
            return Err(ApiError::invalid_param(
                "per_page",
                "per_page must be between 1 (inclusive) and 100 (inclusive)",
                "rest_out_of_bounds",
            ));
        }
        let offset = match int_param(&params, "offset")? {
            None | Some(0) => (page - 1).saturating_mul(per_page),
            Some(o) if o > 0 => o,
            Some(_) => {
                return Err(ApiError::invalid_param(
                    "offset",
                    "offset must be greater than or equal to 0",
                    "rest_out_of_bounds",
                ))
            }
        };
        // The original's `all` is what is shown or waits; `any` is every status.
        let statuses = match text_param(&params, "status")?.as_deref() {
            None | Some("approved") => vec![ReviewStatus::Approved],
            Some("all") => vec![ReviewStatus::Approved, ReviewStatus::Hold],
            Some("any") => Vec::new(),
            Some(name) => {
                vec![ReviewStatus::parse(name).ok_or_else(|| not_in_enum("status", STATUSES))?]
            }
        };
        let products = match params.get("product") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .map(|v| as_int(v).filter(|id| *id > 0).map(ProductId))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| ApiError::not_integer("product"))?,
            Some(Value::String(s)) => s
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<i64>().ok().filter(|id| *id > 0).map(ProductId))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| ApiError::not_integer("product"))?,
            Some(_) => return Err(ApiError::not_integer("product")),
        };
        if products.len() > 100 {
            return Err(ApiError::invalid_param(
                "product",
                "product takes at most 100 ids.",
                "rest_invalid_param",
            ));
        }
        let descending = match text_param(&params, "order")?.as_deref() {
            None | Some("desc") => true,
            Some("asc") => false,
            Some(_) => return Err(not_in_enum("order", "asc, and desc")),
        };
        let order = match text_param(&params, "orderby")?.as_deref() {
            None | Some("date_gmt") | Some("date") => StaffOrder::Date,
            Some("id") => StaffOrder::Id,
            Some("product") => StaffOrder::Product,
            Some(_) => return Err(not_in_enum("orderby", "date, date_gmt, id, and product")),
        };
        Ok(Self {
            filter: StaffFilter { statuses, products },
            order,
            descending,
            per_page,
            offset,
            edit: edit_context(&params)?,
        })
    }
}

async fn list_reviews(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::List).await?;
            let q = ListQuery::parse(query.as_deref())?;
            let reviews = store::reviews::staff_page(
                &state.db,
                &q.filter,
                q.order,
                q.descending,
                q.offset,
                q.per_page,
            )
            .await?;
            let total = store::reviews::staff_total(&state.db, &q.filter).await?;
            let list: Vec<Value> = reviews
                .iter()
                .map(|r| render(&state, &base, r, q.edit))
                .collect();
            let mut res = json_value(StatusCode::OK, &list);
            let pages = (total + q.per_page - 1) / q.per_page;
            let h = res.headers_mut();
            h.insert("x-wp-total", HeaderValue::from(total));
            h.insert("x-wp-totalpages", HeaderValue::from(pages));
            Ok(res)
        }
        .await,
    )
}

async fn get_review(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    PathText(id): PathText,
    RawQuery(query): RawQuery,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::View).await?;
            let id = review_id(&id)?;
            let params = query_params(query.as_deref())?;
            refuse_unknown(&params, &["context"])?;
            let edit = edit_context(&params)?;
            let review = find(&state, id).await?;
            Ok(json_value(
                StatusCode::OK,
                &render(&state, &base, &review, edit),
            ))
        }
        .await,
    )
}

/// A rating as the v3 calls take it: 0 (none) to 5.
fn rating_param(params: &Params) -> Result<Option<Option<Rating>>, ApiError> {
    match params.get("rating") {
        None => Ok(None),
        Some(v) => match as_int(v) {
            Some(0) => Ok(Some(None)),
            Some(n) => Rating::new(n).map(|r| Some(Some(r))).ok_or_else(|| {
                ApiError::invalid_param(
                    "rating",
                    "rating must be between 0 (inclusive) and 5 (inclusive)",
                    "rest_out_of_bounds",
                )
            }),
            None => Err(ApiError::not_integer("rating")),
        },
    }
}

/// A status as the v3 calls take it; `unspam` and `untrash` bring a review back to
/// wait for staff, as the original does when it does not know where it was before.
fn status_param(params: &Params, restoring: bool) -> Result<Option<ReviewStatus>, ApiError> {
    let allowed = if restoring {
        "approved, hold, spam, unspam, trash, untrash"
    } else {
        "approved, hold, spam, trash"
    };
    match params.string("status")?.as_deref() {
        None => Ok(None),
        Some("approved") | Some("approve") | Some("1") => Ok(Some(ReviewStatus::Approved)),
        Some("hold") | Some("0") => Ok(Some(ReviewStatus::Hold)),
        Some("spam") => Ok(Some(ReviewStatus::Spam)),
        Some("trash") => Ok(Some(ReviewStatus::Trash)),
        Some("unspam") | Some("untrash") if restoring => Ok(Some(ReviewStatus::Hold)),
        Some(_) => Err(not_in_enum("status", allowed)),
    }
}

/// Reads a write's body; fields in the query string are refused.
async fn write_params(
    state: &AppState,
    headers: &HeaderMap,
    query: Option<&str>,
    body: Body,
) -> Result<Params, ApiError> {
    refuse_unknown(&query_params(query)?, &[])?;
    Params::read(headers, body, state.config.max_body_bytes).await
}

async fn update_review(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    PathText(id): PathText,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::Edit).await?;
            let id = review_id(&id)?;
            let params = write_params(&state, &headers, query.as_deref(), body).await?;
            refuse_unknown(
                &params.0,
                &[
                    "id",
                    "status",
                    "review",
                    "rating",
                    "reviewer",
                    "reviewer_email",
                ],
            )?;
            if let Some(given) = params.int("id")? {
                if given != id.0 {
                    return Err(ApiError::invalid_param(
                        "id",
                        "id is the review's own id, if given.",
                        "rest_invalid_param",
                    ));
                }
            }
            let edit = StaffEdit {
                status: status_param(&params, true)?,
                text: params.string("review")?,
                rating: rating_param(&params)?.flatten(),
                reviewer: params.string("reviewer")?,
                reviewer_email: params.string("reviewer_email")?,
            };
            let review = service::staff_edit(&state, id, &edit).await?;
            Ok(json_value(
                StatusCode::OK,
                &render(&state, &base, &review, true),
            ))
        }
        .await,
    )
}

async fn delete_review(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    PathText(id): PathText,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::Edit).await?;
            let id = review_id(&id)?;
            // The platform reads a DELETE's `force` from the query string or the body.
            let in_query = query_params(query.as_deref())?;
            refuse_unknown(&in_query, &["force"])?;
            let body = Params::read(&headers, body, state.config.max_body_bytes).await?;
            refuse_unknown(&body.0, &["force"])?;
            let force = match boolean(&body, "force")? {
                Some(f) => f,
                None => boolean(&Params(in_query), "force")?.unwrap_or(false),
            };
            let before = service::staff_delete(&state, id, force).await?;
            if force {
                Ok(json_value(
                    StatusCode::OK,
                    &json!({"deleted": true, "previous": render(&state, &base, &before, true)}),
                ))
            } else {
                let now = find(&state, id).await?;
                Ok(json_value(
                    StatusCode::OK,
                    &render(&state, &base, &now, true),
                ))
            }
        }
        .await,
    )
}

async fn create_review(
    State(state): State<SharedState>,
    base: BaseUrl,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::Create).await?;
            let params = write_params(&state, &headers, query.as_deref(), body).await?;
            refuse_unknown(
                &params.0,
                &[
                    "product_id",
                    "review",
                    "reviewer",
                    "reviewer_email",
                    "rating",
                    "status",
                    "parent",
                ],
            )?;
            if params.get("id").is_some() {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "woocommerce_rest_review_exists",
                    "Cannot create existing product review.",
                ));
            }
            let missing: Vec<&str> = ["product_id", "review", "reviewer", "reviewer_email"]
                .into_iter()
                .filter(|name| params.get(name).is_none())
                .collect();
            if !missing.is_empty() {
                return Err(ApiError::missing_param(&missing.join(", "))
                    .with_data("params", json!(missing)));
            }
            let product = params
                .int("product_id")?
                .filter(|id| *id > 0)
                .map(ProductId)
                .ok_or_else(service::unknown_product)?;
            let post = StaffPost {
                product,
                parent: super::api::parent_field(&params, "parent")?,
                text: params.string("review")?.unwrap_or_default(),
                reviewer: params.string("reviewer")?.unwrap_or_default(),
                reviewer_email: params.string("reviewer_email")?.unwrap_or_default(),
                rating: rating_param(&params)?.flatten(),
                status: status_param(&params, false)?.unwrap_or(ReviewStatus::Approved),
                now: rules::clock::now(),
            };
            let review = service::staff_create(&state, &post).await?;
            let mut res = json_value(StatusCode::CREATED, &render(&state, &base, &review, true));
            if let Ok(location) = HeaderValue::from_str(&format!(
                "{}{}/products/reviews/{}",
                base.as_str(),
                crate::http::STAFF_API_ROOT,
                review.id
            )) {
                res.headers_mut().insert("location", location);
            }
            Ok(res)
        }
        .await,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staff_listing_is_parsed_and_checked() {
        let q = ListQuery::parse(Some(
            "status=hold&product=15,17&per_page=5&page=3&order=asc",
        ))
        .unwrap();
        assert_eq!(q.filter.statuses, vec![ReviewStatus::Hold]);
        assert_eq!(q.filter.products, vec![ProductId(15), ProductId(17)]);
        assert_eq!((q.per_page, q.offset, q.descending), (5, 10, false));
        assert!(ListQuery::parse(Some("status=any"))
            .unwrap()
            .filter
            .statuses
            .is_empty());
        assert_eq!(
            ListQuery::parse(None).unwrap().filter.statuses,
            vec![ReviewStatus::Approved]
        );
        for raw in [
            "status=gone",
            "per_page=0",
            "product=x",
            "colour=red",
            "orderby=title",
        ] {
            let err = ListQuery::parse(Some(raw)).err().unwrap();
            assert_eq!(err.code, "rest_invalid_param", "{raw}");
        }
    }
}
