//! The platform's user call as the storefront's scripts use it: `/wp-json/wp/v2/users/me`
//! (or the signed-in account's id) read, and its `woocommerce_meta` settings written,
//! such as `coming_soon_banner_dismissed` when staff dismiss the coming-soon banner.
//! Cookie sign-in counts only with the `X-WP-Nonce` header (the `wp_rest` nonce),
//! as on the platform: without it the caller is nobody. Writes come by POST, PUT or
//! PATCH (the platform's script helper sends PUT as POST with
//! `X-HTTP-Method-Override`, which the router honours).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::StoreCtx;
use crate::state::{AppState, SharedState};
use rules::customers::CustomerId;

pub use crate::http::store_api::{WP_NONCE_HEADER, WP_REST_NONCE};

/// The account settings the storefront may write, each with the values it takes.
const META_KEYS: [(&str, &[&str]); 1] = [("coming_soon_banner_dismissed", &["yes", "no"])];

pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/users/{id}", read_user)
        .post("/users/{id}", write_user)
        .put("/users/{id}", write_user)
        .patch("/users/{id}", write_user)
}

fn not_logged_in() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "rest_not_logged_in",
        "You are not currently logged in.",
    )
}

/// The signed-in account the request speaks for, by the platform's rules: a login
/// cookie counts only with this session's `wp_rest` nonce beside it.
fn caller(state: &AppState, ctx: &StoreCtx, headers: &HeaderMap) -> Result<CustomerId, ApiError> {
    let given = headers
        .get(WP_NONCE_HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty());
    match given {
        None => Err(not_logged_in()),
        Some(_) if !ctx.nonce_matches(state, WP_REST_NONCE, given) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "rest_cookie_invalid_nonce",
            "Cookie check failed",
        )),
        Some(_) if ctx.session.user_id <= 0 => Err(not_logged_in()),
        Some(_) => Ok(CustomerId(ctx.session.user_id)),
    }
}

/// `me`, or the caller's own id; anyone else's account is not theirs to see or edit.
fn own_account(id: &str, caller: CustomerId, editing: bool) -> Result<(), ApiError> {
    if id == "me" || id.parse::<i64>().ok() == Some(caller.0) {
        return Ok(());
    }
    let unknown = id.parse::<i64>().map_or(true, |n| n <= 0);
    Err(if unknown {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "rest_user_invalid_id",
            "Invalid user ID.",
        )
    } else if editing {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "rest_cannot_edit",
            "Sorry, you are not allowed to edit this user.",
        )
    } else {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "rest_user_cannot_view",
            "Sorry, you are not allowed to list users.",
        )
    })
}

async fn user_view(state: &AppState, id: CustomerId) -> Result<Value, ApiError> {
    let customer = store::customers::find_customer(&state.db, id)
        .await?
        .ok_or_else(not_logged_in)?;
    let stored = store::customers::meta(&state.db, id).await?;
    let meta: Map<String, Value> = META_KEYS
        .iter()
        .map(|(key, _)| {
            let value = stored
                .iter()
                .find(|(k, _)| k == key)
                .map_or("", |(_, v)| v.as_str());
            ((*key).to_string(), json!(value))
        })
        .collect();
    Ok(json!({
        "id": id.0,
        "name": customer.display_name,
        "woocommerce_meta": meta,
    }))
}

async fn read_user(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
    headers: HeaderMap,
) -> Response {
    let res = match caller(&state, &ctx, &headers) {
        Err(e) => e.into_response(),
        Ok(who) => match own_account(&id, who, false) {
            Err(e) => e.into_response(),
            Ok(()) => match user_view(&state, who).await {
                Ok(view) => json_value(StatusCode::OK, &view),
                Err(e) => e.into_response(),
            },
        },
    };
    ctx.finish(&state, res)
}

/// The settings a body asks to write, checked: only `woocommerce_meta`, only its known
/// keys, each with one of the values it takes.
fn meta_changes(params: &Params) -> Result<Vec<(String, String)>, ApiError> {
    if let Some(field) = params.0.keys().find(|k| k.as_str() != "woocommerce_meta") {
        return Err(ApiError::invalid_param(
            field,
            format!("{field} cannot be changed here."),
            "rest_invalid_param",
        ));
    }
    let Some(meta) = params.get("woocommerce_meta") else {
        return Ok(Vec::new());
    };
    let Value::Object(meta) = meta else {
        return Err(ApiError::invalid_param(
            "woocommerce_meta",
            "woocommerce_meta is not of type object.",
            "rest_invalid_type",
        ));
    };
    meta.iter()
        .map(|(key, value)| {
            let allowed = META_KEYS
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, values)| *values)
                .ok_or_else(|| {
                    ApiError::invalid_param(
                        "woocommerce_meta",
                        format!("woocommerce_meta[{key}] is not a known setting."),
                        "rest_invalid_param",
                    )
                })?;
            match value.as_str() {
                Some(v) if allowed.contains(&v) => Ok((key.clone(), v.to_string())),
                _ => Err(ApiError::invalid_param(
                    "woocommerce_meta",
                    format!(
                        "woocommerce_meta[{key}] is not one of {}.",
                        allowed.join(", ")
                    ),
                    "rest_invalid_param",
                )),
            }
        })
        .collect()
}

async fn write_user(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
    req: Request,
) -> Response {
    let (parts, body): (_, Body) = req.into_parts();
    let res = async {
        let who = caller(&state, &ctx, &parts.headers)?;
        own_account(&id, who, true)?;
        let params = Params::read(&parts.headers, body, state.config.max_body_bytes).await?;
        let changes = meta_changes(&params)?;
        if !changes.is_empty() {
            store::customers::set_meta(&state.db, who, &changes).await?;
        }
        Ok::<_, ApiError>(json_value(StatusCode::OK, &user_view(&state, who).await?))
    }
    .await
    .unwrap_or_else(IntoResponse::into_response);
    ctx.finish(&state, res)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(body: Value) -> Params {
        Params(body.as_object().unwrap().clone())
    }

    #[test]
    fn only_known_settings_with_their_values_are_written() {
        let ok = meta_changes(&params(
            json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "yes"}}),
        ))
        .unwrap();
        assert_eq!(
            ok,
            vec![(
                "coming_soon_banner_dismissed".to_string(),
                "yes".to_string()
            )]
        );
        for bad in [
            json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "maybe"}}),
            json!({"woocommerce_meta": {"coming_soon_banner_dismissed": true}}),
            json!({"woocommerce_meta": {"anything_else": "yes"}}),
            json!({"woocommerce_meta": "yes"}),
            json!({"password": "hunter2"}),
            json!({"roles": ["administrator"]}),
        ] {
            let e = meta_changes(&params(bad.clone())).unwrap_err();
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{bad}");
        }
        assert!(meta_changes(&params(json!({}))).unwrap().is_empty());
    }

    #[test]
    fn an_account_is_only_its_own_to_see_and_edit() {
        let me = CustomerId(7);
        assert!(own_account("me", me, true).is_ok());
        assert!(own_account("7", me, true).is_ok());
        assert_eq!(
            own_account("8", me, true).unwrap_err().status,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            own_account("8", me, false).unwrap_err().status,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            own_account("x", me, true).unwrap_err().status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            own_account("-1", me, true).unwrap_err().status,
            StatusCode::NOT_FOUND
        );
    }
}
