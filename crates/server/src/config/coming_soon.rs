//! Coming-soon mode: while a shop is being set up, visitors see a coming-soon page and
//! only its staff (signed in) see the shop.

use serde::Deserialize;

use rules::settings::{bad, parse_yes_no, ConfigError};

/// The original's default wording.
pub const DEFAULT_MESSAGE: &str =
    "Pardon our dust! We're working on something amazing — check back soon!";

#[derive(Debug, Clone)]
pub struct ComingSoonConfig {
    pub enabled: bool,
    /// What visitors read under the shop's name.
    pub message: String,
    /// How long search engines are asked to wait before trying again (`Retry-After`).
    pub retry_after_secs: u64,
}

impl Default for ComingSoonConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            message: DEFAULT_MESSAGE.to_string(),
            retry_after_secs: 86_400,
        }
    }
}

/// `[coming_soon]` in the file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComingSoonFile {
    enabled: Option<bool>,
    message: Option<String>,
    retry_after: Option<u64>,
}

const MAX_RETRY_AFTER: u64 = 30 * 86_400;
const MAX_MESSAGE: usize = 1000;

fn message(name: &str, text: &str) -> Result<String, ConfigError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_MESSAGE {
        return Err(bad(name, format!("expected 1 to {MAX_MESSAGE} characters")));
    }
    Ok(text.to_string())
}

fn retry_after(name: &str, secs: u64) -> Result<u64, ConfigError> {
    if (60..=MAX_RETRY_AFTER).contains(&secs) {
        Ok(secs)
    } else {
        Err(bad(
            name,
            format!("expected 60 to {MAX_RETRY_AFTER} seconds"),
        ))
    }
}

impl ComingSoonConfig {
    pub fn apply_file(&mut self, file: ComingSoonFile) -> Result<(), ConfigError> {
        if let Some(v) = file.enabled {
            self.enabled = v;
        }
        if let Some(v) = file.message {
            self.message = message("coming_soon.message", &v)?;
        }
        if let Some(v) = file.retry_after {
            self.retry_after_secs = retry_after("coming_soon.retry_after", v)?;
        }
        Ok(())
    }

    pub fn apply_env(&mut self, get: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = get("FERROSHOP_COMING_SOON") {
            self.enabled = parse_yes_no("FERROSHOP_COMING_SOON", &v)?;
        }
        if let Some(v) = get("FERROSHOP_COMING_SOON_MESSAGE") {
            self.message = message("FERROSHOP_COMING_SOON_MESSAGE", &v)?;
        }
        if let Some(v) = get("FERROSHOP_COMING_SOON_RETRY_AFTER") {
            let secs = v.trim().parse::<u64>().map_err(|_| {
                bad(
                    "FERROSHOP_COMING_SOON_RETRY_AFTER",
                    "expected a number of seconds",
                )
            })?;
            self.retry_after_secs = retry_after("FERROSHOP_COMING_SOON_RETRY_AFTER", secs)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coming_soon_is_off_until_switched_on_and_refuses_nonsense() {
        let mut c = ComingSoonConfig::default();
        assert!(!c.enabled);
        c.apply_env(&|name: &str| match name {
            "FERROSHOP_COMING_SOON" => Some("yes".into()),
            "FERROSHOP_COMING_SOON_MESSAGE" => Some("  Opening in May.  ".into()),
            "FERROSHOP_COMING_SOON_RETRY_AFTER" => Some("3600".into()),
            _ => None,
        })
        .unwrap();
        assert!(c.enabled);
        assert_eq!(c.message, "Opening in May.");
        assert_eq!(c.retry_after_secs, 3600);
        for (name, value) in [
            ("FERROSHOP_COMING_SOON", "maybe"),
            ("FERROSHOP_COMING_SOON_MESSAGE", "   "),
            ("FERROSHOP_COMING_SOON_RETRY_AFTER", "5"),
        ] {
            let err = c
                .apply_env(&|n: &str| (n == name).then(|| value.to_string()))
                .unwrap_err();
            assert!(err.to_string().contains(name), "{err}");
        }
    }
}
