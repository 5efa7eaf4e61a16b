//! The contact form's rules against the vectors the browser's copy is held to as well
//! (`tests/vectors/contact-form-rules.json`): each case's submission keeps its rule or
//! breaks it with the rule's own message, and the url normaliser gives what each case
//! expects. Every failing case is reported by name, not just the first.

use std::collections::BTreeMap;

use ferroshop_rules::contact::{normalize_url, validate, FormData, Rule, Schema, UploadedFile};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vectors {
    rules: Vec<Case>,
    normalize_url: Vec<Normalized>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    rule: serde_json::Value,
    #[serde(default)]
    values: Vec<String>,
    #[serde(default)]
    files: Vec<UploadedFile>,
    #[serde(default)]
    fields: BTreeMap<String, Vec<String>>,
    valid: bool,
}

#[derive(Deserialize)]
struct Normalized {
    value: String,
    expected: String,
}

fn vectors() -> Vectors {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/contact-form-rules.json"
    );
    let text = std::fs::read_to_string(path).expect("the shared vectors are in the repository");
    serde_json::from_str(&text).expect("the shared vectors are valid JSON of the documented shape")
}

/// The submission of a case: its values and files under every field its rule reads,
/// or its values by field.
fn form_of(case: &Case, rule: &Rule) -> FormData {
    let mut form = FormData::new();
    for field in rule.fields() {
        for value in &case.values {
            form.append(field, value.as_str());
        }
        for file in &case.files {
            form.append_file(field, file.clone());
        }
    }
    for (field, values) in &case.fields {
        for value in values {
            form.append(field, value.as_str());
        }
    }
    form
}

/// What is wrong with one case, if anything.
fn verdict(case: &Case) -> Option<String> {
    let rule: Rule = match serde_json::from_value(case.rule.clone()) {
        Ok(rule) => rule,
        Err(e) => return Some(format!("the rule does not read: {e}")),
    };
    let expected_message = case
        .rule
        .get("error")
        .and_then(|e| e.as_str())
        .unwrap_or("");
    let schema = Schema {
        rules: vec![rule.clone()],
        ..Schema::default()
    };
    let invalid = validate(&schema, &form_of(case, &rule));
    match (case.valid, invalid.as_slice()) {
        (true, []) => None,
        (false, [only]) if only.message == expected_message => None,
        (true, found) => Some(format!("expected valid, got {found:?}")),
        (false, []) => Some("expected invalid, got valid".to_string()),
        (false, found) => Some(format!(
            "expected the message {expected_message:?} once, got {found:?}"
        )),
    }
}

#[test]
fn every_rule_case_gives_the_expected_verdict() {
    let vectors = vectors();
    assert!(
        vectors.rules.len() >= 190,
        "the vectors hold every rule's cases"
    );
    let failures: Vec<String> = vectors
        .rules
        .iter()
        .filter_map(|case| verdict(case).map(|why| format!("{}: {why}", case.name)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        vectors.rules.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_of_the_schema_has_cases() {
    let vectors = vectors();
    let names = [
        "required",
        "requiredfile",
        "email",
        "url",
        "tel",
        "number",
        "date",
        "time",
        "file",
        "enum",
        "dayofweek",
        "minitems",
        "maxitems",
        "minlength",
        "maxlength",
        "minnumber",
        "maxnumber",
        "mindate",
        "maxdate",
        "minfilesize",
        "maxfilesize",
        "stepnumber",
        "all",
        "any",
    ];
    let thin: Vec<String> = names
        .iter()
        .map(|name| {
            let count = vectors
                .rules
                .iter()
                .filter(|case| case.rule.get("rule").and_then(|r| r.as_str()) == Some(name))
                .count();
            (name, count)
        })
        .filter(|(_, count)| *count < 8)
        .map(|(name, count)| format!("{name}: {count}"))
        .collect();
    assert!(thin.is_empty(), "rules with fewer than 8 cases: {thin:?}");
}

#[test]
fn every_url_is_normalised_as_expected() {
    let failures: Vec<String> = vectors()
        .normalize_url
        .iter()
        .filter(|case| normalize_url(&case.value) != case.expected)
        .map(|case| {
            format!(
                "{:?}: expected {:?}, got {:?}",
                case.value,
                case.expected,
                normalize_url(&case.value)
            )
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
