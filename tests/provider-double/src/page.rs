//! The authorisation page a redirect (or voucher, QR code, BLIK, microdeposit) method
//! sends the shopper to: a small accessible page with two real form buttons,
//! "Authorize test payment" and "Fail test payment". Posting one moves the intent and
//! sends the shopper back to the intent's `return_url` with `payment_intent`,
//! `payment_intent_client_secret` and `redirect_status` (or the `setup_intent` ones),
//! as the provider does. Everything shown is escaped.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State as AppState};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::Value;

use crate::actions::{QR_PNG, QR_SVG};
use crate::form;
use crate::intents::{self, Failure};
use crate::objects::{Flow, MethodType, Status};
use crate::setup_intents;
use crate::state::{App, State};

/// What the page shows of an intent.
struct View {
    /// `iDEAL test payment of 12.00 EUR`, or `Set up iDEAL for later payments (test)`.
    heading: String,
    status: Status,
    /// Voucher numbers and the like, from `next_action`.
    details: Vec<(&'static str, String)>,
    return_url: Option<String>,
}

/// `GET /_double/authorize/{id}`.
pub(crate) async fn show(AppState(app): AppState<Arc<App>>, Path(id): Path<String>) -> Response {
    let view = view(&app.lock(), &id);
    match view {
        Some(view) if view.status == Status::RequiresAction => page(StatusCode::OK, &view, None),
        Some(view) => {
            let note = format!("This test payment is {}.", status_words(view.status));
            page(StatusCode::OK, &view, Some(&note))
        }
        None => not_found(&id),
    }
}

/// `POST /_double/authorize/{id}` with `outcome=authorize` or `outcome=fail`.
pub(crate) async fn decide(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let outcome = std::str::from_utf8(&body)
        .ok()
        .and_then(|body| form::parse(body).ok())
        .and_then(|fields| {
            fields
                .get("outcome")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    let authorize = match outcome.as_deref() {
        Some("authorize") => true,
        Some("fail") => false,
        _ => {
            return simple_page(
                StatusCode::BAD_REQUEST,
                "Unknown choice",
                "Choose Authorize test payment or Fail test payment.",
            )
        }
    };
    let mut state = app.lock();
    let Some(view) = view(&state, &id) else {
        return not_found(&id);
    };
    if view.status != Status::RequiresAction {
        let note = format!(
            "This test payment is {} already: there is nothing to authorize.",
            status_words(view.status)
        );
        return page(StatusCode::CONFLICT, &view, Some(&note));
    }
    let (names, client_secret, status) = if state.setup_intents.contains_key(&id) {
        decide_setup(&mut state, &id, authorize);
        let intent = &state.setup_intents[&id];
        (
            ("setup_intent", "setup_intent_client_secret"),
            intent.client_secret.clone(),
            intent.status,
        )
    } else {
        decide_payment(&mut state, &id, authorize);
        let intent = &state.payment_intents[&id];
        (
            ("payment_intent", "payment_intent_client_secret"),
            intent.client_secret.clone(),
            intent.status,
        )
    };
    let redirect_status = match status {
        Status::Succeeded | Status::RequiresCapture => "succeeded",
        Status::Processing => "processing",
        _ => "failed",
    };
    let view = View { status, ..view };
    drop(state);
    let back = view.return_url.as_deref().map(|url| {
        with_query(
            url,
            &[
                (names.0, &id),
                (names.1, &client_secret),
                ("redirect_status", redirect_status),
            ],
        )
    });
    match back.and_then(|url| HeaderValue::from_str(&url).ok()) {
        Some(location) => (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response(),
        None => {
            let note = format!("This test payment is now {}.", status_words(status));
            page(StatusCode::OK, &view, Some(&note))
        }
    }
}

/// `GET /_double/qr/{id}.png` (or `.svg`): the "QR code" of a WeChat Pay or Cash App
/// intent.
pub(crate) async fn qr(Path(file): Path<String>) -> Response {
    if file.ends_with(".svg") {
        ([(header::CONTENT_TYPE, "image/svg+xml")], QR_SVG).into_response()
    } else {
        ([(header::CONTENT_TYPE, "image/png")], QR_PNG).into_response()
    }
}

fn decide_payment(state: &mut State, id: &str, authorize: bool) {
    if !authorize {
        intents::fail(state, id, &Failure::authentication(false));
        return;
    }
    let method = state.payment_intents[id]
        .payment_method
        .clone()
        .and_then(|method| state.payment_methods.get_mut(&method));
    let settles_later = match method {
        Some(method) if method.kind.flow == Flow::UsBankAccount => {
            // The microdeposits are verified: the debit goes ahead.
            method.needs_microdeposits = false;
            true
        }
        Some(method) => method.kind.name == "sofort",
        None => false,
    };
    if settles_later {
        intents::process(state, id);
    } else {
        intents::succeed(state, id);
    }
}

fn decide_setup(state: &mut State, id: &str, authorize: bool) {
    if authorize {
        setup_intents::succeed(state, id);
    } else {
        setup_intents::fail(state, id, &Failure::authentication(true));
    }
}

fn view(state: &State, id: &str) -> Option<View> {
    let method_kind = |method: &Option<String>| -> Option<&'static MethodType> {
        method
            .as_ref()
            .and_then(|method| state.payment_methods.get(method))
            .map(|method| method.kind)
    };
    if let Some(intent) = state.payment_intents.get(id) {
        let label = method_kind(&intent.payment_method).map_or("Test", |kind| kind.label);
        return Some(View {
            heading: format!(
                "{label} test payment of {}",
                format_amount(intent.amount, &intent.currency)
            ),
            status: intent.status,
            details: details(intent.next_action.as_ref()),
            return_url: intent.return_url.clone(),
        });
    }
    let intent = state.setup_intents.get(id)?;
    let label = method_kind(&intent.payment_method).map_or("a payment method", |kind| kind.label);
    Some(View {
        heading: format!("Set up {label} for later payments (test)"),
        status: intent.status,
        details: details(intent.next_action.as_ref()),
        return_url: intent.return_url.clone(),
    })
}

/// What a voucher or an instruction shows.
fn details(next_action: Option<&Value>) -> Vec<(&'static str, String)> {
    let Some(action) = next_action else {
        return Vec::new();
    };
    let kind = action["type"].as_str().unwrap_or_default();
    let inner = &action[kind];
    [
        ("Voucher number", "number"),
        ("Entity", "entity"),
        ("Reference", "reference"),
    ]
    .into_iter()
    .filter_map(|(label, key)| inner[key].as_str().map(|value| (label, value.to_owned())))
    .collect()
}

fn status_words(status: Status) -> &'static str {
    match status {
        Status::Succeeded => "paid",
        Status::RequiresCapture => "authorized, waiting for capture",
        Status::Processing => "processing",
        Status::Canceled => "canceled",
        Status::RequiresPaymentMethod => "failed (it needs another payment method)",
        Status::RequiresConfirmation => "not confirmed yet",
        Status::RequiresAction => "waiting for the shopper",
    }
}

fn page(status: StatusCode, view: &View, note: Option<&str>) -> Response {
    let mut body = format!("<h1>{}</h1>\n", escape(&view.heading));
    body.push_str(
        "<p>This page stands in for the payment method's own page. It belongs to the payment \
         provider's test double: no money moves.</p>\n",
    );
    if !view.details.is_empty() {
        body.push_str("<dl>\n");
        for (label, value) in &view.details {
            body.push_str(&format!(
                "<dt>{}</dt><dd>{}</dd>\n",
                escape(label),
                escape(value)
            ));
        }
        body.push_str("</dl>\n");
    }
    match note {
        Some(note) => {
            body.push_str(&format!("<p role=\"status\">{}</p>\n", escape(note)));
            let linkable =
                |url: &&String| url.starts_with("http://") || url.starts_with("https://");
            if let Some(url) = view.return_url.as_ref().filter(linkable) {
                body.push_str(&format!(
                    "<p><a href=\"{}\">Back to the shop</a></p>\n",
                    escape(url)
                ));
            }
        }
        None => {
            body.push_str(
                "<p>Choose how the test payment ends.</p>\n\
                 <form method=\"post\"><input type=\"hidden\" name=\"outcome\" value=\"authorize\">\
                 <button type=\"submit\">Authorize test payment</button></form>\n\
                 <form method=\"post\"><input type=\"hidden\" name=\"outcome\" value=\"fail\">\
                 <button type=\"submit\">Fail test payment</button></form>\n",
            );
        }
    }
    document(status, &view.heading, &body)
}

fn not_found(id: &str) -> Response {
    simple_page(
        StatusCode::NOT_FOUND,
        "No such test payment",
        &format!("The payment provider's test double has no intent {id}."),
    )
}

fn simple_page(status: StatusCode, heading: &str, text: &str) -> Response {
    let body = format!("<h1>{}</h1>\n<p>{}</p>\n", escape(heading), escape(text));
    document(status, heading, &body)
}

fn document(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} – payment provider test double</title>\n\
         <style>body{{font-family:system-ui,sans-serif;line-height:1.5;max-width:36rem;margin:2rem auto;padding:0 1rem}}\
         form{{display:inline-block;margin:0 .5rem .5rem 0}}button{{font:inherit;padding:.5rem 1rem}}\
         dt{{font-weight:bold}}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n",
        escape(title)
    );
    (status, Html(html)).into_response()
}

/// Text safe inside HTML elements and quoted attributes.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// `1200` `eur` → `12.00 EUR`; zero- and three-decimal currencies too.
fn format_amount(amount: i64, currency: &str) -> String {
    const ZERO_DECIMAL: [&str; 16] = [
        "bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv",
        "xaf", "xof", "xpf",
    ];
    const THREE_DECIMAL: [&str; 5] = ["bhd", "jod", "kwd", "omr", "tnd"];
    let code = currency.to_ascii_uppercase();
    let decimals = if ZERO_DECIMAL.contains(&currency) {
        0
    } else if THREE_DECIMAL.contains(&currency) {
        3
    } else {
        2
    };
    if decimals == 0 {
        return format!("{amount} {code}");
    }
    let unit = 10i64.pow(decimals);
    format!(
        "{}.{:0width$} {code}",
        amount / unit,
        amount % unit,
        width = decimals as usize
    )
}

/// Everything but RFC 3986's unreserved characters is percent-encoded.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `url` with the pairs added to its query (before any fragment).
fn with_query(url: &str, pairs: &[(&str, &str)]) -> String {
    let (base, fragment) = match url.split_once('#') {
        Some((base, fragment)) => (base, Some(fragment)),
        None => (url, None),
    };
    let mut out = base.to_owned();
    if !base.contains('?') {
        out.push('?');
    } else if !(base.ends_with('?') || base.ends_with('&')) {
        out.push('&');
    }
    let encoded: Vec<String> = pairs
        .iter()
        .map(|(key, value)| {
            format!(
                "{}={}",
                utf8_percent_encode(key, QUERY_VALUE),
                utf8_percent_encode(value, QUERY_VALUE)
            )
        })
        .collect();
    out.push_str(&encoded.join("&"));
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape(r#"<a href="x">O'Neil & co</a>"#),
            "&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; co&lt;/a&gt;"
        );
    }

    #[test]
    fn amounts_read_in_major_units() {
        assert_eq!(format_amount(1200, "eur"), "12.00 EUR");
        assert_eq!(format_amount(5, "usd"), "0.05 USD");
        assert_eq!(format_amount(500, "jpy"), "500 JPY");
        assert_eq!(format_amount(1234, "kwd"), "1.234 KWD");
    }

    #[test]
    fn the_return_url_keeps_its_query_and_fragment() {
        let pairs = [("payment_intent", "pi_1"), ("redirect_status", "succeeded")];
        assert_eq!(
            with_query("http://127.0.0.1:1/back?order=2#top", &pairs),
            "http://127.0.0.1:1/back?order=2&payment_intent=pi_1&redirect_status=succeeded#top"
        );
        assert_eq!(
            with_query("http://127.0.0.1:1/back", &pairs[..1]),
            "http://127.0.0.1:1/back?payment_intent=pi_1"
        );
    }
}
