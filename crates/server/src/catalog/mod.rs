//! The catalogue: products, taxonomies and images; the Store API's product calls.

pub mod api;
pub mod art;
pub mod csv;
pub mod demo;
pub mod images;
pub mod variations;
pub mod view;
