//! Who changed an order, as its notes record it.

use std::fmt;

/// Who makes a change, as the order notes record it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor(String);

impl Actor {
    /// The shop itself (checkout, the upkeep sweeps).
    pub fn system() -> Self {
        Self("system".into())
    }

    pub fn command_line() -> Self {
        Self("staff (command line)".into())
    }

    /// A staff API key, by its description and the last characters of the key.
    pub fn api_key(description: &str, truncated_key: &str) -> Self {
        Self(format!("API key '{description}' (…{truncated_key})"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
