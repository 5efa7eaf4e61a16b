//! The storefront's built entry page and files, found at start-up.

use std::path::{Path, PathBuf};

/// The storefront's entry page, read once at start-up.
pub struct Pages {
    pub index: Option<String>,
    pub dir: PathBuf,
}

impl Pages {
    pub fn load(dir: &Path) -> Self {
        let index = std::fs::read_to_string(dir.join("index.html")).ok();
        if index.is_none() {
            tracing::warn!(dir = %dir.display(), "no built storefront found; the APIs work, pages show a notice (build with `make web`)");
        }
        Self {
            index,
            dir: dir.to_owned(),
        }
    }
}
