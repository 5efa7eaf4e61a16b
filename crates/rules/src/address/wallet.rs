//! Addresses as express-checkout wallets (Apple Pay, Google Pay, Link) hand them over,
//! made into the shop's [`Address`] the way checkout takes them: the state as the shop's
//! code, a redacted postcode marked as such, a full name split in two, and the quirks of
//! Hong Kong and the Emirates. This is what the express checkout's `normalize_address`
//! call answers, and what its shipping estimates are worked out from.

mod names;

use super::locale::{self, AddressKind, CountryCode, StateList};
use super::Address;

/// An address in a wallet's own shape, before it is made into an [`Address`]: the Payment
/// Request API's (`recipient`, `organization`, `addressLine`, `dependentLocality`,
/// `city`, `region`, `postalCode`, `country`, `phone`) or the Express Checkout Element's
/// (`name`, `line1`/`line2`, `state`, `postal_code`). Whoever reads the wallet's JSON
/// fills this from whichever shape it came in; what the wallet left out stays empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalletAddress {
    /// `recipient`, `name` or the payer's name: the whole name in one.
    pub name: String,
    pub organization: String,
    /// `addressLine`, or `[line1, line2]`.
    pub address_lines: Vec<String>,
    /// A part of the city (a district, a village), which only some wallets send apart.
    pub dependent_locality: String,
    pub city: String,
    /// `region` or `state`: the state as the wallet names it.
    pub region: String,
    /// `postalCode` or `postal_code`.
    pub postal_code: String,
    pub country: String,
    pub email: String,
    pub phone: String,
}

impl WalletAddress {
    /// The wallet's fields under the shop's names, otherwise as sent. The first address
    /// line is `address_1`; the others, and the part of the city, share `address_2`
    /// (the shop's form has two lines, and a wallet's third line is still part of the
    /// address). The name is split as [`split_name`] does.
    pub fn to_address(&self) -> Address {
        let (first_name, last_name) = split_name(&self.name);
        let city = tidy(&self.city);
        let mut lines: Vec<String> = self
            .address_lines
            .iter()
            .map(|line| tidy(line))
            .filter(|line| !line.is_empty())
            .collect();
        let locality = tidy(&self.dependent_locality);
        if !locality.is_empty() && locality != city && !lines.contains(&locality) {
            lines.push(locality);
        }
        let mut lines = lines.into_iter();
        let address_1 = lines.next().unwrap_or_default();
        let address_2 = lines.collect::<Vec<_>>().join(", ");
        Address {
            first_name,
            last_name,
            company: tidy(&self.organization),
            address_1,
            address_2,
            city,
            state: tidy(&self.region),
            postcode: tidy(&self.postal_code),
            country: tidy(&self.country),
            email: tidy(&self.email),
            phone: tidy(&self.phone),
        }
    }

    /// [`to_address`](Self::to_address), then [`normalize`].
    pub fn normalized(&self) -> Address {
        normalize(&self.to_address())
    }
}

/// An address from a wallet made ready for checkout:
///
/// - every field trimmed, with runs of whitespace and control characters made one space;
/// - the country code in capitals;
/// - a full name given as only the first or only the last name split as [`split_name`]
///   does;
/// - the second address line moved up when the first is empty (checkout requires the
///   first);
/// - the phone without the brackets, hyphens and spaces wallets format it with;
/// - Hong Kong's region looked for in the state, then the postcode, then the city, and
///   the Emirates' emirate moved from the state to an empty city;
/// - the state as [`normalize_state`] and the postcode as [`normalize_postcode`] give
///   them.
///
/// Applying it twice gives the same address as applying it once.
pub fn normalize(address: &Address) -> Address {
    let mut a = Address {
        first_name: tidy(&address.first_name),
        last_name: tidy(&address.last_name),
        company: tidy(&address.company),
        address_1: tidy(&address.address_1),
        address_2: tidy(&address.address_2),
        city: tidy(&address.city),
        state: tidy(&address.state),
        postcode: tidy(&address.postcode),
        country: tidy(&address.country).to_ascii_uppercase(),
        email: tidy(&address.email),
        phone: without_phone_formatting(&tidy(&address.phone)),
    };
    split_full_name(&mut a);
    if a.address_1.is_empty() {
        a.address_1 = std::mem::take(&mut a.address_2);
    }
    match a.country.as_str() {
        "HK" => place_hong_kong_region(&mut a),
        "AE" => place_emirate(&mut a),
        _ => {}
    }
    a.state = normalize_state(&a.country, &a.state);
    a.postcode = normalize_postcode(&a.country, &a.postcode);
    a
}

/// The shop's code for a state as a wallet names it, for the country's state list.
///
/// The code itself, the shop's name for the state and the wallet's own name for it
/// (Quebec as "Québec", Tokyo as "東京都", Dublin as "Co. Dublin") all give the code;
/// letter case, accents, punctuation and words such as "County", "Province" or "State"
/// do not matter. A state the list does not know gives an empty state, and so does a
/// name that could be more than one state: checkout then asks the shopper rather than
/// ship to the wrong one. A country without a state list (the United Kingdom, France)
/// keeps the state as sent, as does a country the shop does not know.
pub fn normalize_state(country: &str, state: &str) -> String {
    let state = tidy(state);
    if state.is_empty() {
        return state;
    }
    let Ok(country) = CountryCode::parse(country) else {
        return state;
    };
    match locale::states(country) {
        StateList::Some(list) => state_code(country, list, &state)
            .unwrap_or_default()
            .to_string(),
        StateList::Unknown | StateList::None => state,
    }
}

/// A postcode as checkout wants it, allowing for what Apple Pay holds back.
///
/// Until the shopper authorises the payment, Apple Pay sends only the first half of a
/// British or Canadian postcode ("SW1A", "M5V"). The rest is marked with stars
/// ("SW1A ***", "M5V***"), so shipping zones written as a prefix ("SW1A*") still match
/// while checkout refuses the postcode as it stands. A British postcode of five
/// characters or more is whole. The full postcode arrives with the payment.
///
/// A postcode the country's rules accept is written the country's way ("sw1a1aa" →
/// "SW1A 1AA"); any other is kept as sent, for checkout to report. An empty postcode
/// stays empty: see [`postcode_is_optional`] for the countries that do without.
pub fn normalize_postcode(country: &str, postcode: &str) -> String {
    let postcode = tidy(postcode);
    if postcode.is_empty() {
        return postcode;
    }
    let country = tidy(country).to_ascii_uppercase();
    // What Apple Pay leaves of a postcode is letters and digits; the stars this adds
    // make sure a second pass leaves it alone.
    let spaceless: String = postcode
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    let shown = spaceless.chars().count();
    let redacted =
        |whole: usize| shown < whole && spaceless.chars().all(|c| c.is_ascii_alphanumeric());
    match country.as_str() {
        // A British outward code has two to four characters; a whole postcode has five
        // to seven. The outward code stands apart, as in a whole postcode.
        "GB" if redacted(5) => return format!("{spaceless} ***"),
        "CA" if redacted(6) => return spaceless.clone() + &"*".repeat(6 - shown),
        _ => {}
    }
    match CountryCode::parse(&country) {
        Ok(code) => {
            let formatted = locale::format_postcode(code, &postcode);
            if locale::is_valid_postcode(code, &formatted) {
                formatted
            } else {
                postcode
            }
        }
        Err(_) => postcode,
    }
}

/// Whether an express checkout may go ahead without a postcode in the country: where
/// the shop's form does not require one (Hong Kong, Ireland's Eircode, the Emirates),
/// and in the Gulf countries whose addresses the wallets give without one although the
/// form asks.
pub fn postcode_is_optional(country: &str) -> bool {
    let country = tidy(country).to_ascii_uppercase();
    if matches!(
        country.as_str(),
        "AE" | "BH" | "IL" | "KW" | "OM" | "QA" | "SA"
    ) {
        return true;
    }
    if CountryCode::parse(&country).is_err() {
        return false;
    }
    locale::fields(AddressKind::Shipping, Some(&country))
        .iter()
        .find(|rule| rule.key == "postcode")
        .is_some_and(|rule| !rule.required)
}

/// First and last name from a full name, split at the last space: the last word is the
/// family name ("Mary Ann Smith" → "Mary Ann", "Smith"). A single word is a first name.
pub fn split_name(full: &str) -> (String, String) {
    let full = tidy(full);
    match full.rsplit_once(' ') {
        Some((first, last)) => (first.to_string(), last.to_string()),
        None => (full, String::new()),
    }
}

/// Wallets that give one name field put the whole name in whichever of the two the
/// caller filled; the other is empty.
fn split_full_name(a: &mut Address) {
    let full = if a.last_name.is_empty() && a.first_name.contains(' ') {
        std::mem::take(&mut a.first_name)
    } else if a.first_name.is_empty() && a.last_name.contains(' ') {
        std::mem::take(&mut a.last_name)
    } else {
        return;
    };
    (a.first_name, a.last_name) = split_name(&full);
}

/// Wallets format phone numbers for reading ("(555) 123-4567"); the number is the same
/// without the brackets, hyphens and spaces.
fn without_phone_formatting(phone: &str) -> String {
    phone
        .chars()
        .filter(|c| !matches!(c, '(' | ')' | '-' | ' '))
        .collect()
}

/// Hong Kong's form asks for one of three regions. Apple Pay puts the region in the
/// postcode field (Hong Kong has no postcodes), and shoppers give a district or a
/// neighbourhood ("Wan Chai", "旺角") where the region goes. The state is tried first,
/// then the postcode, then the city. A district given as the state is also the town the
/// form asks for, so it becomes the city when there is none.
fn place_hong_kong_region(a: &mut Address) {
    let Ok(hk) = CountryCode::parse("HK") else {
        return;
    };
    let StateList::Some(list) = locale::states(hk) else {
        return;
    };
    if let Some(region) = state_code(hk, list, &a.state) {
        if a.city.is_empty() && hong_kong_region_of_place(&fold(&a.state)).is_some() {
            a.city = a.state.clone();
        }
        a.state = region.to_string();
    } else if let Some(region) = state_code(hk, list, &a.postcode) {
        a.state = region.to_string();
        a.postcode.clear();
    } else if let Some(region) = state_code(hk, list, &a.city) {
        a.state = region.to_string();
    }
}

/// Google Pay gives an Emirates address's emirate as its region; the shop's form has no
/// state for the Emirates and wants the emirate as the city.
fn place_emirate(a: &mut Address) {
    if a.city.is_empty() && !a.state.is_empty() {
        a.city = std::mem::take(&mut a.state);
    }
}

/// The code of the one state of `list` that `text` names, if there is exactly one.
fn state_code(
    country: CountryCode,
    list: &'static [(String, String)],
    text: &str,
) -> Option<&'static str> {
    let text = tidy(text);
    if text.is_empty() {
        return None;
    }
    // As sent, then the shop's own reading: the code or the name, in any letter case.
    if let Some((code, _)) = list.iter().find(|(code, _)| *code == text) {
        return Some(code.as_str());
    }
    if let Some(code) = locale::normalize_state(country, &text) {
        return Some(code);
    }
    let wanted = fold(&text);
    if wanted.is_empty() {
        return None;
    }
    let candidates = candidates(country.as_str(), list);
    match one_code(candidates.iter().filter(|(name, _)| *name == wanted)) {
        Found::One(code) => Some(code),
        Found::Many => None,
        Found::None => {
            let keys = match_keys(&wanted);
            let found = one_code(
                candidates
                    .iter()
                    .filter(|(name, _)| match_keys(name).iter().any(|k| keys.contains(k))),
            );
            match found {
                Found::One(code) => Some(code),
                Found::None | Found::Many => None,
            }
        }
    }
}

/// Every name a state of the list goes by, folded, with its code: the code, the shop's
/// name and its parts ("Yunnan / 云南", "Tehran (تهران)"), and the wallets' names.
fn candidates(country: &str, list: &'static [(String, String)]) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (code, name) in list {
        let code = code.as_str();
        out.push((fold(code), code));
        for part in name_parts(name) {
            out.push((fold(part), code));
        }
    }
    let wallet_names = names::STATE_NAMES
        .iter()
        .filter(|(c, _)| *c == country)
        .flat_map(|(_, names)| names.iter());
    for (name, code) in wallet_names {
        if let Some((code, _)) = list.iter().find(|(c, _)| c == code) {
            out.push((fold(name), code.as_str()));
        }
    }
    if country == "HK" {
        for (region, places) in names::HONG_KONG_DISTRICTS {
            if let Some((code, _)) = list.iter().find(|(c, _)| c == region) {
                out.extend(places.iter().map(|place| (fold(place), code.as_str())));
            }
        }
    }
    out.retain(|(name, _)| !name.is_empty());
    out
}

/// The region of a Hong Kong district or neighbourhood, given folded.
fn hong_kong_region_of_place(folded: &str) -> Option<&'static str> {
    names::HONG_KONG_DISTRICTS
        .iter()
        .find(|(_, places)| places.iter().any(|place| fold(place) == folded))
        .map(|(region, _)| *region)
}

/// A state name and the names inside it: the shop writes some states in two scripts
/// ("Yunnan / 云南") or with another name in brackets ("Malacca (Melaka)").
fn name_parts(name: &str) -> Vec<&str> {
    let mut parts = vec![name];
    if let Some((a, b)) = name.split_once(" / ") {
        parts.extend([a, b]);
    }
    if let Some((head, rest)) = name.split_once(" (") {
        if let Some(inner) = rest.strip_suffix(')') {
            parts.extend([head, inner]);
        }
    }
    parts
}

enum Found {
    None,
    One(&'static str),
    Many,
}

fn one_code<'a>(mut matches: impl Iterator<Item = &'a (String, &'static str)>) -> Found {
    let Some((_, first)) = matches.next() else {
        return Found::None;
    };
    if matches.all(|(_, code)| code == first) {
        Found::One(first)
    } else {
        Found::Many
    }
}

/// Words that say what kind of place a state is rather than which: "Co. Dublin",
/// "Lagos State", "Tehran Province", "استان تهران" name the same state as "Dublin",
/// "Lagos" and "Tehran".
const DESIGNATORS: &[&str] = &[
    "co",
    "county",
    "province",
    "provincia",
    "prefecture",
    "state",
    "region",
    "governorate",
    "department",
    "departamento",
    "sheng",
    "shi",
    "zizhiqu",
    "of",
    "the",
    "de",
    "st",
    "saint",
    "استان",
    "محافظة",
    "จังหวัด",
];

/// The same for Chinese and Japanese, where the kind is written onto the end of the
/// name: 云南省 (Yunnan province), 北京市, 東京都, 大阪府, 愛知県.
const CJK_SUFFIXES: &[&str] = &[
    "特别行政区",
    "特別行政區",
    "自治区",
    "自治區",
    "省",
    "市",
    "県",
    "府",
    "都",
];

/// The forms a folded name is compared in: as it is, and without the words for the
/// kind of place. Two names match when any of their forms are equal, so "京都"
/// (Kyoto) matches "京都府" although "京都" itself ends in a suffix.
fn match_keys(folded: &str) -> Vec<String> {
    let mut keys = vec![folded.to_string()];
    let words: Vec<&str> = folded
        .split(' ')
        .filter(|w| !DESIGNATORS.contains(w))
        .collect();
    let mut bare = words.join(" ");
    if let Some(stem) = CJK_SUFFIXES
        .iter()
        .find_map(|suffix| bare.strip_suffix(suffix))
    {
        bare = stem.trim_end().to_string();
    }
    if !bare.is_empty() && bare != folded {
        keys.push(bare);
    }
    keys
}

/// A name reduced to what tells it apart: lower case, Latin letters without accents
/// ("Québec" → "quebec", "Ağrı" → "agri"), punctuation and runs of space made one space.
fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars().flat_map(char::to_lowercase) {
        if is_combining_accent(c) {
            continue;
        }
        if is_separator(c) {
            gap = true;
            continue;
        }
        if gap && !out.is_empty() {
            out.push(' ');
        }
        gap = false;
        match unaccented(c) {
            Some(plain) => out.push_str(plain),
            None => out.push(c),
        }
    }
    out
}

/// Accents typed as a separate mark after the letter, as some devices send them.
fn is_combining_accent(c: char) -> bool {
    ('\u{300}'..='\u{36f}').contains(&c)
}

fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || c.is_ascii_punctuation()
        || matches!(
            c,
            '’' | '‘' | '“' | '”' | '、' | '，' | '。' | '・' | '（' | '）' | '·'
        )
        || is_invisible_space(c)
}

/// Zero-width spaces and the byte-order mark: invisible, and copied along with text.
fn is_invisible_space(c: char) -> bool {
    matches!(c, '\u{200b}' | '\u{2060}' | '\u{feff}')
}

/// The plain letters of a lower-case Latin letter with an accent or a stroke.
fn unaccented(c: char) -> Option<&'static str> {
    Some(match c {
        'à'..='å' | 'ā' | 'ă' | 'ą' | 'ǎ' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ð' | 'ď' | 'đ' => "d",
        'è'..='ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì'..='ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' | 'ǐ' => "i",
        'ĳ' => "ij",
        'ĵ' => "j",
        'ķ' | 'ĸ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' | 'ŉ' | 'ŋ' => "n",
        'ò'..='ö' | 'ø' | 'ō' | 'ŏ' | 'ő' | 'ǒ' | 'ơ' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' | 'ſ' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' | 'ț' => "t",
        'þ' => "th",
        'ù'..='ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' | 'ǔ' | 'ư' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

/// Trimmed, with each run of whitespace, control characters and invisible spaces made
/// one space: wallets pass on what the shopper typed, line breaks and tabs included.
fn tidy(raw: &str) -> String {
    raw.split(|c: char| c.is_whitespace() || c.is_control() || is_invisible_space(c))
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pricing::tax::postcode_matches;

    fn address(country: &str, state: &str, postcode: &str) -> Address {
        Address {
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            address_1: "1 Main Street".into(),
            city: "Town".into(),
            country: country.into(),
            state: state.into(),
            postcode: postcode.into(),
            ..Address::default()
        }
    }

    #[test]
    fn a_payment_request_address_maps_onto_the_shops_fields() {
        let wallet = WalletAddress {
            name: " Mary Ann  Smith ".into(),
            organization: "Acme".into(),
            address_lines: vec![
                "Flat 2".into(),
                "10 High Street".into(),
                "".into(),
                "Rear entrance".into(),
            ],
            dependent_locality: "Shoreditch".into(),
            city: "London".into(),
            region: "Greater London".into(),
            postal_code: "e1 6an".into(),
            country: "gb".into(),
            email: " mary@example.com ".into(),
            phone: "+44 (20) 7946-0000".into(),
        };
        assert_eq!(
            wallet.normalized(),
            Address {
                first_name: "Mary Ann".into(),
                last_name: "Smith".into(),
                company: "Acme".into(),
                address_1: "Flat 2".into(),
                address_2: "10 High Street, Rear entrance, Shoreditch".into(),
                city: "London".into(),
                state: "Greater London".into(),
                postcode: "E1 6AN".into(),
                country: "GB".into(),
                email: "mary@example.com".into(),
                phone: "+442079460000".into(),
            }
        );
    }

    #[test]
    fn a_part_of_the_city_already_given_is_not_repeated() {
        let wallet = WalletAddress {
            address_lines: vec!["1 Rue Haute".into()],
            dependent_locality: "Ixelles".into(),
            city: "Ixelles".into(),
            ..WalletAddress::default()
        };
        assert_eq!(wallet.to_address().address_2, "");
        let wallet = WalletAddress {
            dependent_locality: "Gangnam-gu".into(),
            ..WalletAddress::default()
        };
        // With no address lines the locality is the only line there is.
        assert_eq!(wallet.normalized().address_1, "Gangnam-gu");
    }

    #[test]
    fn a_full_name_is_split_at_its_last_space() {
        assert_eq!(split_name("Jane Doe"), ("Jane".into(), "Doe".into()));
        assert_eq!(
            split_name("  Mary   Ann Smith "),
            ("Mary Ann".into(), "Smith".into())
        );
        assert_eq!(split_name("Cher"), ("Cher".into(), "".into()));
        assert_eq!(split_name("山田 太郎"), ("山田".into(), "太郎".into()));
        assert_eq!(split_name(""), ("".into(), "".into()));

        let mut a = address("US", "CA", "94110");
        a.first_name = "Mary Ann Smith".into();
        a.last_name = "".into();
        let out = normalize(&a);
        assert_eq!(
            (out.first_name.as_str(), out.last_name.as_str()),
            ("Mary Ann", "Smith")
        );

        a.first_name = "".into();
        a.last_name = "Jane Doe".into();
        let out = normalize(&a);
        assert_eq!(
            (out.first_name.as_str(), out.last_name.as_str()),
            ("Jane", "Doe")
        );

        // Both given: left as they are, spaces and all.
        a.first_name = "Jean Luc".into();
        a.last_name = "Picard".into();
        assert_eq!(normalize(&a).first_name, "Jean Luc");
    }

    #[test]
    fn fields_are_trimmed_and_the_country_is_in_capitals() {
        let a = Address {
            first_name: "\tAda\n".into(),
            company: " Analytical \r\n Engines ".into(),
            address_1: "1  Main\u{0}Street".into(),
            city: "\u{feff}Town\u{200b}".into(),
            country: " us ".into(),
            email: " ada@example.com\n".into(),
            ..Address::default()
        };
        let out = normalize(&a);
        assert_eq!(out.first_name, "Ada");
        assert_eq!(out.company, "Analytical Engines");
        assert_eq!(out.address_1, "1 Main Street");
        assert_eq!(out.city, "Town");
        assert_eq!(out.country, "US");
        assert_eq!(out.email, "ada@example.com");
    }

    #[test]
    fn phone_numbers_lose_their_formatting() {
        let mut a = address("US", "NY", "10001");
        a.phone = " (555) 123-4567 ".into();
        assert_eq!(normalize(&a).phone, "5551234567");
        a.phone = "+1 555 123 4567".into();
        assert_eq!(normalize(&a).phone, "+15551234567");
    }

    #[test]
    fn an_empty_first_address_line_takes_the_second() {
        let mut a = address("US", "NY", "10001");
        a.address_1 = " ".into();
        a.address_2 = "Apt 4B".into();
        let out = normalize(&a);
        assert_eq!(
            (out.address_1.as_str(), out.address_2.as_str()),
            ("Apt 4B", "")
        );
    }

    #[test]
    fn state_names_become_the_shops_codes() {
        assert_eq!(normalize_state("US", "CA"), "CA");
        assert_eq!(normalize_state("US", "ca"), "CA");
        assert_eq!(normalize_state("US", "California"), "CA");
        assert_eq!(normalize_state("us", " new  york "), "NY");
        assert_eq!(normalize_state("US", "District of Columbia"), "DC");
        assert_eq!(normalize_state("JP", "Tokyo"), "JP13");
        assert_eq!(normalize(&address("US", "texas", "73301")).state, "TX");
    }

    #[test]
    fn state_names_match_without_regard_to_accents() {
        assert_eq!(normalize_state("BR", "Sao Paulo"), "SP");
        assert_eq!(normalize_state("BR", "São Paulo"), "SP");
        assert_eq!(normalize_state("MX", "Nuevo Leon"), "NL");
        assert_eq!(normalize_state("CH", "Zurich"), "ZH");
        assert_eq!(normalize_state("TR", "Adiyaman"), "TR02");
        assert_eq!(normalize_state("TR", "ADIYAMAN"), "TR02");
        // Accents typed as separate marks, as some devices send them.
        assert_eq!(normalize_state("BR", "Sa\u{303}o Paulo"), "SP");
        assert_eq!(normalize_state("CA", "Quebec"), "QC");
        assert_eq!(normalize_state("CA", "Québec"), "QC");
    }

    #[test]
    fn words_for_the_kind_of_place_are_set_aside() {
        for county in ["Co. Dublin", "County Dublin", "Dublin", "co dublin", "D"] {
            assert_eq!(normalize_state("IE", county), "D", "{county}");
        }
        assert_eq!(normalize_state("IE", "Co. Clare"), "CE");
        assert_eq!(normalize_state("NG", "Lagos State"), "LA");
        assert_eq!(normalize_state("IR", "Tehran Province"), "THR");
        assert_eq!(normalize_state("IR", "استان تهران"), "THR");
        assert_eq!(normalize_state("JM", "St. Andrew"), "JM-02");
        assert_eq!(normalize_state("US", "State of NY"), "NY");
        assert_eq!(normalize_state("MY", "Melaka"), "MLK");
        // A word for the kind of place is no state on its own.
        assert_eq!(normalize_state("IE", "County"), "");
    }

    #[test]
    fn states_are_read_in_the_wallets_language() {
        assert_eq!(normalize_state("CN", "云南省"), "CN1");
        assert_eq!(normalize_state("CN", "云南"), "CN1");
        assert_eq!(normalize_state("CN", "北京市"), "CN2");
        assert_eq!(normalize_state("CN", "Yunnan Sheng"), "CN1");
        assert_eq!(normalize_state("CN", "广西"), "CN21");
        assert_eq!(normalize_state("CN", "广西壮族自治区"), "CN21");
        assert_eq!(normalize_state("JP", "東京都"), "JP13");
        assert_eq!(normalize_state("JP", "東京"), "JP13");
        assert_eq!(normalize_state("JP", "北海道"), "JP01");
        assert_eq!(normalize_state("JP", "京都府"), "JP26");
        assert_eq!(normalize_state("JP", "京都"), "JP26");
        assert_eq!(normalize_state("CA", "Colombie-Britannique"), "BC");
        assert_eq!(normalize_state("EG", "القاهرة"), "EGC");
        assert_eq!(normalize_state("MX", "Jal."), "JA");
        assert_eq!(normalize_state("MX", "CDMX"), "DF");
        assert_eq!(normalize_state("HK", "九龍"), "KOWLOON");
        // Chiang Mai is TH-50 and Chiang Rai TH-57, in either script.
        assert_eq!(normalize_state("TH", "Chiang Mai"), "TH-50");
        assert_eq!(normalize_state("TH", "เชียงใหม่"), "TH-50");
        assert_eq!(normalize_state("TH", "เชียงราย"), "TH-57");
    }

    #[test]
    fn a_state_the_list_does_not_know_is_left_for_checkout_to_ask() {
        assert_eq!(normalize_state("US", "Calif."), "");
        assert_eq!(normalize_state("US", "Narnia"), "");
        // Not Washington state: the text names no state of the list exactly.
        assert_eq!(normalize_state("US", "Washington DC"), "");
        // Three states share the name.
        assert_eq!(normalize_state("US", "Armed Forces"), "");
        assert_eq!(normalize_state("US", "Armed Forces (AE)"), "AE");
        assert_eq!(normalize(&address("US", "Nowhere", "94110")).state, "");
    }

    #[test]
    fn a_state_where_the_country_has_no_list_is_kept_as_sent() {
        // No list in the shop's data: the county is free text.
        assert_eq!(normalize_state("GB", " Greater  London "), "Greater London");
        assert_eq!(normalize(&address("GB", "Kent", "CT1 1AA")).state, "Kent");
        // A country without states.
        assert_eq!(normalize_state("FR", "Île-de-France"), "Île-de-France");
        // A country the shop does not know.
        assert_eq!(normalize_state("XX", "Somewhere"), "Somewhere");
        assert_eq!(normalize_state("", "Somewhere"), "Somewhere");
        assert_eq!(normalize_state("US", "  "), "");
    }

    #[test]
    fn a_redacted_british_postcode_keeps_its_outward_code() {
        assert_eq!(normalize_postcode("GB", "SW1A"), "SW1A ***");
        assert_eq!(normalize_postcode("GB", "sw1a "), "SW1A ***");
        assert_eq!(normalize_postcode("GB", "N2"), "N2 ***");
        assert_eq!(normalize_postcode("gb", "W10"), "W10 ***");
        // Good enough for shipping zones written as a prefix, not for checkout.
        assert!(postcode_matches("SW1A*", &normalize_postcode("GB", "SW1A")));
        assert!(!postcode_matches(
            "SW1A 1AA",
            &normalize_postcode("GB", "SW1A")
        ));
        let gb = CountryCode::parse("GB").unwrap();
        assert!(!locale::is_valid_postcode(
            gb,
            &normalize_postcode("GB", "SW1A")
        ));
        // Whole postcodes are written the British way.
        assert_eq!(normalize_postcode("GB", "sw1a1aa"), "SW1A 1AA");
        assert_eq!(normalize_postcode("GB", "M1 1AE"), "M1 1AE");
        assert_eq!(normalize_postcode("GB", "m11ae"), "M1 1AE");
    }

    #[test]
    fn a_redacted_canadian_postcode_is_padded_to_six() {
        assert_eq!(normalize_postcode("CA", "M5V"), "M5V***");
        assert_eq!(normalize_postcode("CA", "m5v 3"), "M5V3**");
        assert!(postcode_matches("M5V*", &normalize_postcode("CA", "M5V")));
        assert_eq!(normalize_postcode("CA", "m5v3l9"), "M5V 3L9");
        assert_eq!(normalize_postcode("CA", "M5V 3L9"), "M5V 3L9");
    }

    #[test]
    fn other_postcodes_are_formatted_when_valid_and_kept_otherwise() {
        assert_eq!(normalize_postcode("US", " 94110 "), "94110");
        assert_eq!(normalize_postcode("US", "941101234"), "94110-1234");
        assert_eq!(normalize_postcode("NL", "1234ab"), "1234 AB");
        assert_eq!(normalize_postcode("IE", "d02x285"), "D02 X285");
        assert_eq!(normalize_postcode("US", "ABC"), "ABC");
        assert_eq!(normalize_postcode("XX", " 123 "), "123");
    }

    #[test]
    fn countries_without_postcodes_take_an_empty_one() {
        for country in ["HK", "IE", "AE", "GB", "CA", "US"] {
            assert_eq!(normalize_postcode(country, " "), "", "{country}");
        }
        for country in ["HK", "IE", "AE", "SA", "QA", "ae"] {
            assert!(postcode_is_optional(country), "{country}");
        }
        for country in ["US", "GB", "CA", "DE", "XX", ""] {
            assert!(!postcode_is_optional(country), "{country}");
        }
        let mut a = address("IE", "Co. Dublin", "");
        a.city = "Dublin".into();
        let out = normalize(&a);
        assert_eq!((out.state.as_str(), out.postcode.as_str()), ("D", ""));
    }

    #[test]
    fn a_hong_kong_district_given_as_the_state_gives_its_region() {
        let mut a = address("HK", "Wan Chai", "");
        a.city = "".into();
        let out = normalize(&a);
        assert_eq!(out.state, "HONG KONG");
        assert_eq!(out.city, "Wan Chai");

        let mut a = address("HK", "旺角", "");
        a.city = "Mong Kok".into();
        let out = normalize(&a);
        assert_eq!(
            (out.state.as_str(), out.city.as_str()),
            ("KOWLOON", "Mong Kok")
        );

        assert_eq!(
            normalize(&address("HK", "Hong Kong", "")).state,
            "HONG KONG"
        );
        assert_eq!(normalize(&address("HK", "kowloon", "")).state, "KOWLOON");
        assert_eq!(
            normalize(&address("HK", "New Territories", "")).state,
            "NEW TERRITORIES"
        );
        assert_eq!(normalize_state("HK", "Sha Tin"), "NEW TERRITORIES");
    }

    #[test]
    fn a_hong_kong_region_in_the_postcode_or_the_city_is_moved_to_the_state() {
        // Apple Pay puts the region where the postcode goes.
        let out = normalize(&address("HK", "", "Kowloon"));
        assert_eq!((out.state.as_str(), out.postcode.as_str()), ("KOWLOON", ""));
        let out = normalize(&address("HK", "Atlantis", "Tsim Sha Tsui"));
        assert_eq!((out.state.as_str(), out.postcode.as_str()), ("KOWLOON", ""));

        let mut a = address("HK", "", "");
        a.city = "Tsuen Wan".into();
        let out = normalize(&a);
        assert_eq!(
            (out.state.as_str(), out.city.as_str()),
            ("NEW TERRITORIES", "Tsuen Wan")
        );

        // Nothing names a region: checkout asks.
        let out = normalize(&address("HK", "Atlantis", ""));
        assert_eq!(out.state, "");
    }

    #[test]
    fn an_emirate_given_as_the_state_becomes_the_city() {
        let mut a = address("AE", "Dubai", "");
        a.city = "".into();
        let out = normalize(&a);
        assert_eq!((out.city.as_str(), out.state.as_str()), ("Dubai", ""));
        // With a city given, both stay.
        let out = normalize(&address("AE", "Dubai", ""));
        assert_eq!((out.city.as_str(), out.state.as_str()), ("Town", "Dubai"));
    }

    #[test]
    fn every_wallet_name_gives_its_own_state() {
        for (country, names) in names::STATE_NAMES {
            let code = CountryCode::parse(country).expect("a country the shop knows");
            let StateList::Some(list) = locale::states(code) else {
                panic!("{country} has a state list");
            };
            for (name, state) in *names {
                assert!(list.iter().any(|(c, _)| c == state), "{country} {state}");
                assert_eq!(normalize_state(country, name), *state, "{country} {name}");
            }
        }
        for (region, places) in names::HONG_KONG_DISTRICTS {
            for place in *places {
                assert_eq!(normalize_state("HK", place), *region, "{place}");
            }
        }
    }

    #[test]
    fn every_state_code_stays_itself() {
        for (country, _) in locale::countries() {
            if let StateList::Some(list) = locale::states(country) {
                for (code, _) in list {
                    assert_eq!(normalize_state(country.as_str(), code), *code);
                }
            }
        }
    }

    #[test]
    fn folding_keeps_what_tells_names_apart() {
        assert_eq!(fold("  Île-du-Prince-Édouard "), "ile du prince edouard");
        assert_eq!(fold("Hawke’s Bay"), "hawke s bay");
        assert_eq!(fold("Ağrı"), "agri");
        assert_eq!(fold("ŞANLIURFA"), "sanliurfa");
        assert_eq!(fold("İstanbul"), "istanbul");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("東京都"), "東京都");
        assert_eq!(fold("...---"), "");
    }

    fn twice_is_once(country: &str, texts: &[&str]) {
        for (i, text) in texts.iter().enumerate() {
            let other = |k: usize| texts[(i + k) % texts.len()].to_string();
            let a = Address {
                first_name: text.to_string(),
                last_name: other(1),
                company: text.to_string(),
                address_1: String::new(),
                address_2: text.to_string(),
                city: other(2),
                state: text.to_string(),
                postcode: other(3),
                country: country.to_string(),
                email: text.to_string(),
                phone: text.to_string(),
            };
            let once = normalize(&a);
            assert_eq!(normalize(&once), once, "{country} {i}");
        }
    }

    /// Whatever arrives, nothing panics, and a second pass changes nothing.
    #[test]
    fn any_input_is_handled() {
        let nasty = [
            "",
            " ",
            "\0",
            "\u{7}\u{1b}[31m",
            "\r\n\t",
            "\u{feff}\u{200b}",
            "\u{301}",
            "\u{301}\u{301}x",
            "é",
            "ǅ",
            "İ",
            "👩‍👩‍👧 🏴‍☠️",
            "مرحبا بالعالم",
            "עברית",
            "ไทย",
            "東京都市",
            "(((",
            "***",
            "A",
            "SW1A ***",
            "Co.",
            "State",
            "省",
        ];
        let mut countries: Vec<&str> = locale::countries().map(|(c, _)| c.as_str()).collect();
        countries.extend(["", "gb", "zz", "G", "GBR", "\0"]);
        for country in &countries {
            twice_is_once(country, &nasty);
        }

        let huge = "Ab ".repeat(20_000);
        for country in ["US", "GB", "CA", "HK", "AE", "IE", "JP", ""] {
            twice_is_once(country, &[huge.as_str(), "", "\0", "Wan Chai"]);
        }
        let wallet = WalletAddress {
            name: huge.clone(),
            address_lines: vec![huge.clone(); 3],
            dependent_locality: "\0".into(),
            region: huge.clone(),
            postal_code: huge.clone(),
            country: "HK".into(),
            ..WalletAddress::default()
        };
        let out = wallet.normalized();
        assert_eq!(out.state, "");
        assert_eq!(normalize(&Address::default()), Address::default());
    }
}
