//! What every HTTP surface stands on: the request guard, the Store API frame
//! (sessions, nonces), parameters, JSON answers, the route registry, the classic
//! calls' address, and the OpenAPI description. The router that puts the features
//! together sits above them all, in `router.rs`.

pub mod guard;
pub mod json;
pub mod openapi;
pub mod params;
pub mod path;
pub mod routes;
pub mod store_api;
pub mod wc_ajax;

pub const STORE_API_ROOT: &str = "/wp-json/wc/store/v1";
/// Where the shop's own calls live, beside the Store API.
pub const FERROSHOP_API_ROOT: &str = "/wp-json/ferroshop/v1";
/// The staff API, in the shape of the original shop's REST API v3.
pub const STAFF_API_ROOT: &str = "/wp-json/wc/v3";
