//! A contact form as the shop stores it (its fields, mails and messages) and everything
//! about a submission that can be decided without I/O: the validation schema the form
//! publishes, the checks the schema does not make (acceptance boxes, the quiz, the
//! honeypot), the inputs as they are stored and mailed, and the mails themselves.
//!
//! A submission is judged in the original plugin's order (`verdict`): broken rules
//! first (`validation_failed`), then acceptance boxes (`acceptance_missing`), then
//! spam; only a submission that passes all three is mailed.

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::rules::{self, normalize_url};
use super::schema::{
    validate, Accept, Check, FormData, InvalidField, Limit, Param, Rule, Schema, Step,
};

/// The version of the original plugin whose calls the shop answers, as forms announce
/// it to the browser.
pub const PLUGIN_VERSION: &str = "5.9.8";

/// The schema version that plugin version publishes in `feedback/schema`.
pub const SCHEMA_VERSION: &str = "Contact Form 7 SWV Schema 2024-02";

/// The longest input a one-line field takes when its definition sets no `maxlength`.
pub const TEXT_MAX_LENGTH: u32 = 400;

/// The longest input a text area takes when its definition sets no `maxlength`.
pub const TEXTAREA_MAX_LENGTH: u32 = 2000;

/// The most bytes a file field takes when its definition sets no `limit` (1 MB).
pub const FILE_LIMIT: u64 = 1_048_576;

/// The files a file field takes when its definition names none.
const DEFAULT_FILE_TYPES: [&str; 3] = ["audio/*", "video/*", "image/*"];

/// The only families a file type may name whole (`image/*`), as the original allows.
const WHOLE_FAMILIES: [&str; 3] = ["audio", "video", "image"];

/// The bounds of a range slider whose definition sets none, as the browser has them.
const RANGE_MIN: &str = "0";
const RANGE_MAX: &str = "100";

/// A contact form as stored (JSON). Missing settings take their defaults and settings
/// the shop does not know are ignored, so a definition written by another version of
/// the shop still reads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FormDefinition {
    pub title: String,
    /// The fields, in the order the form shows them.
    pub fields: Vec<Field>,
    /// The mail to the shop.
    pub mail: MailTemplate,
    /// A receipt mailed to the visitor (the original's "Mail (2)"), when the form has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_reply: Option<MailTemplate>,
    pub messages: Messages,
    /// The name of a hidden field that people never see and so leave empty; a
    /// submission that fills it in is spam.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub honeypot: Option<String>,
}

/// What a field is, named as the original's form tags are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldKind {
    #[default]
    Text,
    Email,
    Url,
    Tel,
    Number,
    /// A slider: a number between `min` (0 unless set) and `max` (100 unless set).
    Range,
    Date,
    Time,
    Textarea,
    Select,
    /// A group of boxes, one per option.
    Checkbox,
    Radio,
    /// A single box the visitor ticks to agree (or, `invert`ed, leaves unticked).
    Acceptance,
    File,
    /// A question only a person should answer right.
    Quiz,
}

impl FieldKind {
    /// Kinds whose values are picked from `options`.
    fn has_options(self) -> bool {
        matches!(self, Self::Select | Self::Checkbox | Self::Radio)
    }

    /// Kinds typed in as text, whose length is limited.
    fn has_length(self) -> bool {
        matches!(
            self,
            Self::Text | Self::Email | Self::Url | Self::Tel | Self::Textarea
        )
    }

    fn is_numeric(self) -> bool {
        matches!(self, Self::Number | Self::Range)
    }

    /// Kinds that start empty whatever the definition says.
    fn takes_default(self) -> bool {
        !matches!(self, Self::Acceptance | Self::File | Self::Quiz)
    }
}

/// One field. The JSON names are the original's form-tag options where it has one
/// (`type`, `minlength`, `filetypes`, `free_text`, ...); settings a kind does not use
/// are ignored, as the original ignores them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Field {
    #[serde(rename = "type")]
    pub kind: FieldKind,
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub label: String,
    #[serde(skip_serializing_if = "is_false")]
    pub required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autocomplete: Option<String>,
    /// What the field starts with: the text of a one-line field or text area (one
    /// value), the options chosen at first for a select or a group of boxes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub default: Vec<String>,
    /// The choices of a select, a group of checkboxes or radio buttons, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// Characters, all values together; 0 or unset means no minimum.
    #[serde(rename = "minlength", skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u32>,
    /// Characters, all values together; unset means `TEXT_MAX_LENGTH` or
    /// `TEXTAREA_MAX_LENGTH`.
    #[serde(rename = "maxlength", skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u32>,
    /// The smallest number (number, range) or earliest date (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Param>,
    /// The largest number (number, range) or latest date (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Param>,
    /// Numbers allowed are `min` (0 unless set) plus a whole number of steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<Param>,
    /// The days a date may fall on, Monday 1 to Sunday 7; empty allows every day.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub days_of_week: Vec<u8>,
    /// A select from which several options may be chosen.
    #[serde(skip_serializing_if = "is_false")]
    pub multiple: bool,
    /// A select that starts with a blank choice ("—Please choose an option—").
    #[serde(skip_serializing_if = "is_false")]
    pub include_blank: bool,
    /// A select whose first option is a prompt with no value rather than a choice.
    #[serde(skip_serializing_if = "is_false")]
    pub first_as_label: bool,
    /// Checkboxes of which at most one may be ticked.
    #[serde(skip_serializing_if = "is_false")]
    pub exclusive: bool,
    /// Checkboxes or radio buttons whose last option comes with a text input of the
    /// visitor's own; any value is then accepted.
    #[serde(skip_serializing_if = "is_false")]
    pub free_text: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub use_label_element: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub label_first: bool,
    /// An acceptance box that need not be ticked.
    #[serde(skip_serializing_if = "is_false")]
    pub optional: bool,
    /// An acceptance box that must be left unticked.
    #[serde(skip_serializing_if = "is_false")]
    pub invert: bool,
    /// What an acceptance box agrees to, shown by it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub content: String,
    /// The files a file field takes: extensions (`pdf`, `.pdf`) and media types
    /// (`application/pdf`, `image/*`); empty takes audio, video and images.
    #[serde(rename = "filetypes", skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<String>,
    /// The most bytes a file field takes, all its files together; unset means
    /// `FILE_LIMIT`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// A quiz's questions; each visitor is asked one of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<QuizQuestion>,
}

fn is_false(value: &bool) -> bool {
    !value
}

impl Field {
    /// A field with nothing set but its kind and name.
    pub fn new(kind: FieldKind, name: &str) -> Self {
        Self {
            kind,
            name: name.to_string(),
            ..Self::default()
        }
    }
}

/// A quiz question and the answers taken as right.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuizQuestion {
    pub question: String,
    pub answers: Vec<String>,
}

/// A mail to compose from a submission. Every part may hold tags: `[field-name]` for
/// what the visitor entered, `[_site_title]` and the like for the `Specials`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MailTemplate {
    /// Where the mail goes: the shop's address (`[_site_admin_email]`) or, for a
    /// receipt, the visitor's (`[your-email]`).
    pub recipient: String,
    /// The name the mail comes from; the address is the shop's own.
    pub sender_name: String,
    pub subject: String,
    pub body: String,
    /// An address that answers go to; left out when it is not one.
    pub reply_to: String,
    /// Leaves out the lines of the body whose tags all came out empty.
    #[serde(skip_serializing_if = "is_false")]
    pub exclude_blank: bool,
}

/// Declares `Messages` with a default text per key, so each key and its text are
/// written once.
macro_rules! messages {
    ($($(#[$doc:meta])* $key:ident: $text:literal,)*) => {
        /// What the visitor is told, by key. A definition may set any of them; those it
        /// leaves out keep the original's English texts.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(default)]
        pub struct Messages {
            $($(#[$doc])* pub $key: String,)*
        }

        impl Default for Messages {
            fn default() -> Self {
                Self {
                    $($key: $text.to_string(),)*
                }
            }
        }
    };
}

messages! {
    mail_sent_ok: "Thank you for your message. It has been sent.",
    mail_sent_ng: "There was an error trying to send your message. Please try again later.",
    validation_error: "One or more fields have an error. Please check and try again.",
    /// Deliberately the same as `mail_sent_ng`: a sender taken for spam learns nothing.
    spam: "There was an error trying to send your message. Please try again later.",
    accept_terms: "You must accept the terms and conditions before sending your message.",
    invalid_required: "Please fill out this field.",
    invalid_too_long: "This field has a too long input.",
    invalid_too_short: "This field has a too short input.",
    upload_failed: "There was an unknown error uploading the file.",
    upload_file_type_invalid: "You are not allowed to upload files of this type.",
    upload_file_too_large: "The uploaded file is too large.",
    upload_failed_php_error: "There was an error uploading the file.",
    invalid_date: "Please enter a date in YYYY-MM-DD format.",
    date_too_early: "This field has a too early date.",
    date_too_late: "This field has a too late date.",
    invalid_number: "Please enter a number.",
    number_too_small: "This field has a too small number.",
    number_too_large: "This field has a too large number.",
    quiz_answer_not_correct: "The answer to the quiz is incorrect.",
    captcha_not_match: "Your entered code is incorrect.",
    invalid_email: "Please enter an email address.",
    invalid_url: "Please enter a URL.",
    invalid_tel: "Please enter a telephone number.",
    /// A value that is not one of a field's options; the original's fixed text.
    invalid_choice: "Undefined value was submitted through this field.",
    /// More than one choice where one is allowed; the original's fixed text.
    too_many_items: "Too many items are selected.",
    /// The shop's own: the original has no time fields.
    invalid_time: "Please enter a time in HH:MM format.",
    /// The shop's own: the original publishes no step rule.
    number_off_step: "Please enter a number in the allowed steps.",
    /// The shop's own: the original publishes no day-of-week rule.
    day_not_allowed: "This field has a date on a day that is not allowed.",
}

/// Why a stored definition cannot be used. The first problem found is reported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DefinitionError {
    #[error("field {index} has no name")]
    EmptyName { index: usize },
    #[error(
        "{name:?} is not a field name: one starts with a letter and holds only letters, \
         digits, '-' and '_'"
    )]
    BadName { name: String },
    #[error("two fields are named {name:?}")]
    DuplicateName { name: String },
    #[error("{name:?} has no options to choose from")]
    NoOptions { name: String },
    #[error("{name:?} cannot start with {value:?}")]
    BadDefault { name: String, value: String },
    #[error("quiz {name:?} has no questions")]
    NoQuestions { name: String },
    #[error("question {index} of quiz {name:?} needs its text and at least one answer")]
    BadQuestion { name: String, index: usize },
    #[error("{name:?} has {option} {value:?}, which it cannot use")]
    BadSetting {
        name: String,
        option: &'static str,
        value: String,
    },
    #[error("{name:?} has its {option} minimum above its maximum")]
    MinAboveMax { name: String, option: &'static str },
    #[error("the honeypot {name:?} must be a field name of its own")]
    BadHoneypot { name: String },
    #[error("the mail has no recipient")]
    NoRecipient,
}

impl FormDefinition {
    /// Whether the form can be shown and its submissions checked and mailed: field names
    /// valid and unique, choices to choose from, quiz questions to ask, sizes and bounds
    /// that make sense, a recipient for the mail.
    pub fn check(&self) -> Result<(), DefinitionError> {
        let mut seen: Vec<&str> = Vec::new();
        for (index, field) in self.fields.iter().enumerate() {
            if field.name.is_empty() {
                return Err(DefinitionError::EmptyName { index });
            }
            if !is_field_name(&field.name) {
                return Err(DefinitionError::BadName {
                    name: field.name.clone(),
                });
            }
            if seen.contains(&field.name.as_str()) {
                return Err(DefinitionError::DuplicateName {
                    name: field.name.clone(),
                });
            }
            seen.push(&field.name);
            field.check()?;
        }
        if let Some(honeypot) = &self.honeypot {
            if !is_field_name(honeypot) || seen.contains(&honeypot.as_str()) {
                return Err(DefinitionError::BadHoneypot {
                    name: honeypot.clone(),
                });
            }
        }
        if self.mail.recipient.trim().is_empty() {
            return Err(DefinitionError::NoRecipient);
        }
        Ok(())
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|field| field.name == name)
    }
}

/// A number as written, read; callers have checked it is one.
fn as_number(text: &str) -> f64 {
    text.parse().unwrap_or(0.0)
}

fn is_positive_number(text: &str) -> bool {
    rules::is_number(text) && as_number(text) > 0.0
}

/// `[A-Za-z][A-Za-z0-9_-]*`: safe in markup, in mail tags and after the prefixes of the
/// hidden fields (`_wpcf7_...`), which no field name can clash with.
fn is_field_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Field {
    fn check(&self) -> Result<(), DefinitionError> {
        if self.kind.has_options() && self.options.iter().all(|o| o.trim().is_empty()) {
            return Err(DefinitionError::NoOptions {
                name: self.name.clone(),
            });
        }
        self.check_defaults()?;
        match self.kind {
            FieldKind::Quiz => self.check_questions(),
            FieldKind::Number | FieldKind::Range => self.check_numbers(),
            FieldKind::Date => self.check_dates(),
            FieldKind::File if self.limit == Some(0) => Err(self.bad_setting("limit", "0")),
            kind if kind.has_length() => self.check_lengths(),
            _ => Ok(()),
        }
    }

    fn bad_setting(&self, option: &'static str, value: &str) -> DefinitionError {
        DefinitionError::BadSetting {
            name: self.name.clone(),
            option,
            value: value.to_string(),
        }
    }

    fn min_above_max(&self, option: &'static str) -> DefinitionError {
        DefinitionError::MinAboveMax {
            name: self.name.clone(),
            option,
        }
    }

    /// Every question has its text and an answer that is more than whitespace.
    fn check_questions(&self) -> Result<(), DefinitionError> {
        if self.questions.is_empty() {
            return Err(DefinitionError::NoQuestions {
                name: self.name.clone(),
            });
        }
        let unanswerable = self.questions.iter().position(|question| {
            question.question.trim().is_empty()
                || question
                    .answers
                    .iter()
                    .all(|answer| canonical_answer(answer).is_empty())
        });
        match unanswerable {
            Some(index) => Err(DefinitionError::BadQuestion {
                name: self.name.clone(),
                index,
            }),
            None => Ok(()),
        }
    }

    fn check_lengths(&self) -> Result<(), DefinitionError> {
        if self.max_length == Some(0) {
            return Err(self.bad_setting("maxlength", "0"));
        }
        match (self.min_length, self.max_length) {
            (Some(min), Some(max)) if min > max => Err(self.min_above_max("length")),
            _ => Ok(()),
        }
    }

    /// Bounds that are numbers, the smaller first, and a step above zero.
    fn check_numbers(&self) -> Result<(), DefinitionError> {
        let (min, max) = (self.min_text(), self.max_text());
        for (option, value) in [("min", &min), ("max", &max)] {
            if let Some(value) = value.as_deref().filter(|v| !rules::is_number(v)) {
                return Err(self.bad_setting(option, value));
            }
        }
        if let Some(step) = self.step.as_ref().map(Param::text) {
            if !is_positive_number(&step) {
                return Err(self.bad_setting("step", &step));
            }
        }
        match (&min, &max) {
            (Some(min), Some(max)) if as_number(min) > as_number(max) => {
                Err(self.min_above_max("value"))
            }
            _ => Ok(()),
        }
    }

    /// Bounds that are real dates (`YYYY-MM-DD`; the original's relative dates, such
    /// as `today`, would make the schema change by the day), the earlier first, and
    /// days of the week from 1 to 7.
    fn check_dates(&self) -> Result<(), DefinitionError> {
        let (min, max) = (self.min_text(), self.max_text());
        for (option, value) in [("min", &min), ("max", &max)] {
            if let Some(value) = value.as_deref().filter(|v| !rules::date(&[*v])) {
                return Err(self.bad_setting(option, value));
            }
        }
        if let Some(day) = self.days_of_week.iter().find(|d| !(1..=7).contains(*d)) {
            return Err(self.bad_setting("days_of_week", &day.to_string()));
        }
        match (&min, &max) {
            (Some(min), Some(max)) if min > max => Err(self.min_above_max("date")),
            _ => Ok(()),
        }
    }

    /// A field starts with options it has, and with no more values than it takes.
    fn check_defaults(&self) -> Result<(), DefinitionError> {
        let bad = |value: &str| {
            Err(DefinitionError::BadDefault {
                name: self.name.clone(),
                value: value.to_string(),
            })
        };
        let Some(first) = self.default.first() else {
            return Ok(());
        };
        if !self.kind.takes_default() {
            return bad(first);
        }
        let one_value = match self.kind {
            FieldKind::Select => !self.multiple,
            FieldKind::Checkbox => self.exclusive,
            _ => true,
        };
        if one_value && self.default.len() > 1 {
            return bad(&self.default[1]);
        }
        if self.kind.has_options() {
            if let Some(unknown) = self.default.iter().find(|v| !self.options.contains(v)) {
                return bad(unknown);
            }
        }
        Ok(())
    }

    /// `min` as written, with a range's own default.
    fn min_text(&self) -> Option<String> {
        let default = (self.kind == FieldKind::Range).then(|| RANGE_MIN.to_string());
        self.min.as_ref().map(Param::text).or(default)
    }

    /// `max` as written, with a range's own default.
    fn max_text(&self) -> Option<String> {
        let default = (self.kind == FieldKind::Range).then(|| RANGE_MAX.to_string());
        self.max.as_ref().map(Param::text).or(default)
    }
}

/// The rules a form publishes (`contact-forms/{id}/feedback/schema`) and each
/// submission is checked against, field by field in the form's order; each field's
/// rules come in the original's order (required, its kind, lengths, bounds, steps,
/// allowed values, files). The original groups rules by kind of field rather than by
/// field; a field's outcome is the same either way, and this order lists broken fields
/// as the visitor reads them. Acceptance boxes and quizzes have no rules here: they
/// are checked on their own (`acceptance_missing`, `quiz_invalid_fields`).
pub fn schema(def: &FormDefinition, locale: &str) -> Schema {
    let mut rules = Vec::new();
    for field in &def.fields {
        push_field_rules(field, &def.messages, &mut rules);
    }
    Schema {
        version: SCHEMA_VERSION.to_string(),
        locale: locale.to_string(),
        rules,
    }
}

fn push_field_rules(field: &Field, messages: &Messages, rules: &mut Vec<Rule>) {
    let check = |error: &str| Check {
        field: field.name.clone(),
        error: error.to_string(),
    };
    let limit = |threshold: Param, error: &str| Limit {
        field: field.name.clone(),
        error: error.to_string(),
        threshold: Some(threshold),
    };
    let accept = |accept: Vec<Param>, error: &str| Accept {
        field: field.name.clone(),
        error: error.to_string(),
        accept,
    };
    let count = |n: u64| Param::Number(n.into());
    let text = Param::Text;

    let kind = field.kind;
    let radio = kind == FieldKind::Radio;
    if radio || (field.required && !matches!(kind, FieldKind::Acceptance | FieldKind::Quiz)) {
        let required = check(&messages.invalid_required);
        rules.push(if kind == FieldKind::File {
            Rule::RequiredFile(required)
        } else {
            Rule::Required(required)
        });
    }
    match kind {
        FieldKind::Email => rules.push(Rule::Email(check(&messages.invalid_email))),
        FieldKind::Url => rules.push(Rule::Url(check(&messages.invalid_url))),
        FieldKind::Tel => rules.push(Rule::Tel(check(&messages.invalid_tel))),
        FieldKind::Number | FieldKind::Range => {
            rules.push(Rule::Number(check(&messages.invalid_number)))
        }
        FieldKind::Date => rules.push(Rule::Date(check(&messages.invalid_date))),
        FieldKind::Time => rules.push(Rule::Time(check(&messages.invalid_time))),
        _ => {}
    }
    if kind.has_length() {
        if let Some(min) = field.min_length.filter(|&n| n > 0) {
            let min = limit(count(min.into()), &messages.invalid_too_short);
            rules.push(Rule::MinLength(min));
        }
        let default = if kind == FieldKind::Textarea {
            TEXTAREA_MAX_LENGTH
        } else {
            TEXT_MAX_LENGTH
        };
        let max = field.max_length.filter(|&n| n > 0).unwrap_or(default);
        let max = limit(count(max.into()), &messages.invalid_too_long);
        rules.push(Rule::MaxLength(max));
    }
    if kind.is_numeric() {
        let min = field.min_text();
        if let Some(min) = min.clone() {
            rules.push(Rule::MinNumber(limit(
                text(min),
                &messages.number_too_small,
            )));
        }
        if let Some(max) = field.max_text() {
            rules.push(Rule::MaxNumber(limit(
                text(max),
                &messages.number_too_large,
            )));
        }
        if let Some(step) = &field.step {
            // Steps count from the minimum, as the browser's number inputs count them.
            rules.push(Rule::StepNumber(Step {
                field: field.name.clone(),
                error: messages.number_off_step.clone(),
                base: min.map(text),
                interval: Some(text(step.text())),
            }));
        }
    }
    if kind == FieldKind::Date {
        if let Some(min) = field.min_text() {
            rules.push(Rule::MinDate(limit(text(min), &messages.date_too_early)));
        }
        if let Some(max) = field.max_text() {
            rules.push(Rule::MaxDate(limit(text(max), &messages.date_too_late)));
        }
        if !field.days_of_week.is_empty() {
            let days = field
                .days_of_week
                .iter()
                .map(|&d| count(d.into()))
                .collect();
            rules.push(Rule::DayOfWeek(accept(days, &messages.day_not_allowed)));
        }
    }
    let single = match kind {
        // The original sets no limit on a single select; a browser never sends two
        // choices from one, so only a forged request meets this rule.
        FieldKind::Select => !field.multiple,
        FieldKind::Checkbox => field.exclusive,
        FieldKind::Radio => true,
        _ => false,
    };
    if single {
        rules.push(Rule::MaxItems(limit(count(1), &messages.too_many_items)));
    }
    if kind.has_options() && !(field.free_text && kind != FieldKind::Select) {
        let values = choices(field).into_iter().map(text).collect();
        rules.push(Rule::Enum(accept(values, &messages.invalid_choice)));
    }
    if kind == FieldKind::File {
        let types = file_types(&field.accept).into_iter().map(text).collect();
        rules.push(Rule::File(accept(
            types,
            &messages.upload_file_type_invalid,
        )));
        let bytes = field.limit.unwrap_or(FILE_LIMIT);
        let max = limit(count(bytes), &messages.upload_file_too_large);
        rules.push(Rule::MaxFileSize(max));
    }
}

/// The values a choice field may send: its options but a select's prompt, each once,
/// no empty one.
fn choices(field: &Field) -> Vec<String> {
    let skip = usize::from(field.kind == FieldKind::Select && field.first_as_label);
    let mut values: Vec<String> = Vec::new();
    for option in field.options.iter().skip(skip) {
        if !option.is_empty() && !values.contains(option) {
            values.push(option.clone());
        }
    }
    values
}

/// A file field's types as the schema (and the input's `accept`) lists them, as the
/// original writes them: extensions with their dot, whole families only for audio,
/// video and images, media types as given.
fn file_types(accept: &[String]) -> Vec<String> {
    if accept.iter().all(|entry| entry.trim().is_empty()) {
        return DEFAULT_FILE_TYPES.map(String::from).to_vec();
    }
    let mut types: Vec<String> = Vec::new();
    let entries = accept
        .iter()
        .flat_map(|entry| entry.split(|c: char| c.is_whitespace() || c == ',' || c == '|'))
        .map(str::to_lowercase);
    for entry in entries {
        let entry = match entry.split_once('/') {
            None => format!(".{}", entry.trim_matches('.')),
            Some((family, "*")) if !WHOLE_FAMILIES.contains(&family) => continue,
            Some(_) => entry,
        };
        if entry != "." && !types.contains(&entry) {
            types.push(entry);
        }
    }
    types
}

/// Whether a box was ticked: sent with a value, `0` counting as none, as the original
/// reads it.
fn is_ticked(form: &FormData, name: &str) -> bool {
    form.values(name).iter().any(|value| *value != "0")
}

/// Whether an acceptance box stands in the way: one that must be ticked and is not,
/// or an inverted one that must be left unticked and is ticked. Optional boxes never
/// do.
pub fn acceptance_missing(def: &FormDefinition, form: &FormData) -> bool {
    def.fields
        .iter()
        .filter(|field| field.kind == FieldKind::Acceptance && !field.optional)
        .any(|field| is_ticked(form, &field.name) == field.invert)
}

/// Whether the honeypot, which people never see, was filled in.
pub fn is_spam(def: &FormDefinition, form: &FormData) -> bool {
    def.honeypot
        .as_deref()
        .is_some_and(|name| !form.values(name).is_empty())
}

/// The hidden field that carries a quiz's token, named as the original names it.
pub fn quiz_token_field(name: &str) -> String {
    format!("_wpcf7_quiz_answer_{name}")
}

/// The text input that carries the words of a free-text choice, named as the original
/// names it.
pub fn free_text_field(name: &str) -> String {
    format!("_wpcf7_free_text_{name}")
}

/// A token naming question `question_index` of a quiz, for the hidden field beside
/// it: a keyed hash (HMAC-SHA-256 under the server's `secret`) of the field's name,
/// the question's place and its text. The page never holds an answer, and a token
/// cannot be made for a question without the secret; a token stops working when its
/// question is edited. `None` when the quiz has no such question.
pub fn quiz_token(secret: &[u8], field: &Field, question_index: usize) -> Option<String> {
    let question = field.questions.get(question_index)?;
    let index = question_index.to_string();
    let message = encode_parts(&["contact-form-quiz", &field.name, &index, &question.question]);
    Some(hex::encode(hmac_sha256(secret, &message)))
}

/// Whether `answer` answers the question `token` names: the token must be one of the
/// quiz's (checked in constant time) and the answer one of that question's, compared
/// without case or whitespace, as the original compares them.
pub fn check_quiz(secret: &[u8], field: &Field, token: &str, answer: &str) -> bool {
    if field.kind != FieldKind::Quiz {
        return false;
    }
    let asked = (0..field.questions.len()).find(|&index| {
        quiz_token(secret, field, index)
            .is_some_and(|expected| bool::from(expected.as_bytes().ct_eq(token.as_bytes())))
    });
    let Some(question) = asked.and_then(|index| field.questions.get(index)) else {
        return false;
    };
    let answer = canonical_answer(answer);
    !answer.is_empty()
        && question
            .answers
            .iter()
            .any(|right| canonical_answer(right) == answer)
}

/// The quizzes answered wrong (or whose token was missing or forged), each with the
/// message to show by it, in the form's order.
pub fn quiz_invalid_fields(
    def: &FormDefinition,
    form: &FormData,
    secret: &[u8],
) -> Vec<InvalidField> {
    def.fields
        .iter()
        .filter(|field| field.kind == FieldKind::Quiz)
        .filter(|field| {
            let token = form.values(&quiz_token_field(&field.name)).join("");
            let answer = form.values(&field.name).join(" ");
            !check_quiz(secret, field, &token, &answer)
        })
        .map(|field| InvalidField {
            field: field.name.clone(),
            message: def.messages.quiz_answer_not_correct.clone(),
        })
        .collect()
}

/// An answer as it is compared: lower case, with no whitespace anywhere.
fn canonical_answer(text: &str) -> String {
    text.chars()
        .filter(|c| !rules::is_blank_char(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every field that breaks a rule of the form's schema or answers its quiz wrong, with
/// its message; empty when the form may be sent.
pub fn invalid_fields(
    def: &FormDefinition,
    form: &FormData,
    quiz_secret: &[u8],
) -> Vec<InvalidField> {
    let mut invalid = validate(&schema(def, ""), form);
    for quiz in quiz_invalid_fields(def, form, quiz_secret) {
        if !invalid.iter().any(|known| known.field == quiz.field) {
            invalid.push(quiz);
        }
    }
    invalid
}

/// What becomes of a submission before any mail is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Fields broke rules; each is listed with its message.
    Invalid(Vec<InvalidField>),
    /// An acceptance box was not as it must be.
    Unaccepted,
    /// The honeypot was filled in.
    Spam,
    /// Nothing stands in the way of mailing it.
    Clean,
}

impl Verdict {
    /// The status the feedback response carries, or `None` when the mail decides it
    /// (`mail_sent` or `mail_failed`).
    pub fn status(&self) -> Option<&'static str> {
        match self {
            Self::Invalid(_) => Some("validation_failed"),
            Self::Unaccepted => Some("acceptance_missing"),
            Self::Spam => Some("spam"),
            Self::Clean => None,
        }
    }

    /// The message the feedback response carries, from the form's messages.
    pub fn message<'m>(&self, messages: &'m Messages) -> Option<&'m str> {
        match self {
            Self::Invalid(_) => Some(&messages.validation_error),
            Self::Unaccepted => Some(&messages.accept_terms),
            Self::Spam => Some(&messages.spam),
            Self::Clean => None,
        }
    }
}

/// Judges a submission in the original's order: broken rules, then acceptance, then
/// spam. A visitor who got something wrong hears about it before anything else.
pub fn verdict(def: &FormDefinition, form: &FormData, quiz_secret: &[u8]) -> Verdict {
    let invalid = invalid_fields(def, form, quiz_secret);
    if !invalid.is_empty() {
        Verdict::Invalid(invalid)
    } else if acceptance_missing(def, form) {
        Verdict::Unaccepted
    } else if is_spam(def, form) {
        Verdict::Spam
    } else {
        Verdict::Clean
    }
}

/// What a submission sent, field by field in the form's order, as the shop stores and
/// mails it: only the definition's fields (never the hidden `_...` ones, nor a quiz's
/// answer, which the original neither stores nor mails), urls with the scheme the
/// browser would have added, files by name, an acceptance box as what was agreed to
/// or not, and a free-text choice with the visitor's words after it. A field sent
/// empty is listed with no values, so its mail tag comes out empty.
pub fn posted_inputs(def: &FormDefinition, form: &FormData) -> Vec<(String, Vec<String>)> {
    def.fields
        .iter()
        .filter(|field| !field.name.starts_with('_') && field.kind != FieldKind::Quiz)
        .map(|field| (field.name.clone(), input_values(field, form)))
        .collect()
}

fn input_values(field: &Field, form: &FormData) -> Vec<String> {
    let sent = || form.values(&field.name).into_iter().map(String::from);
    match field.kind {
        FieldKind::Url => sent().map(|value| normalize_url(&value)).collect(),
        FieldKind::File => form
            .files(&field.name)
            .into_iter()
            .map(|file| file.name.clone())
            .collect(),
        FieldKind::Acceptance => {
            let consent = if is_ticked(form, &field.name) {
                "Consented"
            } else {
                "Not consented"
            };
            let content = field.content.trim();
            vec![if content.is_empty() {
                consent.to_string()
            } else {
                format!("{consent}: {content}")
            }]
        }
        FieldKind::Checkbox | FieldKind::Radio if field.free_text => {
            let mut values: Vec<String> = sent().collect();
            // Only the last option has the text input; a forged one on another choice
            // is ignored.
            let with_text = field.options.last();
            if let Some(last) = values.last_mut().filter(|last| Some(&**last) == with_text) {
                let words = form.values(&free_text_field(&field.name)).join(" ");
                *last = format!("{last} {words}").trim().to_string();
            }
            values
        }
        _ => sent().collect(),
    }
}

/// A digest of the inputs (hex SHA-256), the same for the same inputs only: each name
/// and value is written with its length before it, so no two lists encode alike.
pub fn posted_data_hash(inputs: &[(String, Vec<String>)]) -> String {
    let mut hasher = Sha256::new();
    hasher.update((inputs.len() as u64).to_be_bytes());
    for (name, values) in inputs {
        hasher.update(encode_parts(&[name]));
        hasher.update((values.len() as u64).to_be_bytes());
        for value in values {
            hasher.update(encode_parts(&[value]));
        }
    }
    hex::encode(hasher.finalize())
}

/// Parts written one after another, each after its length in bytes, so that no two
/// lists of parts encode alike.
fn encode_parts(parts: &[&str]) -> Vec<u8> {
    let mut encoded = Vec::new();
    for part in parts {
        encoded.extend_from_slice(&(part.len() as u64).to_be_bytes());
        encoded.extend_from_slice(part.as_bytes());
    }
    encoded
}

/// HMAC-SHA-256 of `message` under `key`.
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// The values of the special tags, `[_site_title]` and the like, for one submission.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Specials {
    pub site_title: String,
    pub site_url: String,
    /// The shop's own address, where its mail goes.
    pub site_admin_email: String,
    /// When the form was sent, as the shop writes dates and times.
    pub date: String,
    pub time: String,
    pub remote_ip: String,
    /// The page the form was sent from.
    pub url: String,
    /// The title of that page.
    pub post_title: String,
}

impl Specials {
    fn get(&self, tag: &str) -> Option<&str> {
        Some(match tag {
            "_site_title" => &self.site_title,
            "_site_url" => &self.site_url,
            "_site_admin_email" => &self.site_admin_email,
            "_date" => &self.date,
            "_time" => &self.time,
            "_remote_ip" => &self.remote_ip,
            "_url" => &self.url,
            "_post_title" => &self.post_title,
            _ => return None,
        })
    }
}

/// A mail ready to send: tags replaced, headers made safe.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComposedMail {
    /// The recipients as the template wrote them; the sender checks each address.
    pub to: String,
    pub from_name: String,
    pub subject: String,
    pub body: String,
    /// The address answers go to, when the template's came out as a valid one.
    pub reply_to: Option<String>,
}

/// Fills in a mail template: `[field-name]` becomes what was sent (several values
/// joined with ", "), a special tag its value from `specials`, `[[tag]]` a literal
/// `[tag]`; any other tag stays as written, as the original leaves it. What was sent
/// is never read for tags itself. The header parts (recipient, sender name, subject,
/// reply-to) lose their line breaks and other control characters, so no value can add
/// a header; the body keeps its lines.
pub fn compose(
    template: &MailTemplate,
    inputs: &[(String, Vec<String>)],
    specials: &Specials,
) -> ComposedMail {
    let lookup = |tag: &str| -> Option<String> {
        inputs
            .iter()
            .find(|(name, _)| name == tag)
            .map(|(_, values)| values.join(", ").trim().to_string())
            .or_else(|| specials.get(tag).map(str::to_string))
    };
    let header = |text: &str| header_value(&replace_tags(text, &lookup).text);
    let reply_to = header(&template.reply_to);
    ComposedMail {
        to: header(&template.recipient),
        from_name: header(&template.sender_name),
        subject: header(&template.subject),
        body: compose_body(&template.body, template.exclude_blank, &lookup),
        reply_to: crate::address::locale::is_valid_email(&reply_to).then_some(reply_to),
    }
}

/// The body, line by line; with `exclude_blank`, a line whose tags all came out empty
/// is left out (a line without tags stays).
fn compose_body(
    body: &str,
    exclude_blank: bool,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> String {
    body.split('\n')
        .map(|line| replace_tags(line, lookup))
        .filter(|line| !exclude_blank || !line.replaced_any || line.filled_any)
        .map(|line| line.text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A text with its tags replaced, and whether any were and any came out non-empty.
struct Replaced {
    text: String,
    replaced_any: bool,
    filled_any: bool,
}

fn replace_tags(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Replaced {
    let mut out = Replaced {
        text: String::with_capacity(text.len()),
        replaced_any: false,
        filled_any: false,
    };
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.text.push_str(&rest[..open]);
        rest = &rest[open..];
        // `[[tag]]` is written as `[tag]`, untouched.
        if let Some((_, len)) = rest.get(1..).and_then(parse_tag) {
            if rest[1 + len..].starts_with(']') {
                out.text.push_str(&rest[1..1 + len]);
                rest = &rest[len + 2..];
                continue;
            }
        }
        match parse_tag(rest) {
            Some((name, len)) => {
                match lookup(name) {
                    Some(value) => {
                        out.replaced_any = true;
                        out.filled_any |= !value.is_empty();
                        out.text.push_str(&value);
                    }
                    None => out.text.push_str(&rest[..len]),
                }
                rest = &rest[len..];
            }
            None => {
                out.text.push('[');
                rest = &rest[1..];
            }
        }
    }
    out.text.push_str(rest);
    out
}

/// A tag at the start of `text`, `[name]` with spaces or tabs allowed inside the
/// brackets, the name as the original's mail tags have it
/// (`[a-zA-Z_][0-9a-zA-Z:._-]*`): the name and the tag's length.
fn parse_tag(text: &str) -> Option<(&str, usize)> {
    let inner = text.strip_prefix('[')?;
    let name_start = inner.len() - inner.trim_start_matches([' ', '\t']).len();
    let from_name = &inner[name_start..];
    if !from_name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let name_len = from_name
        .find(|c: char| !(c.is_ascii_alphanumeric() || ":._-".contains(c)))
        .unwrap_or(from_name.len());
    let name = &from_name[..name_len];
    let after = &from_name[name_len..];
    let spaces = after.len() - after.trim_start_matches([' ', '\t']).len();
    after[spaces..].starts_with(']').then(|| {
        let len = 1 + name_start + name_len + spaces + 1;
        (name, len)
    })
}

/// A value safe in a mail header: every control character (line breaks, tabs, the
/// C1 controls) and Unicode line or paragraph separator becomes a space, then runs of
/// whitespace become one and the ends are trimmed.
fn header_value(text: &str) -> String {
    let spaced: String = text
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                ' '
            } else {
                c
            }
        })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The original's first form, "Contact form 1", with an acceptance box added: name,
/// address and subject required, the message optional, mailed to the shop with the
/// visitor's address to reply to.
pub fn demo_form() -> FormDefinition {
    let field = |kind, name: &str, label: &str, required| Field {
        label: label.to_string(),
        required,
        ..Field::new(kind, name)
    };
    FormDefinition {
        title: "Contact form 1".to_string(),
        fields: vec![
            Field {
                autocomplete: Some("name".to_string()),
                ..field(FieldKind::Text, "your-name", "Your name", true)
            },
            Field {
                autocomplete: Some("email".to_string()),
                ..field(FieldKind::Email, "your-email", "Your email", true)
            },
            field(FieldKind::Text, "your-subject", "Subject", true),
            field(
                FieldKind::Textarea,
                "your-message",
                "Your message (optional)",
                false,
            ),
            Field {
                content: "I agree that the shop keeps my message to answer it.".to_string(),
                ..Field::new(FieldKind::Acceptance, "your-consent")
            },
        ],
        mail: MailTemplate {
            recipient: "[_site_admin_email]".to_string(),
            sender_name: "[_site_title]".to_string(),
            subject: "[_site_title] \"[your-subject]\"".to_string(),
            body: "From: [your-name] [your-email]\n\
                   Subject: [your-subject]\n\
                   \n\
                   Message Body:\n\
                   [your-message]\n\
                   \n\
                   -- \n\
                   This is a notification that a contact form was submitted on your \
                   website ([_site_title] [_site_url])."
                .to_string(),
            reply_to: "[your-email]".to_string(),
            exclude_blank: false,
        },
        auto_reply: None,
        messages: Messages::default(),
        honeypot: None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::contact::schema::UploadedFile;

    const SECRET: &[u8] = b"the shop's quiz secret";

    fn form(pairs: &[(&str, &str)]) -> FormData {
        let mut form = FormData::new();
        for (name, value) in pairs {
            form.append(name, *value);
        }
        form
    }

    fn definition(fields: Vec<Field>) -> FormDefinition {
        FormDefinition {
            fields,
            mail: MailTemplate {
                recipient: "[_site_admin_email]".into(),
                ..MailTemplate::default()
            },
            ..FormDefinition::default()
        }
    }

    fn choice(kind: FieldKind, name: &str, options: &[&str]) -> Field {
        Field {
            options: options.iter().map(|o| o.to_string()).collect(),
            ..Field::new(kind, name)
        }
    }

    fn quiz(name: &str) -> Field {
        Field {
            questions: vec![
                QuizQuestion {
                    question: "What colour is the sky on a clear day?".into(),
                    answers: vec!["Blue".into(), "light blue".into()],
                },
                QuizQuestion {
                    question: "How many legs has a cat?".into(),
                    answers: vec!["4".into(), "four".into()],
                },
            ],
            ..Field::new(FieldKind::Quiz, name)
        }
    }

    fn rules_json(def: &FormDefinition) -> serde_json::Value {
        serde_json::to_value(schema(def, "en_US").rules).expect("serialisable")
    }

    fn specials() -> Specials {
        Specials {
            site_title: "Ferroshop".into(),
            site_url: "https://shop.test".into(),
            site_admin_email: "shop@shop.test".into(),
            date: "2024-07-01".into(),
            time: "10:30".into(),
            remote_ip: "192.0.2.7".into(),
            url: "https://shop.test/contact/".into(),
            post_title: "Contact".into(),
        }
    }

    fn inputs(pairs: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
        pairs
            .iter()
            .map(|(name, values)| {
                let values = values.iter().map(|v| v.to_string()).collect();
                (name.to_string(), values)
            })
            .collect()
    }

    fn template(body: &str) -> MailTemplate {
        MailTemplate {
            body: body.into(),
            ..MailTemplate::default()
        }
    }

    // Definitions

    #[test]
    fn the_demo_form_is_the_originals_first_form_with_a_consent_box() {
        let demo = demo_form();
        assert_eq!(demo.check(), Ok(()));
        assert_eq!(demo.title, "Contact form 1");
        let names: Vec<&str> = demo.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "your-name",
                "your-email",
                "your-subject",
                "your-message",
                "your-consent"
            ]
        );
        let consent = demo.field("your-consent").expect("a consent box");
        assert_eq!(consent.kind, FieldKind::Acceptance);
        assert!(!consent.optional && !consent.invert);
        assert_eq!(
            consent.content,
            "I agree that the shop keeps my message to answer it."
        );
        assert_eq!(demo.mail.recipient, "[_site_admin_email]");
        assert_eq!(demo.mail.subject, "[_site_title] \"[your-subject]\"");
        assert_eq!(demo.mail.reply_to, "[your-email]");
        assert_eq!(demo.auto_reply, None);
    }

    #[test]
    fn the_demo_form_publishes_the_rules_the_original_publishes_for_it() {
        let required = "Please fill out this field.";
        let too_long = "This field has a too long input.";
        assert_eq!(
            rules_json(&demo_form()),
            json!([
                {"rule": "required", "field": "your-name", "error": required},
                {"rule": "maxlength", "field": "your-name", "error": too_long, "threshold": 400},
                {"rule": "required", "field": "your-email", "error": required},
                {"rule": "email", "field": "your-email", "error": "Please enter an email address."},
                {"rule": "maxlength", "field": "your-email", "error": too_long, "threshold": 400},
                {"rule": "required", "field": "your-subject", "error": required},
                {"rule": "maxlength", "field": "your-subject", "error": too_long, "threshold": 400},
                {"rule": "maxlength", "field": "your-message", "error": too_long, "threshold": 2000},
            ])
        );
        let published = schema(&demo_form(), "de_DE");
        assert_eq!(published.version, "Contact Form 7 SWV Schema 2024-02");
        assert_eq!(published.locale, "de_DE");
    }

    #[test]
    fn a_stored_definition_reads_with_unknown_settings_and_missing_messages() {
        let stored = json!({
            "title": "Returns",
            "layout": "two-columns",
            "fields": [
                {"type": "text", "name": "order", "required": true, "size": 40, "maxlength": 20},
                {"type": "file", "name": "photo", "filetypes": ["image/*"], "limit": 2048},
                {"type": "number", "name": "items", "min": 1, "max": "10", "step": 1},
            ],
            "mail": {"recipient": "returns@shop.test", "subject": "Return [order]", "cc": "x"},
            "messages": {"mail_sent_ok": "Thanks, we will be in touch."},
        });
        let def: FormDefinition = serde_json::from_value(stored).expect("a definition");
        assert_eq!(def.check(), Ok(()));
        assert_eq!(def.fields[0].max_length, Some(20));
        assert_eq!(def.fields[1].accept, ["image/*"]);
        assert_eq!(def.fields[1].limit, Some(2048));
        assert_eq!(
            def.fields[2].min.as_ref().map(Param::text).as_deref(),
            Some("1")
        );
        assert_eq!(def.messages.mail_sent_ok, "Thanks, we will be in touch.");
        assert_eq!(def.messages.invalid_required, "Please fill out this field.");
        assert_eq!(def.honeypot, None);

        let written = serde_json::to_value(&def).expect("serialisable");
        assert_eq!(
            written["fields"][0],
            json!({"type": "text", "name": "order", "required": true, "maxlength": 20})
        );
        let read: FormDefinition = serde_json::from_value(written).expect("a definition");
        assert_eq!(read, def);
    }

    #[test]
    fn messages_default_to_the_originals_texts_and_each_may_be_replaced() {
        let messages = Messages::default();
        assert_eq!(
            messages.mail_sent_ok,
            "Thank you for your message. It has been sent."
        );
        assert_eq!(
            messages.mail_sent_ng,
            "There was an error trying to send your message. Please try again later."
        );
        assert_eq!(messages.spam, messages.mail_sent_ng);
        assert_eq!(
            messages.validation_error,
            "One or more fields have an error. Please check and try again."
        );
        assert_eq!(
            messages.accept_terms,
            "You must accept the terms and conditions before sending your message."
        );
        assert_eq!(
            messages.invalid_too_short,
            "This field has a too short input."
        );
        assert_eq!(
            messages.upload_file_too_large,
            "The uploaded file is too large."
        );
        assert_eq!(
            messages.invalid_date,
            "Please enter a date in YYYY-MM-DD format."
        );
        assert_eq!(
            messages.number_too_large,
            "This field has a too large number."
        );
        assert_eq!(
            messages.quiz_answer_not_correct,
            "The answer to the quiz is incorrect."
        );
        assert_eq!(messages.invalid_tel, "Please enter a telephone number.");

        let def = FormDefinition {
            messages: Messages {
                invalid_required: "Bitte ausfüllen.".into(),
                ..Messages::default()
            },
            ..demo_form()
        };
        let published = schema(&def, "de_DE");
        assert_eq!(
            validate(&published, &form(&[]))[0].message,
            "Bitte ausfüllen."
        );
    }

    #[test]
    fn duplicate_field_names_are_refused() {
        let mut def = demo_form();
        def.fields.push(Field::new(FieldKind::Email, "your-email"));
        assert_eq!(
            def.check(),
            Err(DefinitionError::DuplicateName {
                name: "your-email".into()
            })
        );
    }

    #[test]
    fn field_names_start_with_a_letter_and_hold_only_letters_digits_hyphens_and_underscores() {
        let check = |name: &str| definition(vec![Field::new(FieldKind::Text, name)]).check();
        assert_eq!(check(""), Err(DefinitionError::EmptyName { index: 0 }));
        for bad in ["_wpcf7", "1st", "your name", "menu[]", "a:b", "a.b", "é"] {
            assert_eq!(
                check(bad),
                Err(DefinitionError::BadName { name: bad.into() }),
                "{bad}"
            );
        }
        for good in ["a", "your-name", "Field_2"] {
            assert_eq!(check(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn choice_fields_need_options_and_quizzes_answerable_questions() {
        for kind in [FieldKind::Select, FieldKind::Checkbox, FieldKind::Radio] {
            let def = definition(vec![choice(kind, "pick", &["", " "])]);
            assert_eq!(
                def.check(),
                Err(DefinitionError::NoOptions {
                    name: "pick".into()
                })
            );
        }
        let def = definition(vec![Field::new(FieldKind::Quiz, "quiz")]);
        assert_eq!(
            def.check(),
            Err(DefinitionError::NoQuestions {
                name: "quiz".into()
            })
        );
        let mut unanswerable = quiz("quiz");
        unanswerable.questions[1].answers = vec![" ".into()];
        assert_eq!(
            definition(vec![unanswerable]).check(),
            Err(DefinitionError::BadQuestion {
                name: "quiz".into(),
                index: 1
            })
        );
        assert_eq!(definition(vec![quiz("quiz")]).check(), Ok(()));
    }

    #[test]
    fn sizes_and_bounds_must_make_sense() {
        let check = |field: Field| definition(vec![field]).check();
        let bad = |option: &'static str, value: &str| {
            Err(DefinitionError::BadSetting {
                name: "f".into(),
                option,
                value: value.into(),
            })
        };
        let min_above_max = |option| {
            Err(DefinitionError::MinAboveMax {
                name: "f".into(),
                option,
            })
        };
        let text = |text: &str| Some(Param::Text(text.into()));
        let field = Field::new;

        assert_eq!(
            check(Field {
                max_length: Some(0),
                ..field(FieldKind::Textarea, "f")
            }),
            bad("maxlength", "0")
        );
        assert_eq!(
            check(Field {
                min_length: Some(10),
                max_length: Some(5),
                ..field(FieldKind::Text, "f")
            }),
            min_above_max("length")
        );
        assert_eq!(
            check(Field {
                min: text("ten"),
                ..field(FieldKind::Number, "f")
            }),
            bad("min", "ten")
        );
        assert_eq!(
            check(Field {
                min: text("10"),
                max: text("9.5"),
                ..field(FieldKind::Number, "f")
            }),
            min_above_max("value")
        );
        // A range's maximum is 100 unless set.
        assert_eq!(
            check(Field {
                min: text("150"),
                ..field(FieldKind::Range, "f")
            }),
            min_above_max("value")
        );
        for step in ["0", "-1", "x"] {
            assert_eq!(
                check(Field {
                    step: text(step),
                    ..field(FieldKind::Number, "f")
                }),
                bad("step", step)
            );
        }
        assert_eq!(
            check(Field {
                step: text("0.5"),
                ..field(FieldKind::Range, "f")
            }),
            Ok(())
        );
        assert_eq!(
            check(Field {
                min: text("2024-02-30"),
                ..field(FieldKind::Date, "f")
            }),
            bad("min", "2024-02-30")
        );
        assert_eq!(
            check(Field {
                max: text("today"),
                ..field(FieldKind::Date, "f")
            }),
            bad("max", "today")
        );
        assert_eq!(
            check(Field {
                min: text("2024-07-02"),
                max: text("2024-07-01"),
                ..field(FieldKind::Date, "f")
            }),
            min_above_max("date")
        );
        assert_eq!(
            check(Field {
                days_of_week: vec![1, 8],
                ..field(FieldKind::Date, "f")
            }),
            bad("days_of_week", "8")
        );
        assert_eq!(
            check(Field {
                limit: Some(0),
                ..field(FieldKind::File, "f")
            }),
            bad("limit", "0")
        );
        // Settings a kind does not use are ignored.
        assert_eq!(
            check(Field {
                min: text("x"),
                limit: Some(0),
                ..field(FieldKind::Text, "f")
            }),
            Ok(())
        );
    }

    #[test]
    fn a_field_starts_only_with_values_it_can_take() {
        let bad = |value: &str| {
            Err(DefinitionError::BadDefault {
                name: "f".into(),
                value: value.into(),
            })
        };
        let with_default = |field: Field, default: &[&str]| {
            let default = default.iter().map(|d| d.to_string()).collect();
            definition(vec![Field { default, ..field }]).check()
        };
        let sizes = || choice(FieldKind::Select, "f", &["S", "M", "L"]);
        assert_eq!(with_default(sizes(), &["M"]), Ok(()));
        assert_eq!(with_default(sizes(), &["XL"]), bad("XL"));
        assert_eq!(with_default(sizes(), &["S", "M"]), bad("M"));
        assert_eq!(
            with_default(
                Field {
                    multiple: true,
                    ..sizes()
                },
                &["S", "M"]
            ),
            Ok(())
        );
        let boxes = || choice(FieldKind::Checkbox, "f", &["a", "b"]);
        assert_eq!(with_default(boxes(), &["a", "b"]), Ok(()));
        assert_eq!(
            with_default(
                Field {
                    exclusive: true,
                    ..boxes()
                },
                &["a", "b"]
            ),
            bad("b")
        );
        assert_eq!(
            with_default(Field::new(FieldKind::Text, "f"), &["Hello"]),
            Ok(())
        );
        assert_eq!(
            with_default(Field::new(FieldKind::Acceptance, "f"), &["1"]),
            bad("1")
        );
    }

    #[test]
    fn the_honeypot_needs_a_name_of_its_own_and_the_mail_a_recipient() {
        let with_honeypot = |name: &str| FormDefinition {
            honeypot: Some(name.into()),
            ..demo_form()
        };
        assert_eq!(with_honeypot("your-website").check(), Ok(()));
        for bad in ["your-name", "_hp", ""] {
            assert_eq!(
                with_honeypot(bad).check(),
                Err(DefinitionError::BadHoneypot { name: bad.into() })
            );
        }
        let mut def = demo_form();
        def.mail.recipient = "  ".into();
        assert_eq!(def.check(), Err(DefinitionError::NoRecipient));
    }

    // The schema

    #[test]
    fn numbers_dates_and_times_publish_their_kind_bounds_and_steps() {
        let text = |text: &str| Some(Param::Text(text.into()));
        let def = definition(vec![
            Field {
                required: true,
                min: text("1"),
                max: text("10"),
                step: text("0.5"),
                ..Field::new(FieldKind::Number, "guests")
            },
            Field {
                step: text("5"),
                ..Field::new(FieldKind::Range, "volume")
            },
            Field {
                min: text("2024-07-01"),
                max: text("2024-12-31"),
                days_of_week: vec![1, 2, 3, 4, 5],
                ..Field::new(FieldKind::Date, "visit")
            },
            Field::new(FieldKind::Time, "at"),
        ]);
        let m = Messages::default();
        assert_eq!(
            rules_json(&def),
            json!([
                {"rule": "required", "field": "guests", "error": m.invalid_required},
                {"rule": "number", "field": "guests", "error": m.invalid_number},
                {"rule": "minnumber", "field": "guests", "error": m.number_too_small, "threshold": "1"},
                {"rule": "maxnumber", "field": "guests", "error": m.number_too_large, "threshold": "10"},
                {"rule": "stepnumber", "field": "guests", "error": m.number_off_step, "base": "1", "interval": "0.5"},
                {"rule": "number", "field": "volume", "error": m.invalid_number},
                {"rule": "minnumber", "field": "volume", "error": m.number_too_small, "threshold": "0"},
                {"rule": "maxnumber", "field": "volume", "error": m.number_too_large, "threshold": "100"},
                {"rule": "stepnumber", "field": "volume", "error": m.number_off_step, "base": "0", "interval": "5"},
                {"rule": "date", "field": "visit", "error": m.invalid_date},
                {"rule": "mindate", "field": "visit", "error": m.date_too_early, "threshold": "2024-07-01"},
                {"rule": "maxdate", "field": "visit", "error": m.date_too_late, "threshold": "2024-12-31"},
                {"rule": "dayofweek", "field": "visit", "error": m.day_not_allowed, "accept": [1, 2, 3, 4, 5]},
                {"rule": "time", "field": "at", "error": m.invalid_time},
            ])
        );
        let published = schema(&def, "en_US");
        let invalid = |pairs: &[(&str, &str)]| -> Vec<String> {
            validate(&published, &form(pairs))
                .into_iter()
                .map(|f| f.message)
                .collect()
        };
        assert_eq!(
            invalid(&[("guests", "2.5"), ("visit", "2024-07-05"), ("at", "09:15")]),
            Vec::<String>::new()
        );
        assert_eq!(
            invalid(&[
                ("guests", "2.25"),
                ("volume", "7"),
                ("visit", "2024-07-06"),
                ("at", "9:15")
            ]),
            [
                m.number_off_step.as_str(),
                &m.number_off_step,
                &m.day_not_allowed,
                &m.invalid_time
            ]
        );
    }

    #[test]
    fn text_fields_publish_their_kind_and_lengths() {
        let def = definition(vec![
            Field {
                min_length: Some(0),
                ..Field::new(FieldKind::Url, "site")
            },
            Field {
                required: true,
                min_length: Some(6),
                max_length: Some(20),
                ..Field::new(FieldKind::Tel, "phone")
            },
        ]);
        let m = Messages::default();
        assert_eq!(
            rules_json(&def),
            json!([
                {"rule": "url", "field": "site", "error": m.invalid_url},
                {"rule": "maxlength", "field": "site", "error": m.invalid_too_long, "threshold": 400},
                {"rule": "required", "field": "phone", "error": m.invalid_required},
                {"rule": "tel", "field": "phone", "error": m.invalid_tel},
                {"rule": "minlength", "field": "phone", "error": m.invalid_too_short, "threshold": 6},
                {"rule": "maxlength", "field": "phone", "error": m.invalid_too_long, "threshold": 20},
            ])
        );
    }

    #[test]
    fn choices_publish_their_values_and_how_many_may_be_chosen() {
        let def = definition(vec![
            Field {
                required: true,
                first_as_label: true,
                include_blank: true,
                ..choice(
                    FieldKind::Select,
                    "size",
                    &["Pick a size", "S", "M", "M", ""],
                )
            },
            Field {
                multiple: true,
                ..choice(FieldKind::Select, "colours", &["red", "blue"])
            },
            Field {
                exclusive: true,
                ..choice(FieldKind::Checkbox, "reply", &["mail", "phone"])
            },
            Field {
                required: true,
                free_text: true,
                ..choice(FieldKind::Checkbox, "topics", &["orders", "other"])
            },
            choice(FieldKind::Radio, "when", &["morning", "evening"]),
        ]);
        let m = Messages::default();
        assert_eq!(
            rules_json(&def),
            json!([
                {"rule": "required", "field": "size", "error": m.invalid_required},
                {"rule": "maxitems", "field": "size", "error": m.too_many_items, "threshold": 1},
                {"rule": "enum", "field": "size", "error": m.invalid_choice, "accept": ["S", "M"]},
                {"rule": "enum", "field": "colours", "error": m.invalid_choice, "accept": ["red", "blue"]},
                {"rule": "maxitems", "field": "reply", "error": m.too_many_items, "threshold": 1},
                {"rule": "enum", "field": "reply", "error": m.invalid_choice, "accept": ["mail", "phone"]},
                {"rule": "required", "field": "topics", "error": m.invalid_required},
                {"rule": "required", "field": "when", "error": m.invalid_required},
                {"rule": "maxitems", "field": "when", "error": m.too_many_items, "threshold": 1},
                {"rule": "enum", "field": "when", "error": m.invalid_choice, "accept": ["morning", "evening"]},
            ])
        );
    }

    #[test]
    fn an_exclusive_checkbox_takes_one_box_at_most() {
        let def = definition(vec![Field {
            exclusive: true,
            ..choice(FieldKind::Checkbox, "reply", &["mail", "phone"])
        }]);
        let published = schema(&def, "en_US");
        assert_eq!(validate(&published, &form(&[])), vec![]);
        assert_eq!(validate(&published, &form(&[("reply", "phone")])), vec![]);
        assert_eq!(
            validate(
                &published,
                &form(&[("reply[]", "mail"), ("reply[]", "phone")])
            ),
            vec![InvalidField {
                field: "reply".into(),
                message: "Too many items are selected.".into()
            }]
        );
        assert_eq!(
            validate(&published, &form(&[("reply", "fax")]))[0].message,
            "Undefined value was submitted through this field."
        );
    }

    #[test]
    fn file_fields_publish_their_types_and_size_limit() {
        let def = definition(vec![
            Field {
                required: true,
                accept: vec![
                    "PDF, .docx|application/pdf".into(),
                    "application/* image/*".into(),
                ],
                limit: Some(2048),
                ..Field::new(FieldKind::File, "invoice")
            },
            Field::new(FieldKind::File, "photo"),
        ]);
        let m = Messages::default();
        assert_eq!(
            rules_json(&def),
            json!([
                {"rule": "requiredfile", "field": "invoice", "error": m.invalid_required},
                {"rule": "file", "field": "invoice", "error": m.upload_file_type_invalid,
                 "accept": [".pdf", ".docx", "application/pdf", "image/*"]},
                {"rule": "maxfilesize", "field": "invoice", "error": m.upload_file_too_large, "threshold": 2048},
                {"rule": "file", "field": "photo", "error": m.upload_file_type_invalid,
                 "accept": ["audio/*", "video/*", "image/*"]},
                {"rule": "maxfilesize", "field": "photo", "error": m.upload_file_too_large, "threshold": 1_048_576},
            ])
        );
    }

    #[test]
    fn acceptance_boxes_and_quizzes_publish_no_rules() {
        let def = definition(vec![
            Field {
                required: true,
                ..Field::new(FieldKind::Acceptance, "terms")
            },
            Field {
                required: true,
                ..quiz("quiz")
            },
        ]);
        assert_eq!(schema(&def, "en_US").rules, vec![]);
    }

    // Submission checks

    #[test]
    fn acceptance_is_missing_until_every_required_box_is_as_it_must_be() {
        let def = definition(vec![
            Field::new(FieldKind::Acceptance, "terms"),
            Field {
                invert: true,
                ..Field::new(FieldKind::Acceptance, "no-newsletter")
            },
            Field {
                optional: true,
                ..Field::new(FieldKind::Acceptance, "maybe")
            },
        ]);
        assert!(acceptance_missing(&def, &form(&[])));
        assert!(!acceptance_missing(&def, &form(&[("terms", "1")])));
        assert!(!acceptance_missing(
            &def,
            &form(&[("terms", "1"), ("maybe", "1")])
        ));
        assert!(acceptance_missing(
            &def,
            &form(&[("terms", "1"), ("no-newsletter", "1")])
        ));
        assert!(acceptance_missing(&def, &form(&[("terms", "0")])));
        assert!(acceptance_missing(&def, &form(&[("terms", "  ")])));
        assert!(!acceptance_missing(&definition(vec![]), &form(&[])));
    }

    #[test]
    fn a_filled_in_honeypot_is_spam() {
        let def = FormDefinition {
            honeypot: Some("your-website".into()),
            ..demo_form()
        };
        assert!(!is_spam(&def, &form(&[("your-name", "Ada")])));
        assert!(!is_spam(&def, &form(&[("your-website", " ")])));
        assert!(is_spam(
            &def,
            &form(&[("your-website", "http://spam.test")])
        ));
        assert!(!is_spam(&demo_form(), &form(&[("your-website", "x")])));
    }

    #[test]
    fn hmac_is_the_one_rfc_4231_describes() {
        let hex_mac = |key: &[u8], data: &[u8]| hex::encode(hmac_sha256(key, data));
        assert_eq!(
            hex_mac(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex_mac(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            ),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn a_quiz_token_names_one_question_of_one_quiz_under_one_secret() {
        let field = quiz("quiz");
        let token = quiz_token(SECRET, &field, 0).expect("a question");
        assert_eq!(token.len(), 64);
        assert_eq!(quiz_token(SECRET, &field, 0), Some(token.clone()));
        assert_ne!(quiz_token(SECRET, &field, 1), Some(token.clone()));
        assert_ne!(quiz_token(SECRET, &quiz("quiz-2"), 0), Some(token.clone()));
        assert_ne!(
            quiz_token(b"another secret", &field, 0),
            Some(token.clone())
        );
        assert_eq!(quiz_token(SECRET, &field, 2), None);
        for question in &field.questions {
            for answer in &question.answers {
                assert!(!token.contains(&hex::encode(answer)));
            }
        }
    }

    #[test]
    fn a_quiz_answer_is_right_whatever_its_case_and_spacing() {
        let field = quiz("quiz");
        let sky = quiz_token(SECRET, &field, 0).expect("a question");
        let cat = quiz_token(SECRET, &field, 1).expect("a question");
        assert!(check_quiz(SECRET, &field, &sky, "blue"));
        assert!(check_quiz(SECRET, &field, &sky, "  BLUE \n"));
        assert!(check_quiz(SECRET, &field, &sky, "Light Blue"));
        assert!(check_quiz(SECRET, &field, &sky, "lightblue"));
        assert!(check_quiz(SECRET, &field, &cat, "Four"));
        assert!(!check_quiz(SECRET, &field, &sky, "four"));
        assert!(!check_quiz(SECRET, &field, &cat, "blue"));
        assert!(!check_quiz(SECRET, &field, &sky, "   "));
        assert!(!check_quiz(SECRET, &field, &sky, "blue-ish"));
    }

    #[test]
    fn a_forged_missing_or_stale_quiz_token_fails_whatever_the_answer() {
        let field = quiz("quiz");
        let sky = quiz_token(SECRET, &field, 0).expect("a question");
        assert!(!check_quiz(SECRET, &field, "", "blue"));
        assert!(!check_quiz(SECRET, &field, &"0".repeat(64), "blue"));
        assert!(!check_quiz(SECRET, &field, &sky[..63], "blue"));
        assert!(!check_quiz(SECRET, &field, &sky.to_uppercase(), "blue"));
        let elsewhere = quiz_token(b"another secret", &field, 0).expect("a question");
        assert!(!check_quiz(SECRET, &field, &elsewhere, "blue"));
        let other_quiz = quiz_token(SECRET, &quiz("quiz-2"), 0).expect("a question");
        assert!(!check_quiz(SECRET, &field, &other_quiz, "blue"));
        let mut edited = field.clone();
        edited.questions[0].question = "What colour is the sea?".into();
        assert!(!check_quiz(SECRET, &edited, &sky, "blue"));
        let mut not_a_quiz = field.clone();
        not_a_quiz.kind = FieldKind::Text;
        assert!(!check_quiz(SECRET, &not_a_quiz, &sky, "blue"));
    }

    #[test]
    fn quizzes_answered_wrong_are_invalid_fields_with_their_message() {
        let def = definition(vec![quiz("quiz"), Field::new(FieldKind::Text, "name")]);
        let token = quiz_token(SECRET, &def.fields[0], 1).expect("a question");
        let token_field = quiz_token_field("quiz");
        assert_eq!(token_field, "_wpcf7_quiz_answer_quiz");
        let right = form(&[("quiz", "4"), (&token_field, &token)]);
        assert_eq!(quiz_invalid_fields(&def, &right, SECRET), vec![]);
        let wrong = form(&[("quiz", "5"), (&token_field, &token)]);
        let expected = vec![InvalidField {
            field: "quiz".into(),
            message: "The answer to the quiz is incorrect.".into(),
        }];
        assert_eq!(quiz_invalid_fields(&def, &wrong, SECRET), expected);
        assert_eq!(
            quiz_invalid_fields(&def, &form(&[("quiz", "4")]), SECRET),
            expected
        );
    }

    #[test]
    fn a_submission_is_judged_on_its_fields_then_acceptance_then_spam() {
        let def = FormDefinition {
            honeypot: Some("hp".into()),
            fields: demo_form()
                .fields
                .into_iter()
                .chain([quiz("quiz")])
                .collect(),
            ..demo_form()
        };
        let token = quiz_token(SECRET, &def.fields[5], 0).expect("a question");
        let token_field = quiz_token_field("quiz");
        let filled = [
            ("your-name", "Ada"),
            ("your-email", "ada@example.com"),
            ("your-subject", "Sizes"),
            ("quiz", "blue"),
            (token_field.as_str(), token.as_str()),
        ];
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut pairs = filled.to_vec();
            pairs.extend_from_slice(extra);
            form(&pairs)
        };

        let clean = verdict(&def, &with(&[("your-consent", "1")]), SECRET);
        assert_eq!(clean, Verdict::Clean);
        assert_eq!(clean.status(), None);
        assert_eq!(clean.message(&def.messages), None);

        let unaccepted = verdict(&def, &with(&[("hp", "spam")]), SECRET);
        assert_eq!(unaccepted, Verdict::Unaccepted);
        assert_eq!(unaccepted.status(), Some("acceptance_missing"));
        assert_eq!(
            unaccepted.message(&def.messages),
            Some(def.messages.accept_terms.as_str())
        );

        let spam = verdict(
            &def,
            &with(&[("your-consent", "1"), ("hp", "spam")]),
            SECRET,
        );
        assert_eq!(spam, Verdict::Spam);
        assert_eq!(spam.status(), Some("spam"));

        let mut broken = form(&[("your-email", "ada@"), ("quiz", "green"), ("hp", "spam")]);
        broken.append(&token_field, token.clone());
        let invalid = verdict(&def, &broken, SECRET);
        assert_eq!(invalid.status(), Some("validation_failed"));
        assert_eq!(
            invalid.message(&def.messages),
            Some("One or more fields have an error. Please check and try again.")
        );
        let Verdict::Invalid(fields) = invalid else {
            panic!("an invalid submission");
        };
        let fields: Vec<(&str, &str)> = fields
            .iter()
            .map(|f| (f.field.as_str(), f.message.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                ("your-name", "Please fill out this field."),
                ("your-email", "Please enter an email address."),
                ("your-subject", "Please fill out this field."),
                ("quiz", "The answer to the quiz is incorrect."),
            ]
        );
    }

    // Inputs

    #[test]
    fn inputs_are_the_forms_own_fields_as_stored_and_mailed() {
        let def = definition(vec![
            Field::new(FieldKind::Text, "name"),
            Field::new(FieldKind::Url, "site"),
            Field::new(FieldKind::File, "photo"),
            quiz("quiz"),
            Field {
                content: "I accept the terms.".into(),
                ..Field::new(FieldKind::Acceptance, "terms")
            },
            Field::new(FieldKind::Acceptance, "news"),
            Field {
                multiple: true,
                ..choice(FieldKind::Select, "colours", &["red", "blue"])
            },
            Field::new(FieldKind::Textarea, "message"),
            // Never valid, but a definition read without checking must not leak it.
            Field::new(FieldKind::Text, "_secret"),
        ]);
        let mut sent = form(&[
            ("name", "  Ada  "),
            ("site", "//example.com/shop"),
            ("quiz", "blue"),
            ("_wpcf7_quiz_answer_quiz", "abc"),
            ("_wpcf7", "7"),
            ("terms", "1"),
            ("colours[]", "red"),
            ("colours[]", "blue"),
            ("_secret", "x"),
            ("unknown", "y"),
        ]);
        let file = |name: &str, size| UploadedFile {
            name: name.into(),
            size,
            media_type: "image/png".into(),
        };
        sent.append_file("photo", file("", 0));
        sent.append_file("photo", file("cat.png", 300));
        assert_eq!(
            posted_inputs(&def, &sent),
            inputs(&[
                ("name", &["Ada"]),
                ("site", &["http://example.com/shop"]),
                ("photo", &["cat.png"]),
                ("terms", &["Consented: I accept the terms."]),
                ("news", &["Not consented"]),
                ("colours", &["red", "blue"]),
                ("message", &[]),
            ])
        );
    }

    #[test]
    fn a_free_text_choice_takes_any_value_and_keeps_the_visitors_words() {
        let def = definition(vec![Field {
            free_text: true,
            ..choice(FieldKind::Radio, "heard", &["A friend", "Other"])
        }]);
        let published = schema(&def, "en_US");
        let text_field = free_text_field("heard");
        assert_eq!(text_field, "_wpcf7_free_text_heard");
        let other = form(&[("heard", "Other"), (&text_field, " a podcast ")]);
        assert_eq!(validate(&published, &other), vec![]);
        assert_eq!(
            posted_inputs(&def, &other),
            inputs(&[("heard", &["Other a podcast"])])
        );
        let friend = form(&[("heard", "A friend"), (&text_field, "forged")]);
        assert_eq!(
            posted_inputs(&def, &friend),
            inputs(&[("heard", &["A friend"])])
        );
        let no_words = form(&[("heard", "Other")]);
        assert_eq!(
            posted_inputs(&def, &no_words),
            inputs(&[("heard", &["Other"])])
        );
    }

    #[test]
    fn the_posted_data_hash_tells_apart_inputs_that_join_alike() {
        let hash = |pairs: &[(&str, &[&str])]| posted_data_hash(&inputs(pairs));
        let one = hash(&[("name", &["Ada"]), ("topics", &["a", "b"])]);
        assert_eq!(one.len(), 64);
        assert!(one.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(one, hash(&[("name", &["Ada"]), ("topics", &["a", "b"])]));
        assert_ne!(one, hash(&[("name", &["Ada"]), ("topics", &["a, b"])]));
        assert_ne!(one, hash(&[("name", &["Ada"]), ("topics", &["ab"])]));
        assert_ne!(one, hash(&[("topics", &["a", "b"]), ("name", &["Ada"])]));
        assert_ne!(hash(&[("ab", &["c"])]), hash(&[("a", &["bc"])]));
        assert_ne!(hash(&[("a", &[])]), hash(&[("a", &[""])]));
        assert_ne!(hash(&[]), hash(&[("", &[])]));
    }

    // Mails

    #[test]
    fn the_demo_mail_tells_the_shop_who_wrote_and_what() {
        let sent = form(&[
            ("your-name", "Ada Lovelace"),
            ("your-email", "ada@example.com"),
            ("your-subject", "Sizes"),
            ("your-message", "Do the boots come in 38?\r\nThanks"),
            ("your-consent", "1"),
        ]);
        let def = demo_form();
        let mail = compose(&def.mail, &posted_inputs(&def, &sent), &specials());
        assert_eq!(
            mail,
            ComposedMail {
                to: "shop@shop.test".into(),
                from_name: "Ferroshop".into(),
                subject: "Ferroshop \"Sizes\"".into(),
                body: "From: Ada Lovelace ada@example.com\n\
                       Subject: Sizes\n\
                       \n\
                       Message Body:\n\
                       Do the boots come in 38?\r\nThanks\n\
                       \n\
                       -- \n\
                       This is a notification that a contact form was submitted on your \
                       website (Ferroshop https://shop.test)."
                    .into(),
                reply_to: Some("ada@example.com".into()),
            }
        );
    }

    #[test]
    fn no_submitted_value_can_add_a_header() {
        let template = MailTemplate {
            recipient: "[to]".into(),
            sender_name: "[name] via [_site_title]".into(),
            subject: "Re: [subject]".into(),
            body: "[subject]".into(),
            reply_to: "[email]".into(),
            exclude_blank: false,
        };
        let sent = inputs(&[
            ("to", &["shop@shop.test\r\nBcc: everyone@example.com"]),
            ("name", &["Eve\nX-Spam: no"]),
            (
                "subject",
                &["Hi\r\nBcc: victim@example.com\u{85}\u{2028}Cc: x@example.com\u{0}"],
            ),
            ("email", &["eve@example.com\r\nBcc: victim@example.com"]),
        ]);
        let mail = compose(&template, &sent, &specials());
        assert_eq!(mail.to, "shop@shop.test Bcc: everyone@example.com");
        assert_eq!(mail.from_name, "Eve X-Spam: no via Ferroshop");
        assert_eq!(
            mail.subject,
            "Re: Hi Bcc: victim@example.com Cc: x@example.com"
        );
        for header in [&mail.to, &mail.from_name, &mail.subject] {
            assert!(!header.chars().any(|c| c.is_control()), "{header:?}");
        }
        assert_eq!(mail.reply_to, None);
        // The body is no header: it keeps its lines.
        assert!(mail.body.contains("\r\nBcc: victim@example.com"));
    }

    #[test]
    fn reply_to_is_kept_only_when_it_is_an_address() {
        let reply_to = |value: &str| {
            let template = MailTemplate {
                reply_to: "[email]".into(),
                ..MailTemplate::default()
            };
            compose(&template, &inputs(&[("email", &[value])]), &specials()).reply_to
        };
        assert_eq!(
            reply_to("  ada@example.com "),
            Some("ada@example.com".into())
        );
        assert_eq!(reply_to("ada@example"), None);
        assert_eq!(reply_to(""), None);
        assert_eq!(reply_to("ada@example.com, eve@example.com"), None);
        let none = compose(&MailTemplate::default(), &[], &specials());
        assert_eq!(none.reply_to, None);
    }

    #[test]
    fn tags_are_replaced_once_and_unknown_ones_left_as_written() {
        let sent = inputs(&[
            ("name", &["Ada"]),
            ("topics", &["orders", "returns"]),
            ("message", &["Send it to [_site_admin_email] and [name]"]),
            ("empty", &[]),
        ]);
        let body = "[name] ([ topics\t]) [unknown] [_user_agent] [[name]] [name [x] []\n\
                    [message]\n\
                    [empty]|[_remote_ip] [_url] [_post_title] [_date] [_time]";
        let mail = compose(&template(body), &sent, &specials());
        assert_eq!(
            mail.body,
            "Ada (orders, returns) [unknown] [_user_agent] [name] [name [x] []\n\
             Send it to [_site_admin_email] and [name]\n\
             |192.0.2.7 https://shop.test/contact/ Contact 2024-07-01 10:30"
        );
    }

    #[test]
    fn blank_lines_are_left_out_only_when_the_template_asks() {
        let sent = inputs(&[("name", &["Ada"]), ("phone", &[]), ("company", &[""])]);
        let body =
            "Name: [name]\nPhone: [phone]\nCompany: [company] [phone]\nUnknown: [fax]\n\nThanks";
        let kept = compose(&template(body), &sent, &specials());
        assert_eq!(
            kept.body,
            "Name: Ada\nPhone: \nCompany:  \nUnknown: [fax]\n\nThanks"
        );
        let excluded = MailTemplate {
            exclude_blank: true,
            ..template(body)
        };
        let mail = compose(&excluded, &sent, &specials());
        assert_eq!(mail.body, "Name: Ada\nUnknown: [fax]\n\nThanks");
    }
}
