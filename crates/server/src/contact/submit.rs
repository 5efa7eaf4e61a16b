//! Sending a contact form: `POST contact-forms/{id}/feedback`, multipart, as the
//! original plugin takes it. In order, cheapest first:
//! - the media type (415), the form (404) and the client's rate limit (429), before a
//!   byte of the body is read;
//! - the body, read under limits: a declared length past the form's most is refused
//!   at once (413), parts are counted, text is capped, and a file is kept only for a
//!   file field and only up to that field's limit (past it, its size is still known
//!   and the field fails its size rule); few bodies are read at once, so uploads
//!   cannot exhaust memory;
//! - this session's nonce, `wp_rest` or the Store API's (from the page's `_wpnonce`
//!   field, `X-WP-Nonce` or `Nonce`)
//!   and the unit tag (400);
//! - the verdict (`validation_failed`, `acceptance_missing`, `spam`), then the mail to
//!   the shop (and the auto-reply) queued in the transaction that keeps the submission.
//!   `mail_sent` means the mail is safely in the outbox; `mail_failed` only that it
//!   could not be put there.

use std::sync::LazyLock;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};
use tokio::sync::Semaphore;

use super::{form_id, load, quiz_refill, quiz_secret, LoadedForm};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::path::PathText;
use crate::http::store_api::StoreCtx;
use crate::rate_limit::{self, Action};
use crate::state::{AppState, SharedState};
use rules::contact::form::{
    compose, posted_data_hash, posted_inputs, verdict, FieldKind, FormDefinition, Specials,
    Verdict, FILE_LIMIT,
};
use rules::contact::{FormData, UploadedFile};
use store::outbox::Attachment;

/// The field of the form that carries the session's nonce.
pub const NONCE_FIELD: &str = "_wpnonce";
/// The field naming the form on the page (`wpcf7-f{id}-p{post}-o{n}`).
pub const UNIT_TAG_FIELD: &str = "_wpcf7_unit_tag";

/// The most parts a body may have.
const MAX_PARTS: usize = 200;
/// The most characters of one text part, and of all of them together.
const MAX_TEXT_PART: usize = 64 * 1024;
const MAX_TEXT_TOTAL: usize = 256 * 1024;
/// The most files one form takes, all fields together.
const MAX_FILES: usize = 20;
/// However large a form's file limits, no body is read past this.
const MAX_BODY: u64 = 16 * 1024 * 1024;
/// Bodies read at once on this instance; the rest wait their turn a little.
static READING: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(4));
const READ_WAIT: Duration = Duration::from_secs(10);

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "wpcf7_payload_too_large",
        "The submission is larger than this form takes.",
    )
}

fn unreadable(detail: impl std::fmt::Display) -> ApiError {
    tracing::debug!(%detail, "a contact form body did not read");
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "wpcf7_invalid_payload",
        "The submission could not be read as form data.",
    )
}

/// The most a body for `def` may be: its text, plus each file field's limit.
fn body_limit(def: &FormDefinition) -> u64 {
    let files: u64 = def
        .fields
        .iter()
        .filter(|f| f.kind == FieldKind::File)
        .map(|f| f.limit.unwrap_or(FILE_LIMIT) + 4096)
        .sum();
    (MAX_TEXT_TOTAL as u64 + 64 * 1024 + files).min(MAX_BODY)
}

/// What the body held: the fields as the rules read them, and the files kept.
struct Received {
    form: FormData,
    files: Vec<(String, Attachment)>,
}

impl Received {
    fn one(&self, name: &str) -> Option<&str> {
        self.form.values(name).into_iter().next()
    }
}

async fn read_body(
    headers: &HeaderMap,
    body: axum::body::Body,
    def: &FormDefinition,
) -> Result<Received, ApiError> {
    let limit = body_limit(def);
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(too_large());
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let boundary = multer::parse_boundary(content_type).map_err(unreadable)?;
    let constraints =
        multer::Constraints::new().size_limit(multer::SizeLimit::new().whole_stream(limit));
    let mut multipart =
        multer::Multipart::with_constraints(body.into_data_stream(), boundary, constraints);
    let mut received = Received {
        form: FormData::new(),
        files: Vec::new(),
    };
    let (mut parts, mut text_total) = (0usize, 0usize);
    while let Some(mut part) = multipart.next_field().await.map_err(read_error)? {
        parts += 1;
        if parts > MAX_PARTS {
            return Err(unreadable("too many parts"));
        }
        let name = part.name().unwrap_or_default().to_string();
        let file_name = part.file_name().map(str::to_string);
        let field = def.field(rules::contact::schema::field_of(&name));
        match file_name {
            Some(file_name) => {
                let keep = field.filter(|f| f.kind == FieldKind::File);
                let cap = keep.map_or(0, |f| f.limit.unwrap_or(FILE_LIMIT));
                let media_type = part
                    .content_type()
                    .map(|m| m.essence_str().to_string())
                    .unwrap_or_else(|| "application/octet-stream".into());
                let mut content = Vec::new();
                let mut size = 0u64;
                while let Some(chunk) = part.chunk().await.map_err(read_error)? {
                    size += chunk.len() as u64;
                    if keep.is_some() && size <= cap {
                        content.extend_from_slice(&chunk);
                    }
                }
                // A browser sends an empty part for a file field left empty.
                if keep.is_none() || (file_name.is_empty() && size == 0) {
                    continue;
                }
                if received.files.len() >= MAX_FILES {
                    return Err(unreadable("too many files"));
                }
                let file_name = safe_file_name(&file_name);
                received.form.append_file(
                    &name,
                    UploadedFile {
                        name: file_name.clone(),
                        size,
                        media_type: media_type.clone(),
                    },
                );
                if size <= cap {
                    received.files.push((
                        name,
                        Attachment {
                            filename: file_name,
                            media_type,
                            content,
                        },
                    ));
                }
            }
            None => {
                let mut text: Vec<u8> = Vec::new();
                while let Some(chunk) = part.chunk().await.map_err(read_error)? {
                    if text.len() + chunk.len() > MAX_TEXT_PART {
                        return Err(too_large());
                    }
                    text.extend_from_slice(&chunk);
                }
                text_total += text.len();
                if text_total > MAX_TEXT_TOTAL {
                    return Err(too_large());
                }
                let text = String::from_utf8(text).map_err(|_| unreadable("text is not UTF-8"))?;
                received.form.append(&name, text);
            }
        }
    }
    Ok(received)
}

fn read_error(e: multer::Error) -> ApiError {
    match e {
        multer::Error::StreamSizeExceeded { .. } | multer::Error::FieldSizeExceeded { .. } => {
            too_large()
        }
        other => unreadable(other),
    }
}

/// A file's name as it is attached: no directories, no control characters, not empty.
fn safe_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = base.chars().filter(|c| !c.is_control()).take(120).collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_string();
    if cleaned.is_empty() {
        "file".into()
    } else {
        cleaned
    }
}

/// The unit tag as the original keeps it: letters, digits, `_` and `-` only.
fn unit_tag(raw: Option<&str>) -> Option<String> {
    let tag: String = raw?
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    (!tag.is_empty()).then_some(tag)
}

pub async fn feedback(
    State(state): State<SharedState>,
    PathText(id): PathText,
    req: Request,
) -> Response {
    let (parts, body) = req.into_parts();
    let is_multipart = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("multipart/form-data")
        });
    if !is_multipart {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "wpcf7_unsupported_media_type",
            "The request payload format is not supported.",
        )
        .into_response();
    }
    let ctx = match StoreCtx::from_parts(&state, &parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let result = async {
        let id = form_id(&id)?;
        // Counted before the form is read or a byte of the body.
        let limits = rate_limit::limits(Action::Contact, None, ctx.client);
        if let Err(limited) =
            rate_limit::attempt(&state.db, Action::Contact, &limits, ctx.now).await?
        {
            return Err(limited.to_api());
        }
        let form = load(&state, id).await?;
        let permit = tokio::time::timeout(READ_WAIT, READING.acquire())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        let received = read_body(&parts.headers, body, &form.definition).await?;
        drop(permit);
        let nonced = ctx.form_nonce_ok(&state, &parts.headers, received.one(NONCE_FIELD));
        if !nonced {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "rest_cookie_invalid_nonce",
                "Cookie check failed",
            ));
        }
        let Some(unit_tag) = unit_tag(received.one(UNIT_TAG_FIELD)) else {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "wpcf7_unit_tag_not_found",
                "There is no valid unit tag.",
            ));
        };
        let body = submit(&state, &ctx, &form, received, &unit_tag).await?;
        Ok(json_value(StatusCode::OK, &body))
    }
    .await;
    ctx.answer(&state, result)
}

fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "wpcf7_busy",
        "The shop is busy. Please try again in a moment.",
    )
    .retry_after(5)
}

/// Decides what the submission gets, keeps it and queues its mail; the answer's body.
async fn submit(
    state: &AppState,
    ctx: &StoreCtx,
    form: &LoadedForm,
    received: Received,
    unit_tag: &str,
) -> Result<Value, ApiError> {
    let def = &form.definition;
    let secret = quiz_secret(state);
    let judged = verdict(def, &received.form, &secret);
    let inputs = posted_inputs(def, &received.form);
    let hash = posted_data_hash(&inputs);
    let mut body = Map::new();
    body.insert("contact_form_id".into(), json!(form.id));
    let (status, message, invalid) = match &judged {
        Verdict::Clean => match send(state, ctx, form, &received, &inputs, &hash).await {
            Ok(()) => ("mail_sent", def.messages.mail_sent_ok.clone(), Vec::new()),
            Err(e) => {
                tracing::error!(form = form.id, error = %e, "a contact form's mail could not be queued");
                ("mail_failed", def.messages.mail_sent_ng.clone(), Vec::new())
            }
        },
        Verdict::Spam => {
            keep_spam(state, ctx, form, &received, &inputs, &hash).await;
            ("spam", def.messages.spam.clone(), Vec::new())
        }
        Verdict::Invalid(fields) => (
            "validation_failed",
            def.messages.validation_error.clone(),
            fields.clone(),
        ),
        Verdict::Unaccepted => (
            "acceptance_missing",
            def.messages.accept_terms.clone(),
            Vec::new(),
        ),
    };
    body.insert("status".into(), json!(status));
    body.insert("message".into(), json!(message));
    let kept = matches!(status, "mail_sent" | "spam");
    body.insert(
        "posted_data_hash".into(),
        json!(if kept { hash.as_str() } else { "" }),
    );
    body.insert("into".into(), json!(format!("#{unit_tag}")));
    let invalid: Vec<Value> = invalid
        .iter()
        .map(|f| {
            json!({
                "field": f.field,
                "message": f.message,
                "idref": Value::Null,
                "error_id": format!("{unit_tag}-ve-{}", f.field),
            })
        })
        .collect();
    body.insert("invalid_fields".into(), Value::Array(invalid));
    let quiz = quiz_refill(state, def);
    if !quiz.is_empty() {
        body.insert("quiz".into(), Value::Object(quiz));
    }
    Ok(Value::Object(body))
}

fn specials(state: &AppState, ctx: &StoreCtx, form: &LoadedForm) -> Specials {
    Specials {
        site_title: state.config.shop_name.clone(),
        site_url: ctx.base_url.link("/"),
        site_admin_email: state.config.mail.shop_recipient(),
        date: rules::clock::long_date(ctx.now),
        time: rules::clock::time_of_day(ctx.now),
        remote_ip: ctx.client.map(|ip| ip.to_string()).unwrap_or_default(),
        url: ctx.base_url.link("/contact/"),
        post_title: form.title.clone(),
    }
}

fn files_json(received: &Received) -> String {
    let files: Vec<Value> = received
        .files
        .iter()
        .map(|(field, file)| {
            json!({"field": field, "name": file.filename, "size": file.content.len(), "media_type": file.media_type})
        })
        .collect();
    Value::Array(files).to_string()
}

fn inputs_json(inputs: &[(String, Vec<String>)]) -> String {
    serde_json::to_string(inputs).unwrap_or_else(|_| "[]".into())
}

/// Queues the mail to the shop (with the files) and the auto-reply, and keeps the
/// submission, in one transaction.
async fn send(
    state: &AppState,
    ctx: &StoreCtx,
    form: &LoadedForm,
    received: &Received,
    inputs: &[(String, Vec<String>)],
    hash: &str,
) -> Result<(), store::StoreError> {
    let def = &form.definition;
    let specials = specials(state, ctx, form);
    let mail_ctx = mail::MailContext::new(&state.config.shop_name, ctx.base_url.as_str());
    let mut to_shop = compose(&def.mail, inputs, &specials);
    if !rules::address::locale::is_valid_email(to_shop.to.trim()) {
        // A template whose recipient is not one address still reaches the shop.
        to_shop.to = state.config.mail.shop_recipient();
    }
    let rendered = mail::contact::render_composed(&mail_ctx, &to_shop);
    let attachments: Vec<Attachment> = received.files.iter().map(|(_, f)| f.clone()).collect();
    let reply = def
        .auto_reply
        .as_ref()
        .map(|t| compose(t, inputs, &specials));
    let reply = reply.filter(|r| rules::address::locale::is_valid_email(r.to.trim()));
    let reply_rendered = reply
        .as_ref()
        .map(|r| mail::contact::render_composed(&mail_ctx, r));
    let mut tx = state.db.begin_write().await?;
    let mail_id = store::outbox::queue_in(
        &mut tx,
        &mail::contact::new_mail(
            mail::contact::CONTACT_MESSAGE,
            &to_shop,
            &rendered,
            &attachments,
        ),
        ctx.now,
    )
    .await?;
    if let (Some(reply), Some(rendered)) = (&reply, &reply_rendered) {
        store::outbox::queue_in(
            &mut tx,
            &mail::contact::new_mail(mail::contact::CONTACT_AUTO_REPLY, reply, rendered, &[]),
            ctx.now,
        )
        .await?;
    }
    keep(
        &mut tx,
        ctx,
        form,
        received,
        inputs,
        hash,
        "mail_sent",
        Some(mail_id),
    )
    .await?;
    tx.commit().await?;
    mail::wake();
    Ok(())
}

/// Keeps a submission, with what was attached (not the files), in the caller's
/// transaction.
#[allow(clippy::too_many_arguments)]
async fn keep(
    tx: &mut store::orders::Tx<'_>,
    ctx: &StoreCtx,
    form: &LoadedForm,
    received: &Received,
    inputs: &[(String, Vec<String>)],
    hash: &str,
    status: &str,
    mail_id: Option<i64>,
) -> Result<i64, store::StoreError> {
    let client_ip = ctx.client.map(|ip| ip.to_string());
    store::contact::insert_submission(
        tx,
        &store::contact::NewSubmission {
            form_id: form.id,
            status,
            inputs: &inputs_json(inputs),
            files: &files_json(received),
            posted_data_hash: hash,
            customer_id: (ctx.session.user_id > 0).then_some(ctx.session.user_id),
            client_ip: client_ip.as_deref(),
            mail_id,
            created_at: ctx.now,
        },
    )
    .await
}

/// Spam is kept for staff to look at, without its files; no mail goes out.
async fn keep_spam(
    state: &AppState,
    ctx: &StoreCtx,
    form: &LoadedForm,
    received: &Received,
    inputs: &[(String, Vec<String>)],
    hash: &str,
) {
    let kept = async {
        let mut tx = state.db.begin_write().await?;
        keep(&mut tx, ctx, form, received, inputs, hash, "spam", None).await?;
        tx.commit().await?;
        Ok::<_, store::StoreError>(())
    }
    .await;
    if let Err(e) = kept {
        tracing::warn!(form = form.id, error = %e, "could not keep a spam submission");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_lose_their_directories_and_control_characters() {
        assert_eq!(safe_file_name("C:\\Users\\ada\\cv.pdf"), "cv.pdf");
        assert_eq!(safe_file_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_file_name("a\r\nb.txt"), "ab.txt");
        assert_eq!(safe_file_name(".htaccess"), "htaccess");
        assert_eq!(safe_file_name(""), "file");
        assert_eq!(safe_file_name("/"), "file");
    }

    #[test]
    fn unit_tags_keep_only_their_characters() {
        assert_eq!(
            unit_tag(Some("wpcf7-f1-p2-o1")).as_deref(),
            Some("wpcf7-f1-p2-o1")
        );
        assert_eq!(
            unit_tag(Some("wpcf7-f1\"><script>")).as_deref(),
            Some("wpcf7-f1script")
        );
        assert_eq!(unit_tag(Some("<>")), None);
        assert_eq!(unit_tag(None), None);
    }

    #[test]
    fn a_body_may_hold_the_forms_files_and_no_more() {
        let mut def = rules::contact::form::demo_form();
        let text_only = body_limit(&def);
        let mut file = rules::contact::form::Field::new(FieldKind::File, "cv");
        file.limit = Some(2_000_000);
        def.fields.push(file);
        assert_eq!(body_limit(&def), text_only + 2_000_000 + 4096);
        let mut huge = rules::contact::form::Field::new(FieldKind::File, "huge");
        huge.limit = Some(u64::MAX / 4);
        def.fields.push(huge);
        assert_eq!(body_limit(&def), MAX_BODY);
    }
}
