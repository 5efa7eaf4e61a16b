//! The newsletter over HTTP, at the original plugin's addresses:
//! - signing up: `POST /wp-admin/admin-ajax.php?action=tnp&na=sa`, form data (`ne` the
//!   address, `nn` the name, `ny` the consent box, `nr` where the form is), answered
//!   with the text that takes the form's place. The client's count is taken before the
//!   body is read, the address's before anything is written, and the answer is the same
//!   whether or not the address was already on the list;
//! - the confirmation link `/?na=c&nk=TOKEN` and the unsubscribe link `/?na=u&nk=TOKEN`
//!   (also `List-Unsubscribe`): opening one shows a page whose button does it by POST,
//!   so a mail scanner that follows links changes nothing; a mail program's one-click
//!   unsubscription (RFC 8058) is that POST;
//! - staff: `GET /wp-json/wc/v3/newsletter/subscribers` (API key), the list by status.
//!
//! The rules (double opt-in, signed links) are `rules::newsletter`.

use axum::body::Body;
use axum::extract::{RawQuery, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::StoreCtx;
use crate::rate_limit::{self, Action};
use crate::staff::api::{answer, query_params};
use crate::staff::auth::{authorize, Access};
use crate::state::{AppState, SharedState};
use rules::html::escape;
use rules::newsletter::{self as list, Purpose};
use store::newsletter::SignedUp;

/// What the key the links are signed with is derived for.
const LINK_KEY: &str = "newsletter-links";
/// The most a sign-up's body may be.
const MAX_BODY: u64 = 16 * 1024;

pub const SIGNED_UP: &str =
    "Thank you! Please check your inbox: we have sent you an e-mail to confirm your subscription.";
const INVALID_EMAIL: &str = "Please enter a valid e-mail address.";
const NO_CONSENT: &str = "Please accept the privacy policy to subscribe.";

/// A newsletter address a request names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    SignUp,
    Confirm,
    Unsubscribe,
}

fn query_pairs(query: Option<&str>) -> Vec<(String, String)> {
    query
        .and_then(|q| serde_urlencoded::from_str(q).ok())
        .unwrap_or_default()
}

fn one<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The newsletter call `uri` names, if any.
pub fn call_of(uri: &Uri) -> Option<Call> {
    // Every request passes here: most are turned away without reading their query.
    if !uri.query().is_some_and(|q| q.contains("na=")) {
        return None;
    }
    let pairs = query_pairs(uri.query());
    let na = one(&pairs, "na")?;
    if uri.path() == "/wp-admin/admin-ajax.php" {
        return (one(&pairs, "action") == Some("tnp") && na == "sa").then_some(Call::SignUp);
    }
    if uri.path() != "/" {
        return None;
    }
    match na {
        "c" => Some(Call::Confirm),
        "u" => Some(Call::Unsubscribe),
        _ => None,
    }
}

pub async fn dispatch(state: &AppState, call: Call, parts: Parts, body: Body) -> Response {
    let ctx = match StoreCtx::from_parts(state, &parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let mut res = match (call, &parts.method) {
        (Call::SignUp, &Method::POST) => sign_up(state, &ctx, &parts.headers, body).await,
        (Call::SignUp, _) => with_allow(
            text(
                StatusCode::METHOD_NOT_ALLOWED,
                "Subscribing takes POST only.",
            ),
            "POST",
        ),
        (Call::Confirm | Call::Unsubscribe, &Method::GET | &Method::HEAD) => {
            link_page(state, &ctx, call, &parts.uri)
        }
        (Call::Confirm | Call::Unsubscribe, &Method::POST) => {
            follow_link(state, &ctx, call, &parts, body).await
        }
        _ => with_allow(
            text(
                StatusCode::METHOD_NOT_ALLOWED,
                "This address takes GET and POST only.",
            ),
            "GET, HEAD, POST",
        ),
    };
    ctx.keep_session(state, res.headers_mut());
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn with_allow(mut res: Response, allow: &'static str) -> Response {
    res.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    res
}

/// A short answer in HTML, as the sign-up form shows it in its place.
fn text(status: StatusCode, message: &str) -> Response {
    let mut res = Response::new(Body::from(format!("<p>{}</p>", escape(message))));
    *res.status_mut() = status;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    res
}

/// A body's fields, form-encoded or multipart, within `MAX_BODY`.
async fn read_fields(
    headers: &HeaderMap,
    body: Body,
) -> Result<Vec<(String, String)>, &'static str> {
    const UNREADABLE: &str = "The form could not be read.";
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if content_type
        .to_ascii_lowercase()
        .starts_with("multipart/form-data")
    {
        let boundary = multer::parse_boundary(&content_type).map_err(|_| UNREADABLE)?;
        let constraints =
            multer::Constraints::new().size_limit(multer::SizeLimit::new().whole_stream(MAX_BODY));
        let mut multipart =
            multer::Multipart::with_constraints(body.into_data_stream(), boundary, constraints);
        let mut fields = Vec::new();
        while let Some(field) = multipart.next_field().await.map_err(|_| UNREADABLE)? {
            let name = field.name().unwrap_or_default().to_string();
            let value = field.text().await.map_err(|_| UNREADABLE)?;
            fields.push((name, value));
            if fields.len() > 50 {
                return Err(UNREADABLE);
            }
        }
        return Ok(fields);
    }
    let bytes = axum::body::to_bytes(body, MAX_BODY as usize)
        .await
        .map_err(|_| UNREADABLE)?;
    serde_urlencoded::from_bytes(&bytes).map_err(|_| UNREADABLE)
}

fn link_key(state: &AppState) -> [u8; 32] {
    state.keys.derive(LINK_KEY)
}

fn link(ctx: &StoreCtx, na: &str, token: &str) -> String {
    ctx.base_url.link(&format!("/?na={na}&nk={token}"))
}

/// Where a form is, as the list keeps it: a short word, "form" when none is given.
fn source_of(raw: Option<&str>) -> String {
    let word: String = raw
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(32)
        .collect::<String>()
        .to_ascii_lowercase();
    if word.is_empty() {
        "form".into()
    } else {
        word
    }
}

async fn sign_up(state: &AppState, ctx: &StoreCtx, headers: &HeaderMap, body: Body) -> Response {
    let limited = |l: rate_limit::Limited| {
        let mut res = text(StatusCode::TOO_MANY_REQUESTS, &l.to_api().message);
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(l.retry_after_secs));
        res
    };
    let result = async {
        // Counted before the body is read.
        let client = rate_limit::limits(Action::Newsletter, None, ctx.client);
        if let Err(l) = rate_limit::attempt(&state.db, Action::Newsletter, &client, ctx.now).await?
        {
            return Ok(limited(l));
        }
        let fields = match read_fields(headers, body).await {
            Ok(f) => f,
            Err(message) => return Ok(text(StatusCode::BAD_REQUEST, message)),
        };
        if !ctx.form_nonce_ok(state, headers, one(&fields, "_wpnonce")) {
            return Ok(text(
                StatusCode::FORBIDDEN,
                "This form has expired. Please reload the page and try again.",
            ));
        }
        let Some(email) = one(&fields, "ne").and_then(list::normalize_email) else {
            return Ok(text(StatusCode::BAD_REQUEST, INVALID_EMAIL));
        };
        if !one(&fields, "ny").is_some_and(|v| !v.is_empty() && v != "0") {
            return Ok(text(StatusCode::BAD_REQUEST, NO_CONSENT));
        }
        // Counted per address before anything is written: no one can flood a mailbox.
        let address = rate_limit::limits(Action::Newsletter, Some(&email), None);
        if let Err(l) =
            rate_limit::attempt(&state.db, Action::Newsletter, &address, ctx.now).await?
        {
            return Ok(limited(l));
        }
        let name = list::normalize_name(one(&fields, "nn").unwrap_or_default());
        let client_ip = ctx.client.map(|ip| ip.to_string());
        let source = source_of(one(&fields, "nr"));
        let signed = store::newsletter::sign_up(
            &state.db,
            &store::newsletter::SignUp {
                email: &email,
                name: &name,
                source: &source,
                client_ip: client_ip.as_deref(),
                now: ctx.now,
            },
        )
        .await?;
        let id = match signed {
            SignedUp::New(id) | SignedUp::Again(id) => Some(id),
            SignedUp::AlreadyConfirmed(_) => None,
        };
        if let Some(id) = id {
            let key = link_key(state);
            let confirm = list::token(
                &key,
                Purpose::Confirm,
                id,
                &email,
                ctx.now + list::CONFIRM_TTL_SECS,
            );
            let leave = list::token(&key, Purpose::Unsubscribe, id, &email, 0);
            let (confirm_url, leave_url) = (link(ctx, "c", &confirm), link(ctx, "u", &leave));
            let mail_ctx = mail::MailContext::new(&state.config.shop_name, ctx.base_url.as_str());
            let rendered =
                mail::newsletter::confirmation(&mail_ctx, &name, &confirm_url, &leave_url);
            store::outbox::queue(
                &state.db,
                &store::outbox::NewMail {
                    kind: mail::newsletter::CONFIRM_SUBSCRIPTION,
                    recipient: &email,
                    subject: &rendered.subject,
                    html: &rendered.html,
                    text: &rendered.text,
                    list_unsubscribe: Some(&leave_url),
                    ..Default::default()
                },
                ctx.now,
            )
            .await?;
            mail::wake();
        }
        Ok::<_, store::StoreError>(text(StatusCode::OK, SIGNED_UP))
    }
    .await;
    result.unwrap_or_else(|e| {
        tracing::error!(error = %e, "a newsletter sign-up failed");
        text(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong. Please try again later.",
        )
    })
}

/// The subscriber a link names, when its token is good for `purpose` now.
async fn subscriber_of(
    state: &AppState,
    purpose: Purpose,
    token: &str,
    now: i64,
) -> Result<Option<store::newsletter::Subscriber>, store::StoreError> {
    let Some(id) = list::token_id(token) else {
        return Ok(None);
    };
    let Some(found) = store::newsletter::find(&state.db, id).await? else {
        return Ok(None);
    };
    let good = list::verify(&link_key(state), purpose, id, &found.email, token, now);
    Ok(good.then_some(found))
}

fn purpose_of(call: Call) -> Purpose {
    if call == Call::Confirm {
        Purpose::Confirm
    } else {
        Purpose::Unsubscribe
    }
}

const BAD_LINK: &str = "This link is not valid, or it has expired. Sign up again to get a new one.";

/// The page a link opens: what it will do, and a button that does it.
fn link_page(state: &AppState, ctx: &StoreCtx, call: Call, uri: &Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let token = one(&pairs, "nk").unwrap_or_default();
    let valid = list::token_id(token).is_some();
    let (title, message, button) = match call {
        Call::Confirm => (
            "Confirm your subscription",
            "One click and you will receive our newsletter.",
            "Confirm my subscription",
        ),
        _ => (
            "Unsubscribe",
            "You will no longer receive our newsletter.",
            "Unsubscribe",
        ),
    };
    if !valid {
        return page(state, ctx, StatusCode::BAD_REQUEST, title, BAD_LINK, None);
    }
    let action = format!(
        "/?na={}&nk={}",
        if call == Call::Confirm { "c" } else { "u" },
        token
    );
    page(
        state,
        ctx,
        StatusCode::OK,
        title,
        message,
        Some((&action, button)),
    )
}

async fn follow_link(
    state: &AppState,
    ctx: &StoreCtx,
    call: Call,
    parts: &Parts,
    body: Body,
) -> Response {
    let pairs = query_pairs(parts.uri.query());
    let token = one(&pairs, "nk").unwrap_or_default().to_string();
    // The body is the page's button or a mail program's `List-Unsubscribe=One-Click`.
    let _ = axum::body::to_bytes(body, 4096).await;
    let outcome = async {
        let Some(found) = subscriber_of(state, purpose_of(call), &token, ctx.now).await? else {
            return Ok::<_, store::StoreError>(None);
        };
        match call {
            Call::Confirm => store::newsletter::confirm(&state.db, found.id, ctx.now).await?,
            _ => store::newsletter::unsubscribe(&state.db, found.id, ctx.now).await?,
        };
        Ok(Some(found))
    }
    .await;
    match (call, outcome) {
        (_, Err(e)) => {
            tracing::error!(error = %e, "a newsletter link could not be followed");
            page(state, ctx, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try again later.", None)
        }
        (Call::Confirm, Ok(None)) => page(state, ctx, StatusCode::BAD_REQUEST, "Confirm your subscription", BAD_LINK, None),
        (_, Ok(None)) => page(state, ctx, StatusCode::BAD_REQUEST, "Unsubscribe", BAD_LINK, None),
        (Call::Confirm, Ok(Some(_))) => page(state, ctx, StatusCode::OK, "Subscription confirmed", "Thank you: you will receive our newsletter.", None),
        (_, Ok(Some(_))) => page(state, ctx, StatusCode::OK, "Unsubscribed", "You will no longer receive our newsletter. Changed your mind? Sign up again at any time.", None),
    }
}

/// A small page of the shop's own, for the links: its title, a message, and a button.
fn page(
    state: &AppState,
    ctx: &StoreCtx,
    status: StatusCode,
    title: &str,
    message: &str,
    form: Option<(&str, &str)>,
) -> Response {
    let shop = escape(&state.config.shop_name);
    let home = escape(&ctx.base_url.link("/"));
    let form = form
        .map(|(action, button)| {
            format!(
                "<form method=\"post\" action=\"{}\"><button type=\"submit\">{}</button></form>",
                escape(action),
                escape(button)
            )
        })
        .unwrap_or_default();
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\"><title>{title} – {shop}</title>\
<style>body{{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f6f4f0;color:#1c1b1a}}\
header{{background:#fff;border-bottom:1px solid #e4e0d8;padding:16px 24px}}header a{{color:#1c1b1a;font-weight:700;font-size:20px;text-decoration:none}}\
main{{max-width:560px;margin:48px auto;padding:32px 24px;background:#fff;border:1px solid #e4e0d8;border-radius:16px}}\
h1{{margin:0 0 12px;font-size:28px}}p{{line-height:1.5;margin:0}}form{{margin-top:24px}}\
button{{font:inherit;font-weight:700;color:#fff;background:#1c1b1a;border:0;border-radius:999px;padding:12px 24px;cursor:pointer}}\
button:focus-visible{{outline:3px solid #b5462a;outline-offset:2px}}@media (max-width:600px){{main{{margin:16px}}}}</style></head>\
<body><header><a href=\"{home}\">{shop}</a></header><main><h1>{title}</h1><p>{message}</p>{form}</main></body></html>",
        title = escape(title),
        message = escape(message),
    );
    let mut res = Response::new(Body::from(html));
    *res.status_mut() = status;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    res
}

/// Under the staff API's root.
pub fn staff_routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new().get("/newsletter/subscribers", list_subscribers)
}

async fn list_subscribers(
    State(state): State<SharedState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::List).await?;
            let params = query_params(query.as_deref())?;
            let status = match params.get("status").and_then(Value::as_str).unwrap_or("confirmed") {
                s @ ("pending" | "confirmed" | "unsubscribed") => s.to_string(),
                _ => {
                    return Err(ApiError::invalid_param(
                        "status",
                        "status is not one of pending, confirmed, unsubscribed.",
                        "rest_not_in_enum",
                    ))
                }
            };
            let int = |name: &str, min: i64, max: i64, default: i64| -> Result<i64, ApiError> {
                match params.get(name) {
                    None => Ok(default),
                    Some(v) => crate::http::params::as_int(v).filter(|n| (min..=max).contains(n)).ok_or_else(|| {
                        ApiError::invalid_param(name, format!("{name} must be between {min} (inclusive) and {max} (inclusive)"), "rest_out_of_bounds")
                    }),
                }
            };
            let per_page = int("per_page", 1, 1000, 100)?;
            let after = int("after", 0, i64::MAX, 0)?;
            let (list, more) = store::newsletter::page(&state.db, &status, after, per_page).await?;
            let body: Vec<Value> = list
                .iter()
                .map(|s| {
                    json!({
                        "id": s.id,
                        "email": s.email,
                        "name": s.name,
                        "status": s.status,
                        "source": s.source,
                        "consent_at_gmt": rules::clock::iso_date(s.consent_at),
                        "confirmed_at_gmt": s.confirmed_at.map(rules::clock::iso_date),
                        "unsubscribed_at_gmt": s.unsubscribed_at.map(rules::clock::iso_date),
                        "client_ip": s.client_ip,
                    })
                })
                .collect();
            let mut res = json_value(StatusCode::OK, &body);
            if more {
                if let Some(last) = list.last() {
                    res.headers_mut().insert("x-ferroshop-next-after", HeaderValue::from(last.id));
                }
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
    fn the_plugins_addresses_are_recognised_and_nothing_else() {
        let call = |u: &str| call_of(&u.parse::<Uri>().unwrap());
        assert_eq!(
            call("/wp-admin/admin-ajax.php?action=tnp&na=sa"),
            Some(Call::SignUp)
        );
        assert_eq!(
            call("/wp-admin/admin-ajax.php?na=sa&action=tnp"),
            Some(Call::SignUp)
        );
        assert_eq!(call("/wp-admin/admin-ajax.php?action=other&na=sa"), None);
        assert_eq!(call("/?na=c&nk=1-2-ab"), Some(Call::Confirm));
        assert_eq!(call("/?na=u&nk=1-0-ab"), Some(Call::Unsubscribe));
        assert_eq!(call("/shop/?na=c&nk=1"), None);
        assert_eq!(call("/?na=x"), None);
        assert_eq!(call("/"), None);
    }

    #[test]
    fn sources_are_short_plain_words() {
        assert_eq!(source_of(Some("Footer")), "footer");
        assert_eq!(source_of(Some("<script>checkout")), "scriptcheckout");
        assert_eq!(source_of(None), "form");
        assert_eq!(source_of(Some(&"a".repeat(100))).len(), 32);
    }
}
