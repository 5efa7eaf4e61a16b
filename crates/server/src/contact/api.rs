//! The calls a page with a contact form makes: the form as the storefront draws it,
//! its validation schema, its refill, and sending it (`submit`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use super::{form_id, load, quiz_refill};
use crate::customers::wp_users::WP_REST_NONCE;
use crate::http::json::json_value;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::StoreCtx;
use crate::state::SharedState;
use rules::contact::form::{schema, PLUGIN_VERSION};

/// The locale forms are written in.
pub const LOCALE: &str = "en_US";

/// Under the original plugin's root.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/contact-forms/{id}/feedback/schema", get_schema)
        .get("/contact-forms/{id}/refill", get_refill)
        .post("/contact-forms/{id}/feedback", super::submit::feedback)
}

/// Under the shop's own root.
pub fn shop_routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new().get("/contact-forms/{id}", get_form)
}

/// The schema the browser checks a form against before sending it.
async fn get_schema(State(state): State<SharedState>, PathText(id): PathText) -> Response {
    let result = async {
        let form = load(&state, form_id(&id)?).await?;
        Ok::<_, crate::error::ApiError>(json_value(
            StatusCode::OK,
            &schema(&form.definition, LOCALE),
        ))
    }
    .await;
    result.unwrap_or_else(IntoResponse::into_response)
}

/// What a form needs again after it was sent or reset: a fresh quiz question.
async fn get_refill(State(state): State<SharedState>, PathText(id): PathText) -> Response {
    let result = async {
        let form = load(&state, form_id(&id)?).await?;
        let quiz = quiz_refill(&state, &form.definition);
        let mut body = Map::new();
        if !quiz.is_empty() {
            body.insert("quiz".into(), Value::Object(quiz));
        }
        let mut res = json_value(StatusCode::OK, &body);
        res.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-store"),
        );
        Ok::<_, crate::error::ApiError>(res)
    }
    .await;
    result.unwrap_or_else(IntoResponse::into_response)
}

/// The form as the storefront draws it: its fields (never a quiz's answers, nor the
/// mail templates), a quiz question for this visit, the honeypot's name and this
/// session's nonce for sending it.
async fn get_form(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
) -> Response {
    let result = async {
        let form = load(&state, form_id(&id)?).await?;
        let def = &form.definition;
        let fields: Vec<Value> = def
            .fields
            .iter()
            .map(|field| {
                let mut v = serde_json::to_value(field).unwrap_or(Value::Null);
                if let Some(o) = v.as_object_mut() {
                    o.remove("questions");
                }
                v
            })
            .collect();
        let quiz = quiz_refill(&state, def);
        let body = json!({
            "id": form.id,
            "title": form.title,
            "locale": LOCALE,
            "version": PLUGIN_VERSION,
            "fields": fields,
            "quiz": quiz,
            "honeypot": def.honeypot,
            "nonce": ctx.nonce(&state, WP_REST_NONCE),
        });
        Ok::<_, crate::error::ApiError>(json_value(StatusCode::OK, &body))
    }
    .await;
    ctx.answer(&state, result)
}
