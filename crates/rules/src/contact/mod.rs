//! The contact form's validation, as the original plugin's schema-woven validation
//! (SWV) makes it: the server publishes a schema of rules per field (`schema`), the
//! browser checks a form against it before sending and the server checks it again,
//! authoritatively, on receipt. Each rule's check is a plain function over a field's
//! submitted values (`rules`); the browser's copy lives in
//! `web/src/features/contact/lib/swv-rules.ts`, and both are held to the shared cases
//! in `tests/vectors/contact-form-rules.json`.

pub mod rules;
pub mod schema;

pub use rules::normalize_url;
pub use schema::{validate, FormData, InvalidField, Rule, Schema, UploadedFile};
