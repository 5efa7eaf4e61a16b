//! Product reviews over HTTP: the Store API's review listing, a product page's threaded
//! list and posting (JSON, and the form without scripts), the staff API's reviews,
//! the reviews in a product page's JSON-LD, and the demo shop's reviews. The rules
//! live in `rules::reviews`, the SQL in `store::reviews`.

pub mod api;
pub mod demo;
pub mod forms;
pub mod json_ld;
pub mod service;
pub mod staff;
pub mod view;
