//! Countries and their states.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::data::data;

/// A country the shop knows, by its ISO 3166-1 alpha-2 code. Only [`CountryCode::parse`]
/// makes one, so a value that exists names a country of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CountryCode(&'static str);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a valid country code.")]
pub struct UnknownCountry(pub String);

impl CountryCode {
    /// Reads a code as a shopper or a client sends it: surrounding space and letter
    /// case do not matter.
    pub fn parse(raw: &str) -> Result<Self, UnknownCountry> {
        let code = raw.trim().to_ascii_uppercase();
        let data = data();
        if code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase()) {
            if let Some(&i) = data.country_index.get(&code) {
                return Ok(CountryCode(&data.countries[i].0));
            }
        }
        Err(UnknownCountry(raw.trim().to_string()))
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for CountryCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::str::FromStr for CountryCode {
    type Err = UnknownCountry;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CountryCode::parse(s)
    }
}

impl Serialize for CountryCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for CountryCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        CountryCode::parse(&raw).map_err(serde::de::Error::custom)
    }
}

/// Every country with its name, in the original's order (by name).
pub fn countries() -> impl Iterator<Item = (CountryCode, &'static str)> {
    data()
        .countries
        .iter()
        .map(|(code, name)| (CountryCode(code), name.as_str()))
}

pub fn country_name(code: CountryCode) -> &'static str {
    let data = data();
    &data.countries[data.country_index[code.0]].1
}

/// What the state field of an address in a country takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateList {
    /// The data does not know the country's states: any text.
    Unknown,
    /// The country has no states: the field is hidden and stays empty.
    None,
    /// One of these, code → name, in the order to show them.
    Some(&'static [(String, String)]),
}

pub fn states(code: CountryCode) -> StateList {
    match data().states.get(code.0) {
        None => StateList::Unknown,
        Some(list) if list.is_empty() => StateList::None,
        Some(list) => StateList::Some(list),
    }
}

/// The state code for a state given by code or by name, letter case aside, as the
/// original accepts either. `None` when the country has no list or the text matches
/// none of it; callers keep free text for countries without a list.
pub fn normalize_state(country: CountryCode, raw: &str) -> Option<&'static str> {
    match states(country) {
        StateList::Some(list) => match_state(list, raw.trim()),
        StateList::Unknown | StateList::None => None,
    }
}

/// A name match wins over a code match, and of two equal names the later one, as in the
/// original (it flips the name → code map, so later keys overwrite earlier ones).
pub(super) fn match_state(list: &'static [(String, String)], raw: &str) -> Option<&'static str> {
    let wanted = raw.to_uppercase();
    list.iter()
        .rev()
        .find(|(_, name)| name.to_uppercase() == wanted)
        .or_else(|| list.iter().find(|(code, _)| code.to_uppercase() == wanted))
        .map(|(code, _)| code.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(raw: &str) -> CountryCode {
        CountryCode::parse(raw).unwrap()
    }

    #[test]
    fn a_country_code_is_read_without_regard_to_case_or_space() {
        assert_eq!(code(" us ").as_str(), "US");
        assert_eq!(code("gb"), code("GB"));
        assert_eq!(CountryCode::parse("XX"), Err(UnknownCountry("XX".into())));
        assert!(CountryCode::parse("USA").is_err());
        assert!(CountryCode::parse("").is_err());
        assert!(CountryCode::parse("U1").is_err());
        assert_eq!(
            UnknownCountry("XX".into()).to_string(),
            "'XX' is not a valid country code."
        );
    }

    #[test]
    fn country_codes_travel_as_plain_strings() {
        let json = serde_json::to_string(&code("de")).unwrap();
        assert_eq!(json, "\"DE\"");
        let back: CountryCode = serde_json::from_str("\"fr\"").unwrap();
        assert_eq!(back, code("FR"));
        assert!(serde_json::from_str::<CountryCode>("\"ZZ\"").is_err());
    }

    #[test]
    fn names_and_order_follow_the_original_list() {
        assert_eq!(country_name(code("US")), "United States (US)");
        assert_eq!(country_name(code("CI")), "Ivory Coast");
        let first: Vec<_> = countries().take(3).map(|(c, n)| (c.as_str(), n)).collect();
        assert_eq!(
            first,
            [
                ("AF", "Afghanistan"),
                ("AX", "Åland Islands"),
                ("AL", "Albania")
            ]
        );
        assert_eq!(countries().count(), 249);
    }

    #[test]
    fn states_come_in_three_kinds() {
        let StateList::Some(us) = states(code("US")) else {
            panic!("the US has states");
        };
        assert_eq!(us[0], ("AL".to_string(), "Alabama".to_string()));
        assert_eq!(us.len(), 54);
        assert_eq!(states(code("FR")), StateList::None);
        assert_eq!(states(code("GB")), StateList::Unknown);
        assert_eq!(states(code("BA")), StateList::Unknown);
    }

    #[test]
    fn a_state_is_found_by_code_or_by_name() {
        assert_eq!(normalize_state(code("US"), "CA"), Some("CA"));
        assert_eq!(normalize_state(code("US"), "ca"), Some("CA"));
        assert_eq!(normalize_state(code("US"), "california"), Some("CA"));
        assert_eq!(normalize_state(code("US"), "New York"), Some("NY"));
        assert_eq!(normalize_state(code("US"), "Calif."), None);
        assert_eq!(normalize_state(code("AL"), "DIBËR"), Some("AL-09"));
        assert_eq!(normalize_state(code("JP"), "tokyo"), Some("JP13"));
        assert_eq!(normalize_state(code("HK"), "kowloon"), Some("KOWLOON"));
        // No list: nothing to normalise to.
        assert_eq!(normalize_state(code("GB"), "Kent"), None);
        assert_eq!(normalize_state(code("FR"), "Paris"), None);
    }
}
