//! Contact forms (`contact::api`, `contact::submit`, `contact::staff`): the original
//! plugin's calls under `/wp-json/contact-form-7/v1`, and the form as the storefront
//! draws it under the shop's own root.

use serde_json::{json, Value};

use super::operation::Op;
use super::shapes::{
    any_object, array, input, integer, map_of, nullable, one_of, record, record_with_optional,
    string,
};
use super::staff_api::{staff, staff_write};
use crate::contact::API_ROOT;
use crate::http::FERROSHOP_API_ROOT;

const CONTACT: &str = "Contact forms";
const NO_FORM: &str = "No contact form has this id (`wpcf7_not_found`: \"The requested contact form was not found.\").";

fn id_param(op: Op) -> Op {
    op.path_param(
        "id",
        json!({"type": "integer", "minimum": 1}),
        "The contact form.",
    )
}

fn quiz() -> Value {
    map_of(json!({"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}))
}

pub fn operations() -> Vec<Op> {
    vec![
        schema(),
        refill(),
        feedback(),
        form(),
        list_forms(),
        create_form(),
        submissions(),
        delete_submission(),
    ]
}

fn schema() -> Op {
    id_param(Op::get(&format!("{API_ROOT}/contact-forms/{{id}}/feedback/schema"), CONTACT, "Get a contact form's validation schema"))
        .describe("The rules the browser checks the form against before sending it, and the server again on receipt, each naming its field and its message: `required`, `requiredfile`, `email`, `url`, `tel`, `number`, `date`, `time`, `file`, `enum`, `dayofweek`, `minitems`, `maxitems`, `minlength`, `maxlength`, `minnumber`, `maxnumber`, `mindate`, `maxdate`, `minfilesize`, `maxfilesize`, `stepnumber`, and the groups `all` and `any`.")
        .guarded()
        .json(200, "The schema.", record_with_optional(&[("version", string()), ("locale", string()), ("rules", array(any_object()))], &[]))
        .error(404, NO_FORM)
}

fn refill() -> Op {
    id_param(Op::get(&format!("{API_ROOT}/contact-forms/{{id}}/refill"), CONTACT, "Refill a contact form"))
        .describe("What a form needs again after it was sent or reset: for a form with a quiz, a fresh question per quiz field (`quiz`: name to `[question, token]`; the token goes back in `_wpcf7_quiz_answer_{name}`).")
        .guarded()
        .json(200, "Nothing, or a fresh quiz question.", record_with_optional(&[], &[("quiz", quiz()), ("captcha", map_of(string()))]))
        .header(200, "Cache-Control", true)
        .error(404, NO_FORM)
}

fn feedback() -> Op {
    id_param(Op::post(&format!("{API_ROOT}/contact-forms/{{id}}/feedback"), CONTACT, "Send a contact form"))
        .describe("The form's fields as multipart form data, with the page's hidden fields: `_wpcf7` (the form), `_wpcf7_version`, `_wpcf7_locale`, `_wpcf7_unit_tag` (required: `wpcf7-f{id}-p{post}-o{n}`), `_wpcf7_container_post`, `_wpcf7_posted_data_hash`, and `_wpnonce`: the session's `wp_rest` nonce or its Store API nonce (or the `X-WP-Nonce` or `Nonce` header; a headless client's `Cart-Token` stands in for it). Fields whose names start with `_` are never stored or mailed. Files go in the form's file fields, each within its field's limit (1 MB unless the form says otherwise). Sending is counted per client address (20 an hour) before the body is read. The answer's `status`: `validation_failed` (with `invalid_fields`), `acceptance_missing`, `spam` (a filled honeypot: kept for staff, nothing mailed), `mail_sent` (the mail to the shop, with its files and `Reply-To`, and any auto-reply, queued with the submission) or `mail_failed` (it could not be queued). A form with a quiz gets a fresh question in `quiz`.")
        .store_read()
        .multipart(input(&[
            ("_wpcf7", json!({"type": ["integer", "string"]})),
            ("_wpcf7_version", string()),
            ("_wpcf7_locale", string()),
            ("_wpcf7_unit_tag", string()),
            ("_wpcf7_container_post", json!({"type": ["integer", "string"]})),
            ("_wpcf7_posted_data_hash", string()),
            ("_wpnonce", string()),
            ("your-name", string()),
            ("your-email", string()),
            ("your-subject", string()),
            ("your-message", string()),
            ("your-consent", string()),
        ], &[]))
        .json(200, "What became of the submission.", record_with_optional(
            &[
                ("contact_form_id", integer()),
                ("status", one_of(&["validation_failed", "acceptance_missing", "spam", "mail_sent", "mail_failed"])),
                ("message", string()),
                ("posted_data_hash", string()),
                ("into", string()),
                ("invalid_fields", array(record(&[("field", string()), ("message", string()), ("idref", nullable(string())), ("error_id", string())]))),
            ],
            &[("quiz", quiz()), ("captcha", map_of(string()))],
        ))
        .error(400, "No valid unit tag (`wpcf7_unit_tag_not_found`: \"There is no valid unit tag.\"), or a body that is not multipart form data the shop can read (`wpcf7_invalid_payload`).")
        .error(403, "The nonce is missing or not this session's (`rest_cookie_invalid_nonce`: \"Cookie check failed\"), or a browser said the form came from another site (`ferroshop_cross_site_request`).")
        .error(404, NO_FORM)
        .error(413, "The body is larger than the form takes (`wpcf7_payload_too_large`).")
        .error(415, "The body is not multipart form data (`wpcf7_unsupported_media_type`: \"The request payload format is not supported.\").")
        .rate_limited("Too many forms were sent from this address (`ferroshop_too_many_attempts`).")
        .error(503, "Too many forms are being read at once; try again shortly (`wpcf7_busy`).")
        .header(503, "Retry-After", true)
}

fn form() -> Op {
    id_param(Op::get(&format!("{FERROSHOP_API_ROOT}/contact-forms/{{id}}"), CONTACT, "Get a contact form to draw"))
        .describe("The form as the storefront draws it: its fields in order (type, name, label, required, options and limits, never a quiz's answers), a quiz question for this visit, the honeypot field's name, and the session's `wp_rest` nonce for sending it.")
        .store_read()
        .json(200, "The form.", record(&[
            ("id", integer()),
            ("title", string()),
            ("locale", string()),
            ("version", string()),
            ("fields", array(any_object())),
            ("quiz", quiz()),
            ("honeypot", nullable(string())),
            ("nonce", string()),
        ]))
        .error(404, NO_FORM)
}

fn listed_form() -> Value {
    record(&[
        ("id", integer()),
        ("slug", string()),
        ("title", string()),
        ("locale", string()),
    ])
}

fn submission() -> Value {
    record(&[
        ("id", integer()),
        ("form_id", integer()),
        ("status", one_of(&["mail_sent", "mail_failed", "spam"])),
        ("inputs", array(json!({"type": "array"}))),
        ("files", array(any_object())),
        ("posted_data_hash", string()),
        ("customer_id", integer()),
        ("client_ip", nullable(string())),
        ("date_created_gmt", string()),
    ])
}

fn list_forms() -> Op {
    staff(Op::get(
        &format!("{API_ROOT}/contact-forms"),
        CONTACT,
        "List contact forms",
    ))
    .describe("Every contact form, oldest first.")
    .json(200, "The forms.", array(listed_form()))
    .header(200, "X-WP-Total", true)
    .header(200, "X-WP-TotalPages", true)
}

fn create_form() -> Op {
    staff_write(
        Op::post(&format!("{API_ROOT}/contact-forms"), CONTACT, "Add a contact form"),
        input(&[("title", string()), ("definition", any_object())], &["title", "definition"]),
    )
    .describe("A new form: `title` (at most 200 characters) and its `definition`: `fields` (each with `type`: text, email, url, tel, number, range, date, time, textarea, select, checkbox, radio, acceptance, file or quiz; `name`; and its settings), `mail` and `auto_reply` templates with `[field-name]` and `[_site_title]`-style tags, `messages`, and `honeypot`. A definition that is not usable is refused and says why.")
    .json(201, "The form.", record(&[("id", integer()), ("slug", string()), ("title", string()), ("locale", string()), ("config_errors", array(string()))]))
    .error(400, "`title` or `definition` is missing (`rest_missing_callback_param`), or the definition is not usable (`wpcf7_invalid_definition`).")
}

fn submissions() -> Op {
    id_param(staff(Op::get(&format!("{API_ROOT}/contact-forms/{{id}}/submissions"), CONTACT, "List a contact form's submissions")))
        .describe("What visitors sent through the form, newest first: the form's fields as sent, the files' names and sizes (not the files: they went with the mail), the status, the client's address, and when. Paged by key: `before` (an id) gives the older ones; `X-Ferroshop-Next-Before` says where the next page starts.")
        .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 100}), "Submissions per page (default 20).")
        .query("before", json!({"type": "integer", "minimum": 1}), "Only submissions with a smaller id.")
        .json(200, "The submissions.", array(submission()))
        .header(200, "X-Ferroshop-Next-Before", false)
        .error(404, NO_FORM)
}

fn delete_submission() -> Op {
    staff(Op::new("delete", &format!("{API_ROOT}/contact-forms/{{id}}/submissions/{{submission}}"), CONTACT, "Delete a submission"))
        .path_param("id", json!({"type": "integer", "minimum": 1}), "The contact form.")
        .path_param("submission", json!({"type": "integer", "minimum": 1}), "The submission.")
        .describe("Deletes a submission for good.")
        .json(200, "The submission, as it was.", record(&[("deleted", json!({"const": true})), ("previous", submission())]))
        .error(404, "No such form (`wpcf7_not_found`), or no such submission of it (`wpcf7_submission_not_found`).")
        .error(403, "A browser said the request came from another site (`ferroshop_cross_site_request`).")
}

/// The newsletter's staff call (`newsletter`); signing up and the links are the
/// original plugin's addresses outside the API (`/wp-admin/admin-ajax.php?action=tnp&na=sa`,
/// `/?na=c`, `/?na=u`).
pub fn newsletter_operations() -> Vec<Op> {
    let subscriber = record(&[
        ("id", integer()),
        ("email", string()),
        ("name", string()),
        ("status", one_of(&["pending", "confirmed", "unsubscribed"])),
        ("source", string()),
        ("consent_at_gmt", string()),
        ("confirmed_at_gmt", nullable(string())),
        ("unsubscribed_at_gmt", nullable(string())),
        ("client_ip", nullable(string())),
    ]);
    vec![staff(Op::get(&format!("{}/newsletter/subscribers", crate::http::STAFF_API_ROOT), "Staff", "List newsletter subscribers"))
        .describe("The newsletter's subscribers in one status (`confirmed` unless `status` says otherwise), oldest first, with where and when each asked (`source`, `consent_at_gmt`, `client_ip`) and confirmed. Paged by key: `after` (an id) gives the next ones; `X-Ferroshop-Next-After` says where the next page starts.")
        .query("status", one_of(&["pending", "confirmed", "unsubscribed"]), "Which subscribers (default `confirmed`).")
        .query("after", json!({"type": "integer", "minimum": 0}), "Only subscribers with a larger id.")
        .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 1000}), "Subscribers per page (default 100).")
        .json(200, "The subscribers.", array(subscriber))
        .header(200, "X-Ferroshop-Next-After", false)]
}
