//! The catalogue: products, taxonomies, images, and the snapshot the shop lists from.

pub mod csv;
pub mod index;
pub mod model;
