//! The contact form's validation, as the original plugin's schema-woven validation
//! (SWV) makes it: the server publishes a schema of rules per field (`schema`), the
//! browser checks a form against it before sending and the server checks it again,
//! authoritatively, on receipt. Each rule's check is a plain function over a field's
//! submitted values (`rules`); the browser's copy lives in
//! `web/src/features/contact/lib/swv-rules.ts`, and both are held to the shared cases
//! in `tests/vectors/contact-form-rules.json`. A stored form, the schema it publishes
//! and what becomes of a submission (its other checks, inputs and mails) are `form`'s.

pub mod form;
pub mod rules;
pub mod schema;

pub use form::{
    acceptance_missing, check_quiz, compose, demo_form, free_text_field, invalid_fields, is_spam,
    posted_data_hash, posted_inputs, quiz_invalid_fields, quiz_token, quiz_token_field, schema,
    verdict, ComposedMail, DefinitionError, Field, FieldKind, FormDefinition, MailTemplate,
    Messages, QuizQuestion, Specials, Verdict, PLUGIN_VERSION, SCHEMA_VERSION,
};
pub use rules::normalize_url;
pub use schema::{validate, FormData, InvalidField, Rule, Schema, UploadedFile};
