//! Contact forms over HTTP, at the original plugin's REST root
//! (`/wp-json/contact-form-7/v1`): a form's validation schema, its refill (a fresh quiz
//! question), and sending it (`feedback`, multipart, with uploads); the form as the
//! storefront draws it; and the staff's calls for forms and what was sent. The rules
//! (definitions, schemas, verdicts, mail composition) live in `rules::contact`, the
//! SQL in `store::contact`, the mails in `mail::contact`.

pub mod api;
pub mod demo;
pub mod staff;
pub mod submit;

use axum::http::StatusCode;
use rules::contact::form::FormDefinition;

use crate::error::ApiError;
use crate::state::AppState;

/// The original plugin's REST root.
pub const API_ROOT: &str = "/wp-json/contact-form-7/v1";

/// What the key the quiz's answers are signed with is derived for.
const QUIZ_KEY: &str = "contact-quiz";

/// "The requested contact form was not found." (404), as the original answers.
pub fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "wpcf7_not_found",
        "The requested contact form was not found.",
    )
}

/// A form id from the path: a positive whole number, else no such form.
pub fn form_id(text: &str) -> Result<i64, ApiError> {
    match text.parse::<i64>() {
        Ok(id) if id > 0 && !text.starts_with('+') => Ok(id),
        _ => Err(not_found()),
    }
}

/// A stored form and its definition.
pub struct LoadedForm {
    pub id: i64,
    pub title: String,
    pub definition: FormDefinition,
}

/// The form with this id. A stored definition that no longer reads is logged and
/// treated as no form, so a visitor never gets a 500 for it.
pub async fn load(state: &AppState, id: i64) -> Result<LoadedForm, ApiError> {
    let Some(stored) = store::contact::form(&state.db, id).await? else {
        return Err(not_found());
    };
    match serde_json::from_str::<FormDefinition>(&stored.definition) {
        Ok(definition) => Ok(LoadedForm {
            id: stored.id,
            title: stored.title,
            definition,
        }),
        Err(e) => {
            tracing::error!(form = id, error = %e, "a stored contact form does not read");
            Err(not_found())
        }
    }
}

/// The key quiz answers are signed with.
pub fn quiz_secret(state: &AppState) -> [u8; 32] {
    state.keys.derive(QUIZ_KEY)
}

/// A fresh question for each quiz field: `{name: [question, token]}`, as the original's
/// refill and feedback answers carry it. Empty when the form has no quiz.
pub fn quiz_refill(
    state: &AppState,
    def: &FormDefinition,
) -> serde_json::Map<String, serde_json::Value> {
    use rand::Rng;
    let secret = quiz_secret(state);
    let mut out = serde_json::Map::new();
    for field in def
        .fields
        .iter()
        .filter(|f| f.kind == rules::contact::form::FieldKind::Quiz)
    {
        if field.questions.is_empty() {
            continue;
        }
        let index = rand::thread_rng().gen_range(0..field.questions.len());
        if let Some(token) = rules::contact::form::quiz_token(&secret, field, index) {
            out.insert(
                field.name.clone(),
                serde_json::json!([field.questions[index].question, token]),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_ids_are_positive_whole_numbers() {
        assert_eq!(form_id("12").unwrap(), 12);
        for bad in ["0", "-1", "+1", "1.5", "x", "", "99999999999999999999"] {
            assert_eq!(form_id(bad).unwrap_err().code, "wpcf7_not_found", "{bad}");
        }
    }
}
