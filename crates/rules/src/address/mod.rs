//! A postal address as the Store API sends and shows it, and what the session keeps of
//! the shopper between checkout steps.

pub mod fields;
pub mod locale;
pub mod wallet;

use serde::{Deserialize, Serialize};

/// The Store API's address: every field a string, missing ones empty. Billing addresses
/// carry `email`; shipping ones never show it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Address {
    pub first_name: String,
    pub last_name: String,
    pub company: String,
    pub address_1: String,
    pub address_2: String,
    pub city: String,
    pub state: String,
    pub postcode: String,
    pub country: String,
    pub email: String,
    pub phone: String,
}

/// The field names of an address, in the Store API's order.
pub const ADDRESS_FIELDS: [&str; 11] = [
    "first_name",
    "last_name",
    "company",
    "address_1",
    "address_2",
    "city",
    "state",
    "postcode",
    "country",
    "email",
    "phone",
];

impl Address {
    /// A field by its key; unknown keys read as empty.
    pub fn get(&self, field: &str) -> &str {
        match field {
            "first_name" => &self.first_name,
            "last_name" => &self.last_name,
            "company" => &self.company,
            "address_1" => &self.address_1,
            "address_2" => &self.address_2,
            "city" => &self.city,
            "state" => &self.state,
            "postcode" => &self.postcode,
            "country" => &self.country,
            "email" => &self.email,
            "phone" => &self.phone,
            _ => "",
        }
    }

    pub fn get_mut(&mut self, field: &str) -> Option<&mut String> {
        Some(match field {
            "first_name" => &mut self.first_name,
            "last_name" => &mut self.last_name,
            "company" => &mut self.company,
            "address_1" => &mut self.address_1,
            "address_2" => &mut self.address_2,
            "city" => &mut self.city,
            "state" => &mut self.state,
            "postcode" => &mut self.postcode,
            "country" => &mut self.country,
            "email" => &mut self.email,
            "phone" => &mut self.phone,
            _ => return None,
        })
    }

    pub fn full_name(&self) -> String {
        format!("{} {}", self.first_name.trim(), self.last_name.trim())
            .trim()
            .to_string()
    }

    /// Whether anything is filled in.
    pub fn is_empty(&self) -> bool {
        ADDRESS_FIELDS.iter().all(|f| self.get(f).trim().is_empty())
    }
}

/// What the session remembers of the shopper for checkout: the addresses typed so far
/// and the shipping rate chosen for each package.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CustomerDetails {
    pub billing: Address,
    pub shipping: Address,
    /// Package index → chosen rate id ("flat_rate:1").
    pub chosen_shipping: Vec<String>,
    /// The draft order this cart is being checked out as.
    pub draft_order_id: Option<i64>,
    /// The order the last checkout of this session placed, so a resubmitted checkout
    /// answers with it instead of placing a second one.
    pub last_order: Option<PlacedOrder>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedOrder {
    pub id: i64,
    pub key: String,
    /// The cart hash the order was placed from.
    pub cart_hash: String,
    pub placed_at: i64,
}
