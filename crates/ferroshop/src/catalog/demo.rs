//! The demo catalogue loaded by `ferroshop serve --demo`.

use super::model::CatalogData;

pub fn demo_catalog() -> CatalogData {
    CatalogData::default()
}
