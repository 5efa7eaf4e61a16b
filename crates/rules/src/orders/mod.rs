//! Orders as placed, and the rules of their lifecycle.

pub mod actor;
pub mod lifecycle;
pub mod model;
