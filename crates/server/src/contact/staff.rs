//! The staff's contact-form calls, with the staff API's key (HTTP Basic), under the
//! original plugin's root: the forms (`GET contact-forms`, the original's list), a
//! new form (`POST contact-forms` with `title` and a `definition`), and what visitors
//! sent through one (`GET contact-forms/{id}/submissions`, newest first, paged by
//! `before`, and `DELETE contact-forms/{id}/submissions/{sid}`).

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

use super::api::LOCALE;
use super::{form_id, not_found};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::staff::api::{answer, query_params};
use crate::staff::auth::{authorize, Access};
use crate::state::SharedState;
use rules::contact::form::FormDefinition;

/// Under the original plugin's root.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/contact-forms", list_forms)
        .post("/contact-forms", create_form)
        .get("/contact-forms/{id}/submissions", list_submissions)
        .delete(
            "/contact-forms/{id}/submissions/{submission}",
            delete_submission,
        )
}

const PER_PAGE_MAX: i64 = 100;

async fn list_forms(State(state): State<SharedState>, headers: HeaderMap) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::List).await?;
            let forms = store::contact::forms(&state.db).await?;
            let list: Vec<Value> = forms
                .iter()
                .map(|f| json!({"id": f.id, "slug": format!("contact-form-{}", f.id), "title": f.title, "locale": LOCALE}))
                .collect();
            let mut res = json_value(StatusCode::OK, &list);
            res.headers_mut()
                .insert("x-wp-total", HeaderValue::from(list.len()));
            res.headers_mut().insert("x-wp-totalpages", HeaderValue::from(1));
            Ok(res)
        }
        .await,
    )
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "wpcf7_invalid_definition", message)
}

async fn create_form(
    State(state): State<SharedState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::Create).await?;
            let body: Value = serde_json::from_slice(&body).map_err(|_| ApiError::invalid_json())?;
            let title = body
                .get("title")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|t| !t.is_empty() && t.chars().count() <= 200)
                .ok_or_else(|| ApiError::missing_param("title"))?;
            let definition: FormDefinition = serde_json::from_value(
                body.get("definition").cloned().ok_or_else(|| ApiError::missing_param("definition"))?,
            )
            .map_err(|e| invalid(format!("The definition does not read: {e}")))?;
            definition
                .check()
                .map_err(|e| invalid(format!("The definition is not usable: {e}")))?;
            let stored = serde_json::to_string(&definition).map_err(|_| ApiError::internal())?;
            let id = store::contact::create_form(&state.db, title, &stored, rules::clock::now()).await?;
            Ok(json_value(
                StatusCode::CREATED,
                &json!({"id": id, "slug": format!("contact-form-{id}"), "title": title, "locale": LOCALE, "config_errors": []}),
            ))
        }
        .await,
    )
}

fn submission_json(s: &store::contact::Submission) -> Value {
    let inputs: Value = serde_json::from_str(&s.inputs).unwrap_or(Value::Array(Vec::new()));
    let files: Value = serde_json::from_str(&s.files).unwrap_or(Value::Array(Vec::new()));
    json!({
        "id": s.id,
        "form_id": s.form_id,
        "status": s.status,
        "inputs": inputs,
        "files": files,
        "posted_data_hash": s.posted_data_hash,
        "customer_id": s.customer_id.unwrap_or(0),
        "client_ip": s.client_ip,
        "date_created_gmt": rules::clock::iso_date(s.created_at),
    })
}

fn positive(
    params: &serde_json::Map<String, Value>,
    name: &str,
    max: Option<i64>,
) -> Result<Option<i64>, ApiError> {
    let Some(v) = params.get(name) else {
        return Ok(None);
    };
    let n = crate::http::params::as_int(v).filter(|n| *n >= 1 && max.is_none_or(|m| *n <= m));
    match n {
        Some(n) => Ok(Some(n)),
        None => Err(ApiError::invalid_param(
            name,
            match max {
                Some(m) => format!("{name} must be between 1 (inclusive) and {m} (inclusive)"),
                None => format!("{name} must be greater than or equal to 1"),
            },
            "rest_out_of_bounds",
        )),
    }
}

async fn list_submissions(
    State(state): State<SharedState>,
    headers: HeaderMap,
    PathText(id): PathText,
    RawQuery(query): RawQuery,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::List).await?;
            let id = form_id(&id)?;
            let params = query_params(query.as_deref())?;
            let per_page = positive(&params, "per_page", Some(PER_PAGE_MAX))?.unwrap_or(20);
            let before = positive(&params, "before", None)?;
            if store::contact::form(&state.db, id).await?.is_none() {
                return Err(not_found());
            }
            let (page, more) = store::contact::submissions(&state.db, id, before, per_page).await?;
            let list: Vec<Value> = page.iter().map(submission_json).collect();
            let mut res = json_value(StatusCode::OK, &list);
            if more {
                if let Some(last) = page.last() {
                    res.headers_mut()
                        .insert("x-ferroshop-next-before", HeaderValue::from(last.id));
                }
            }
            Ok(res)
        }
        .await,
    )
}

async fn delete_submission(
    State(state): State<SharedState>,
    headers: HeaderMap,
    Path((id, submission)): Path<(String, String)>,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::Edit).await?;
            let id = form_id(&id)?;
            let gone = || {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    "wpcf7_submission_not_found",
                    "There is no such submission.",
                )
            };
            let sid: i64 = submission
                .parse()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(gone)?;
            let found = store::contact::submission(&state.db, sid)
                .await?
                .filter(|s| s.form_id == id)
                .ok_or_else(gone)?;
            store::contact::delete_submission(&state.db, sid).await?;
            Ok(json_value(
                StatusCode::OK,
                &json!({"deleted": true, "previous": submission_json(&found)}),
            ))
        }
        .await,
    )
}
