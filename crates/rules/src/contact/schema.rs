//! A contact form's validation schema, as the server publishes it
//! (`contact-forms/{id}/feedback/schema`) and checks each submission against: rules in
//! order, each naming a field and the message shown when the field breaks it, and
//! group rules (`all`, `any`) that hold others. Checking a submission gives each field
//! the message of the first rule it breaks.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::rules;

/// The rules of one form, in the order they are checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub locale: String,
    #[serde(default)]
    pub rules: Vec<Rule>,
}

/// One rule, named by its `rule` key. A rule the shop does not know passes, so a
/// schema written by a newer server never stops a form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "lowercase")]
pub enum Rule {
    Required(Check),
    RequiredFile(Check),
    Email(Check),
    Url(Check),
    Tel(Check),
    Number(Check),
    Date(Check),
    Time(Check),
    /// `accept`: extensions (`.pdf`) and media types (`application/pdf`, `audio/*`).
    File(Accept),
    /// `accept`: the values allowed.
    Enum(Accept),
    /// `accept`: the days allowed, Monday 1 to Sunday 7.
    DayOfWeek(Accept),
    MinItems(Limit),
    MaxItems(Limit),
    MinLength(Limit),
    MaxLength(Limit),
    MinNumber(Limit),
    MaxNumber(Limit),
    /// `threshold`: a date, `YYYY-MM-DD`.
    MinDate(Limit),
    MaxDate(Limit),
    /// `threshold`: bytes, all the field's files together.
    MinFileSize(Limit),
    MaxFileSize(Limit),
    StepNumber(Step),
    /// Every rule inside passes.
    All(Group),
    /// At least one rule inside passes.
    Any(Group),
    #[serde(other)]
    Unknown,
}

/// A rule with nothing to it but its field and message.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Check {
    #[serde(default)]
    pub field: String,
    #[serde(default)]
    pub error: String,
}

/// A rule with a list of what it accepts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Accept {
    #[serde(default)]
    pub field: String,
    #[serde(default)]
    pub error: String,
    #[serde(default)]
    pub accept: Vec<Param>,
}

/// A rule with a threshold. One that is missing or unreadable lets everything pass.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Limit {
    #[serde(default)]
    pub field: String,
    #[serde(default)]
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<Param>,
}

/// Numbers must be `base` (0 when missing) plus a whole number of `interval`s.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    #[serde(default)]
    pub field: String,
    #[serde(default)]
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Param>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Param>,
}

/// Rules checked together. Its message is shown when the group fails, on its own field
/// or, without one, on the field of the rule that failed (`all`) or of its first rule
/// (`any`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Group {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field: String,
    #[serde(default)]
    pub error: String,
    #[serde(default)]
    pub rules: Vec<Rule>,
}

/// A setting of a rule as the schema writes it: a JSON number (`400`, `0.5`) or a
/// string (`"400"`, `"2024-06-01"`); the original writes both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Param {
    Number(serde_json::Number),
    Text(String),
}

impl Param {
    /// The setting as text, a number written as the browser would (`1.0` is `1`).
    pub fn text(&self) -> String {
        match self {
            Param::Text(text) => text.clone(),
            Param::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => i.to_string(),
                (None, Some(f)) => f.to_string(),
                (None, None) => n.to_string(),
            },
        }
    }

    /// The setting as a number, when it is one.
    fn number(&self) -> Option<f64> {
        let text = self.text();
        rules::is_number(&text).then(|| text.parse().ok()).flatten()
    }

    /// The setting as a count (characters, items, bytes): a number with any fraction
    /// dropped, as the original reads it.
    fn count(&self) -> Option<f64> {
        self.number().map(f64::trunc)
    }
}

/// A file sent with the form, as the rules see it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadedFile {
    pub name: String,
    pub size: u64,
    /// The media type the browser declared; kept, but the name decides what it is.
    #[serde(rename = "type", default)]
    pub media_type: String,
}

impl UploadedFile {
    /// A file input left empty is sent as a part with no name and no bytes: no file.
    fn is_chosen(&self) -> bool {
        !rules::trim_blank(&self.name).is_empty() || self.size > 0
    }
}

/// What a form sent: text values and files by field. A field may have several values
/// (a group of checkboxes, a multiple select, several files).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormData {
    values: HashMap<String, Vec<String>>,
    files: HashMap<String, Vec<UploadedFile>>,
}

impl FormData {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a value sent under `name`. A name with brackets (`menu[]`, as checkbox
    /// groups and multiple selects send theirs) is the field before them.
    pub fn append(&mut self, name: &str, value: impl Into<String>) {
        self.values
            .entry(field_of(name).to_string())
            .or_default()
            .push(value.into());
    }

    pub fn append_file(&mut self, name: &str, file: UploadedFile) {
        self.files
            .entry(field_of(name).to_string())
            .or_default()
            .push(file);
    }

    /// The field's values as the rules read them: trimmed, blank ones left out.
    pub fn values(&self, field: &str) -> Vec<&str> {
        self.values
            .get(field)
            .into_iter()
            .flatten()
            .map(|value| rules::trim_blank(value))
            .filter(|value| !value.is_empty())
            .collect()
    }

    /// The files chosen for the field.
    pub fn files(&self, field: &str) -> Vec<&UploadedFile> {
        self.files
            .get(field)
            .into_iter()
            .flatten()
            .filter(|file| file.is_chosen())
            .collect()
    }
}

/// The field a part's name belongs to: `tags[]` is `tags`.
pub fn field_of(name: &str) -> &str {
    name.split('[').next().unwrap_or(name)
}

/// A field that broke a rule, and the message to show by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidField {
    pub field: String,
    pub message: String,
}

/// Checks `form` against every rule of `schema`, in order. Each field that breaks a
/// rule is listed once, with the message of the first rule it breaks, in the order the
/// schema reaches them; an empty list means the form may be sent.
pub fn validate(schema: &Schema, form: &FormData) -> Vec<InvalidField> {
    let mut invalid: Vec<InvalidField> = Vec::new();
    for rule in &schema.rules {
        if let Err(broken) = rule.check(form) {
            if !invalid.iter().any(|known| known.field == broken.field) {
                invalid.push(InvalidField {
                    field: broken.field.to_string(),
                    message: broken.message.to_string(),
                });
            }
        }
    }
    invalid
}

/// A rule a form broke: the field to mark and the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Broken<'s> {
    field: &'s str,
    message: &'s str,
}

impl Rule {
    /// Whether `form` keeps this rule.
    pub fn passes(&self, form: &FormData) -> bool {
        self.check(form).is_ok()
    }

    /// The fields the rule reads, those inside a group included.
    pub fn fields(&self) -> Vec<&str> {
        match self {
            Rule::All(group) | Rule::Any(group) => {
                let own = Some(group.field.as_str()).filter(|field| !field.is_empty());
                let mut fields: Vec<&str> = Vec::new();
                for field in own
                    .into_iter()
                    .chain(group.rules.iter().flat_map(Rule::fields))
                {
                    if !fields.contains(&field) {
                        fields.push(field);
                    }
                }
                fields
            }
            Rule::Unknown => Vec::new(),
            _ => vec![self.field()],
        }
    }

    /// A single (not group) rule's field and message.
    fn own(&self) -> Option<(&str, &str)> {
        match self {
            Rule::Required(c)
            | Rule::RequiredFile(c)
            | Rule::Email(c)
            | Rule::Url(c)
            | Rule::Tel(c)
            | Rule::Number(c)
            | Rule::Date(c)
            | Rule::Time(c) => Some((&c.field, &c.error)),
            Rule::File(a) | Rule::Enum(a) | Rule::DayOfWeek(a) => Some((&a.field, &a.error)),
            Rule::MinItems(l)
            | Rule::MaxItems(l)
            | Rule::MinLength(l)
            | Rule::MaxLength(l)
            | Rule::MinNumber(l)
            | Rule::MaxNumber(l)
            | Rule::MinDate(l)
            | Rule::MaxDate(l)
            | Rule::MinFileSize(l)
            | Rule::MaxFileSize(l) => Some((&l.field, &l.error)),
            Rule::StepNumber(s) => Some((&s.field, &s.error)),
            Rule::All(_) | Rule::Any(_) | Rule::Unknown => None,
        }
    }

    /// The field a failure of this rule is shown on.
    fn field(&self) -> &str {
        match self {
            Rule::All(g) | Rule::Any(g) if !g.field.is_empty() => &g.field,
            Rule::All(g) | Rule::Any(g) => g.rules.first().map_or("", Rule::field),
            _ => self.own().map_or("", |(field, _)| field),
        }
    }

    fn check<'s>(&'s self, form: &FormData) -> Result<(), Broken<'s>> {
        match self {
            Rule::All(group) => group.all(form),
            Rule::Any(group) => group.any(form),
            Rule::Unknown => Ok(()),
            _ if self.holds(form) => Ok(()),
            _ => Err(Broken {
                field: self.field(),
                message: self.error(),
            }),
        }
    }

    fn error(&self) -> &str {
        match self {
            Rule::All(g) | Rule::Any(g) => &g.error,
            _ => self.own().map_or("", |(_, error)| error),
        }
    }

    /// Whether a single (not group) rule holds for its field.
    fn holds(&self, form: &FormData) -> bool {
        let values = || form.values(self.field());
        let files = || form.files(self.field());
        match self {
            Rule::Required(_) => rules::required(&values()),
            Rule::RequiredFile(_) => rules::required_file(&files()),
            Rule::Email(_) => rules::email(&values()),
            Rule::Url(_) => rules::url(&values()),
            Rule::Tel(_) => rules::tel(&values()),
            Rule::Number(_) => rules::number(&values()),
            Rule::Date(_) => rules::date(&values()),
            Rule::Time(_) => rules::time(&values()),
            Rule::File(a) => rules::file(&files(), &texts(&a.accept)),
            Rule::Enum(a) => rules::one_of(&values(), &texts(&a.accept)),
            Rule::DayOfWeek(a) => rules::day_of_week(&values(), &days(&a.accept)),
            Rule::MinItems(l) => with_count(l, |t| rules::min_items(&values(), t)),
            Rule::MaxItems(l) => with_count(l, |t| rules::max_items(&values(), t)),
            Rule::MinLength(l) => with_count(l, |t| rules::min_length(&values(), t)),
            Rule::MaxLength(l) => with_count(l, |t| rules::max_length(&values(), t)),
            Rule::MinNumber(l) => with_number(l, |t| rules::min_number(&values(), t)),
            Rule::MaxNumber(l) => with_number(l, |t| rules::max_number(&values(), t)),
            Rule::MinDate(l) => with_date(l, |t| rules::min_date(&values(), t)),
            Rule::MaxDate(l) => with_date(l, |t| rules::max_date(&values(), t)),
            Rule::MinFileSize(l) => with_count(l, |t| rules::min_file_size(&files(), t)),
            Rule::MaxFileSize(l) => with_count(l, |t| rules::max_file_size(&files(), t)),
            Rule::StepNumber(s) => {
                let base = s.base.as_ref().map_or_else(|| "0".to_string(), Param::text);
                let interval = s.interval.as_ref().map(Param::text).unwrap_or_default();
                rules::step_number(&values(), &base, &interval)
            }
            Rule::All(_) | Rule::Any(_) | Rule::Unknown => true,
        }
    }
}

impl Group {
    fn all<'s>(&'s self, form: &FormData) -> Result<(), Broken<'s>> {
        for rule in &self.rules {
            if let Err(inner) = rule.check(form) {
                return Err(Broken {
                    field: if self.field.is_empty() {
                        inner.field
                    } else {
                        &self.field
                    },
                    message: if self.error.is_empty() {
                        inner.message
                    } else {
                        &self.error
                    },
                });
            }
        }
        Ok(())
    }

    /// An empty group has nothing to fail, like an empty `all`.
    fn any<'s>(&'s self, form: &FormData) -> Result<(), Broken<'s>> {
        if self.rules.is_empty() || self.rules.iter().any(|rule| rule.passes(form)) {
            return Ok(());
        }
        let field = if self.field.is_empty() {
            self.rules.first().map_or("", Rule::field)
        } else {
            &self.field
        };
        Err(Broken {
            field,
            message: &self.error,
        })
    }
}

fn texts(params: &[Param]) -> Vec<String> {
    params.iter().map(Param::text).collect()
}

/// The days of an `accept` list; anything but 1 to 7 is left out.
fn days(params: &[Param]) -> Vec<u8> {
    params
        .iter()
        .filter_map(Param::count)
        .filter(|day| (1.0..=7.0).contains(day))
        .map(|day| day as u8)
        .collect()
}

fn with_count(limit: &Limit, check: impl FnOnce(f64) -> bool) -> bool {
    limit
        .threshold
        .as_ref()
        .and_then(Param::count)
        .is_none_or(check)
}

fn with_number(limit: &Limit, check: impl FnOnce(f64) -> bool) -> bool {
    limit
        .threshold
        .as_ref()
        .and_then(Param::number)
        .is_none_or(check)
}

fn with_date(limit: &Limit, check: impl FnOnce(&str) -> bool) -> bool {
    let threshold = limit.threshold.as_ref().map(Param::text);
    match threshold {
        Some(date) if rules::date(&[&date]) => check(&date),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(json: &str) -> Schema {
        serde_json::from_str(json).expect("a valid schema")
    }

    fn form(pairs: &[(&str, &str)]) -> FormData {
        let mut form = FormData::new();
        for (name, value) in pairs {
            form.append(name, *value);
        }
        form
    }

    const CONTACT: &str = r#"{
        "version": "Contact Form 7 SWV Schema 2024-10",
        "locale": "en_US",
        "rules": [
            {"rule": "required", "field": "your-name", "error": "Please fill out this field."},
            {"rule": "maxlength", "field": "your-name", "threshold": 10, "error": "This field has a too long input."},
            {"rule": "required", "field": "your-email", "error": "Please fill out this field."},
            {"rule": "email", "field": "your-email", "error": "Please enter an email address."},
            {"rule": "maxlength", "field": "your-email", "threshold": "400", "error": "This field has a too long input."},
            {"rule": "tel", "field": "your-phone", "error": "Please enter a telephone number."},
            {"rule": "minitems", "field": "topics", "threshold": 2, "error": "Please pick at least two topics."},
            {"rule": "enum", "field": "topics", "accept": ["orders", "returns", "sizes"], "error": "Please pick from the list."}
        ]
    }"#;

    #[test]
    fn a_filled_in_form_breaks_no_rule() {
        let form = form(&[
            ("your-name", "Ada"),
            ("your-email", "ada@example.com"),
            ("your-phone", ""),
            ("topics[]", "orders"),
            ("topics[]", "sizes"),
        ]);
        assert_eq!(validate(&schema(CONTACT), &form), vec![]);
    }

    #[test]
    fn each_field_gets_the_message_of_the_first_rule_it_breaks_in_schema_order() {
        let form = form(&[
            ("your-name", "Augusta Ada King"),
            ("your-email", "   "),
            ("your-phone", "12345"),
            ("topics[]", "shipping"),
        ]);
        let invalid: Vec<(String, String)> = validate(&schema(CONTACT), &form)
            .into_iter()
            .map(|f| (f.field, f.message))
            .collect();
        let expected = [
            ("your-name", "This field has a too long input."),
            ("your-email", "Please fill out this field."),
            ("your-phone", "Please enter a telephone number."),
            ("topics", "Please pick at least two topics."),
        ];
        assert_eq!(
            invalid,
            expected.map(|(f, m)| (f.to_string(), m.to_string()))
        );
    }

    #[test]
    fn a_later_rule_still_reports_a_field_an_earlier_rule_let_through() {
        let form = form(&[("your-name", "Ada"), ("your-email", "ada@example")]);
        let invalid = validate(&schema(CONTACT), &form);
        assert_eq!(
            invalid,
            vec![InvalidField {
                field: "your-email".into(),
                message: "Please enter an email address.".into()
            }]
        );
    }

    #[test]
    fn a_group_shows_its_own_message_on_its_field_or_on_the_field_that_failed() {
        let schema = schema(
            r#"{"rules": [
                {"rule": "any", "field": "contact", "error": "Give an e-mail address or a phone number.", "rules": [
                    {"rule": "required", "field": "email", "error": "e-mail"},
                    {"rule": "required", "field": "phone", "error": "phone"}
                ]},
                {"rule": "all", "error": "A whole number from 1 to 10.", "rules": [
                    {"rule": "number", "field": "guests", "error": "number"},
                    {"rule": "minnumber", "field": "guests", "threshold": 1, "error": "min"},
                    {"rule": "maxnumber", "field": "guests", "threshold": 10, "error": "max"},
                    {"rule": "stepnumber", "field": "guests", "interval": 1, "error": "step"}
                ]}
            ]}"#,
        );
        let invalid = validate(&schema, &form(&[("guests", "11")]));
        assert_eq!(
            invalid,
            vec![
                InvalidField {
                    field: "contact".into(),
                    message: "Give an e-mail address or a phone number.".into()
                },
                InvalidField {
                    field: "guests".into(),
                    message: "A whole number from 1 to 10.".into()
                },
            ]
        );
        let invalid = validate(&schema, &form(&[("phone", "555 0100 22"), ("guests", "4")]));
        assert_eq!(invalid, vec![]);
    }

    #[test]
    fn files_are_checked_by_name_and_total_size() {
        let schema = schema(
            r#"{"rules": [
                {"rule": "requiredfile", "field": "upload", "error": "Please choose a file."},
                {"rule": "file", "field": "upload", "accept": ["audio/*", ".pdf"], "error": "This file type is not allowed."},
                {"rule": "maxfilesize", "field": "upload", "threshold": 1000, "error": "This file is too large."}
            ]}"#,
        );
        let file = |name: &str, size: u64| UploadedFile {
            name: name.into(),
            size,
            media_type: String::new(),
        };
        let mut form = FormData::new();
        form.append_file("upload", file("", 0));
        assert_eq!(validate(&schema, &form)[0].message, "Please choose a file.");
        form.append_file("upload", file("Song.MP3", 600));
        assert_eq!(validate(&schema, &form), vec![]);
        form.append_file("upload", file("terms.pdf", 600));
        assert_eq!(
            validate(&schema, &form)[0].message,
            "This file is too large."
        );
        let mut form = FormData::new();
        form.append_file("upload", file("setup.exe", 10));
        assert_eq!(
            validate(&schema, &form)[0].message,
            "This file type is not allowed."
        );
    }

    #[test]
    fn unknown_rules_pass_and_settings_may_be_numbers_or_strings() {
        let schema = schema(
            r#"{"rules": [
                {"rule": "captcha", "field": "x", "error": "never"},
                {"rule": "stepnumber", "field": "n", "base": "0.1", "interval": 0.2, "error": "step"},
                {"rule": "dayofweek", "field": "d", "accept": [1, "2"], "error": "weekday"}
            ]}"#,
        );
        assert_eq!(schema.rules[0], Rule::Unknown);
        assert_eq!(
            validate(&schema, &form(&[("n", "0.5"), ("d", "2024-07-02")])),
            vec![]
        );
        let invalid = validate(&schema, &form(&[("n", "0.6"), ("d", "2024-07-03")]));
        let messages: Vec<&str> = invalid.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(messages, ["step", "weekday"]);
    }

    #[test]
    fn a_schema_reads_back_as_it_was_written() {
        let original = schema(CONTACT);
        let written = serde_json::to_string(&original).expect("serialisable");
        assert_eq!(schema(&written), original);
    }
}
