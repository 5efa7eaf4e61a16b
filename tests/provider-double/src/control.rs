//! The control calls a test makes (never the shop): webhook endpoints, a reset, the
//! moves that settle an intent (succeed, process, fail, expire) and the list of every
//! event sent. None needs a key.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State as AppState};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::Response;
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use serde_json::json;

use crate::api::respond;
use crate::error::{Answer, ApiError};
use crate::form::Params;
use crate::intents::{self, Failure};
use crate::objects::{Expand, Flow, Status};
use crate::setup_intents;
use crate::state::{App, State};
use crate::{forwarding, webhooks};

/// `POST /_config/webhooks/{name}` with `url` and `secret`: every event from now on is
/// delivered to `url`, signed with `secret`. With an upstream, the same registration
/// is passed on to it, so its events reach the same endpoint.
pub(crate) async fn register_webhook(
    AppState(app): AppState<Arc<App>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let registered = async {
        let params = Params::read(None, &body)?;
        let url = params
            .str(&["url"])
            .ok_or_else(|| ApiError::missing("url"))?;
        let secret = params
            .str(&["secret"])
            .ok_or_else(|| ApiError::missing("secret"))?;
        webhooks::register(&mut app.lock(), &app.http, &name, url, secret)?;
        if app.upstream.is_some() {
            let path = format!(
                "/_config/webhooks/{}",
                utf8_percent_encode(&name, NON_ALPHANUMERIC)
            );
            forwarding::pass_on(
                &app,
                &Method::POST,
                &path,
                headers.get(header::CONTENT_TYPE),
                body.clone(),
            )
            .await?;
        }
        Ok::<_, ApiError>(json!({ "name": name, "url": url }))
    };
    answer(registered.await)
}

/// `DELETE /_config/data`: every object and event forgotten (webhook endpoints stay),
/// here and at the upstream.
pub(crate) async fn reset(AppState(app): AppState<Arc<App>>) -> Response {
    app.lock().reset();
    if app.upstream.is_some() {
        if let Err(error) =
            forwarding::pass_on(&app, &Method::DELETE, "/_config/data", None, Bytes::new()).await
        {
            return answer(Err(error));
        }
    }
    answer(Ok(json!({ "deleted": true })))
}

/// `GET /_double/events`: every event sent, oldest first.
pub(crate) async fn events(AppState(app): AppState<Arc<App>>) -> Response {
    let events = app.lock().events.clone();
    answer(Ok(json!({
        "object": "list",
        "data": events,
        "has_more": false,
        "url": "/_double/events",
    })))
}

/// `POST /_double/payment_intents/{id}/{action}` (and `/_double/setup_intents/…`):
/// `succeed`, `process`, `fail` (optional `code` and `message`) or `expire`.
pub(crate) async fn move_intent(
    AppState(app): AppState<Arc<App>>,
    Path((id, action)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    let moved = Params::read(None, &body).and_then(|params| {
        let mut state = app.lock();
        if state.setup_intents.contains_key(&id) {
            move_setup(&mut state, &id, &action, &params)
        } else {
            move_payment(&mut state, &id, &action, &params)
        }
    });
    answer(moved)
}

fn move_payment(state: &mut State, id: &str, action: &str, params: &Params) -> Answer {
    let intent = intents::find(state, id)?;
    let status = intent.status;
    let is_card = intent
        .payment_method
        .as_ref()
        .and_then(|method| state.payment_methods.get(method))
        .is_some_and(|method| method.kind.flow == Flow::Card);
    use Status::*;
    match action {
        "succeed" => {
            allowed(
                action,
                "PaymentIntent",
                status,
                &[
                    RequiresConfirmation,
                    RequiresAction,
                    Processing,
                    RequiresCapture,
                ],
            )?;
            intents::succeed(state, id);
        }
        "process" => {
            allowed(
                action,
                "PaymentIntent",
                status,
                &[RequiresConfirmation, RequiresAction],
            )?;
            intents::process(state, id);
        }
        "fail" => {
            allowed(
                action,
                "PaymentIntent",
                status,
                &[RequiresConfirmation, RequiresAction, Processing],
            )?;
            let default = if status == Processing {
                Failure::attempt_failed()
            } else {
                Failure::authentication(false)
            };
            intents::fail(state, id, &failure(default, params, is_card));
        }
        "expire" => {
            allowed(action, "PaymentIntent", status, &[RequiresAction])?;
            intents::fail(state, id, &Failure::expired());
        }
        _ => return Err(unknown_action(action)),
    }
    Ok(intents::to_json(state, id, &Expand::default()))
}

fn move_setup(state: &mut State, id: &str, action: &str, params: &Params) -> Answer {
    let status = setup_intents::find(state, id)?.status;
    use Status::*;
    match action {
        "succeed" => {
            allowed(
                action,
                "SetupIntent",
                status,
                &[RequiresConfirmation, RequiresAction, Processing],
            )?;
            setup_intents::succeed(state, id);
        }
        "process" => {
            allowed(
                action,
                "SetupIntent",
                status,
                &[RequiresConfirmation, RequiresAction],
            )?;
            setup_intents::process(state, id);
        }
        "fail" => {
            allowed(
                action,
                "SetupIntent",
                status,
                &[RequiresConfirmation, RequiresAction, Processing],
            )?;
            setup_intents::fail(
                state,
                id,
                &failure(Failure::authentication(true), params, false),
            );
        }
        "expire" => {
            return Err(ApiError::invalid(
                "Only a PaymentIntent's payment attempt expires; use fail for a SetupIntent.",
            ))
        }
        _ => return Err(unknown_action(action)),
    }
    Ok(setup_intents::to_json(state, id, &Expand::default()))
}

/// The failure asked for (`code`, `message`), else the default.
fn failure(default: Failure, params: &Params, is_card: bool) -> Failure {
    let message = params.string(&["message"]);
    match params.string(&["code"]) {
        None => Failure {
            message: message.unwrap_or(default.message.clone()),
            ..default
        },
        Some(code) => Failure {
            kind: if is_card || code == "card_declined" {
                "card_error"
            } else {
                default.kind
            },
            message: message.unwrap_or_else(|| format!("The test payment failed ({code}).")),
            decline_code: None,
            code,
        },
    }
}

fn allowed(action: &str, object: &str, status: Status, from: &[Status]) -> Result<(), ApiError> {
    if from.contains(&status) {
        return Ok(());
    }
    let code = if object == "SetupIntent" {
        "setup_intent_unexpected_state"
    } else {
        "payment_intent_unexpected_state"
    };
    let from: Vec<&str> = from.iter().map(|status| status.as_str()).collect();
    Err(ApiError::unexpected_state(
        code,
        format!(
            "The test double cannot {action} a {object} whose status is {}; it can from {}.",
            status.as_str(),
            from.join(", ")
        ),
    ))
}

fn unknown_action(action: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "invalid_request_error",
        format!("Unknown control action {action:?}: succeed, process, fail or expire."),
    )
}

fn answer(answer: Answer) -> Response {
    match answer {
        Ok(body) => respond(StatusCode::OK, &body, false),
        Err(error) => respond(error.status, &error.body(), false),
    }
}
