//! Per-country address rules: the country list, each country's states, the address
//! fields with their labels, required flags and order, and the checks the original shop
//! runs on an address at checkout. One data file, `data/address-locale.json` (built by
//! `scripts/address-data.py` from the original shop's checkout page), feeds both this
//! server and the storefront, which fetches it from the shop's `address-locale` call.

mod country;
pub mod data;
mod email;
mod fields;
mod phone;
mod postcode;
mod validate;

pub use country::{
    countries, country_name, normalize_state, states, CountryCode, StateList, UnknownCountry,
};
pub use data::{locale_etag, locale_json};
pub use email::is_valid_email;
pub use fields::{fields, AddressKind, FieldRule, BASE_COUNTRY};
pub use phone::is_valid_phone;
pub use postcode::{format_postcode, is_valid_postcode};
pub use validate::{validate_address, AddressInput, FieldError, Surface};
