//! Checkout: the services and calls that take a cart through checkout to a placed
//! order (the Store API's and the classic ones over the same services), and the
//! address-locale call. The rules that price an order live in `rules::pricing`.

pub mod accounts;
pub mod ajax;
pub mod api;
pub mod locale_api;
pub mod pay;
pub mod place;
pub mod review_html;
pub mod service;
