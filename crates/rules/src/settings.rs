//! Reading a setting's value: the error that names the setting at fault, and the
//! parsers several settings share. The settings themselves belong to the floors that
//! use them.

#[derive(Debug, thiserror::Error)]
#[error("configuration: {setting}: {problem}")]
pub struct ConfigError {
    pub setting: String,
    pub problem: String,
}

/// A refusal naming the setting at fault.
pub fn bad(setting: &str, problem: impl Into<String>) -> ConfigError {
    ConfigError {
        setting: setting.into(),
        problem: problem.into(),
    }
}

pub fn parse_yes_no(setting: &str, value: &str) -> Result<bool, ConfigError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" | "on" => Ok(true),
        "no" | "false" | "0" | "off" => Ok(false),
        _ => Err(bad(setting, "expected yes or no")),
    }
}

/// An environment of the given variables, for the settings' tests.
pub fn test_env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }
}
