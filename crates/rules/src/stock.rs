//! Live stock figures: what decides whether a product can be added or sold, read
//! fresh from storage rather than from the catalogue snapshot.

use crate::catalog::model::{Backorders, StockStatus};

/// A product's stock as it stands now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockLevel {
    pub manage_stock: bool,
    pub quantity: Option<i64>,
    pub status: StockStatus,
    pub backorders: Backorders,
}
