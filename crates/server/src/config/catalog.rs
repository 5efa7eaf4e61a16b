//! Settings of the product pages' variation forms: how many variations a product may
//! have and still carry them all in its page, and the stock at or below which a
//! swatch says how many are left.

use serde::Deserialize;

use rules::settings::{bad, ConfigError};

#[derive(Debug, Clone)]
pub struct CatalogConfig {
    /// A product with more variations than this asks for each choice's variation
    /// (`?wc-ajax=get_variation`) instead of carrying them all.
    pub ajax_threshold: usize,
    /// A swatch shows its stock ("Only 3 left in stock") at or below this; 0: never.
    pub stock_label_threshold: i64,
}

impl Default for CatalogConfig {
    fn default() -> Self {
        Self {
            ajax_threshold: 30,
            stock_label_threshold: 5,
        }
    }
}

/// `[catalog]` in the file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogFile {
    ajax_variation_threshold: Option<i64>,
    swatch_stock_threshold: Option<i64>,
}

fn threshold(name: &str, v: i64, max: i64) -> Result<i64, ConfigError> {
    if (0..=max).contains(&v) {
        Ok(v)
    } else {
        Err(bad(name, format!("expected a number from 0 to {max}")))
    }
}

const MAX_EMBEDDED: i64 = 1000;
const MAX_STOCK_LABEL: i64 = 1_000_000;

impl CatalogConfig {
    pub fn apply_file(&mut self, file: CatalogFile) -> Result<(), ConfigError> {
        if let Some(v) = file.ajax_variation_threshold {
            self.ajax_threshold =
                threshold("catalog.ajax_variation_threshold", v, MAX_EMBEDDED)? as usize;
        }
        if let Some(v) = file.swatch_stock_threshold {
            self.stock_label_threshold =
                threshold("catalog.swatch_stock_threshold", v, MAX_STOCK_LABEL)?;
        }
        Ok(())
    }

    pub fn apply_env(&mut self, get: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        let number = |name: &str, max: i64| -> Result<Option<i64>, ConfigError> {
            get(name)
                .map(|v| {
                    let n = v
                        .trim()
                        .parse::<i64>()
                        .map_err(|_| bad(name, format!("expected a number from 0 to {max}")))?;
                    threshold(name, n, max)
                })
                .transpose()
        };
        if let Some(n) = number("FERROSHOP_VARIATION_THRESHOLD", MAX_EMBEDDED)? {
            self.ajax_threshold = n as usize;
        }
        if let Some(n) = number("FERROSHOP_SWATCH_STOCK_THRESHOLD", MAX_STOCK_LABEL)? {
            self.stock_label_threshold = n;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_come_from_the_environment_and_refuse_nonsense() {
        let mut c = CatalogConfig::default();
        assert_eq!((c.ajax_threshold, c.stock_label_threshold), (30, 5));
        c.apply_env(&|name: &str| match name {
            "FERROSHOP_VARIATION_THRESHOLD" => Some("4".into()),
            "FERROSHOP_SWATCH_STOCK_THRESHOLD" => Some("10".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!((c.ajax_threshold, c.stock_label_threshold), (4, 10));
        for bad_value in ["-1", "x", "1001"] {
            let err = c
                .apply_env(&|name: &str| {
                    (name == "FERROSHOP_VARIATION_THRESHOLD").then(|| bad_value.to_string())
                })
                .unwrap_err();
            assert!(
                err.to_string().contains("FERROSHOP_VARIATION_THRESHOLD"),
                "{err}"
            );
        }
    }
}
