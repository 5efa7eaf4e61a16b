//! The store notice: a line the shop owner shows at the top of every page (a sale, a
//! holiday closing) until the shopper dismisses it. Its id names the cookie that
//! remembers the dismissal (`store_notice{id}=hidden`), so a notice with a new id shows
//! again to everyone who dismissed the old one.

use md5::{Digest, Md5};

use rules::settings::{bad, ConfigError};

/// Longest notice text accepted: a banner, not a page.
const MAX_TEXT_CHARS: usize = 2000;
/// Longest id accepted; the id is part of a cookie's name.
const MAX_ID_CHARS: usize = 64;

/// A notice to show: its text (plain text or a little HTML, which the storefront
/// reduces to harmless tags) and its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreNotice {
    text: String,
    id: NoticeId,
}

/// What tells one notice from another: letters, digits, `-` and `_` only, so it can
/// stand in a cookie's name as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeId(String);

impl NoticeId {
    pub fn parse(setting: &str, value: &str) -> Result<Self, ConfigError> {
        let value = value.trim();
        let valid = !value.is_empty()
            && value.len() <= MAX_ID_CHARS
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if valid {
            Ok(Self(value.to_string()))
        } else {
            Err(bad(
                setting,
                format!("expected 1 to {MAX_ID_CHARS} letters, digits, - or _"),
            ))
        }
    }

    /// The original shop's id for a notice without one: the MD5 of its text, so
    /// changing the text shows the notice again.
    fn of_text(text: &str) -> Self {
        Self(hex::encode(Md5::digest(text.as_bytes())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl StoreNotice {
    /// The notice from its settings' values; none when the text is empty.
    pub fn parse(
        text_setting: &str,
        text: &str,
        id_setting: &str,
        id: Option<&str>,
    ) -> Result<Option<Self>, ConfigError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(bad(
                text_setting,
                format!("at most {MAX_TEXT_CHARS} characters"),
            ));
        }
        let id = match id.map(str::trim).filter(|id| !id.is_empty()) {
            Some(id) => NoticeId::parse(id_setting, id)?,
            None => NoticeId::of_text(text),
        };
        Ok(Some(Self {
            text: text.to_string(),
            id,
        }))
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn id(&self) -> &NoticeId {
        &self.id
    }

    /// The cookie a dismissal sets: `store_notice` and the id, as the original names it.
    pub fn cookie_name(&self) -> String {
        format!("store_notice{}", self.id.0)
    }

    /// Whether the shopper has dismissed this notice (its cookie says `hidden`).
    pub fn dismissed(&self, cookie_value: Option<&str>) -> bool {
        cookie_value == Some("hidden")
    }
}

/// Reads `FERROSHOP_STORE_NOTICE` and `FERROSHOP_STORE_NOTICE_ID` over the file's
/// `store_notice` and `store_notice_id`.
pub fn from_settings(
    current: Option<StoreNotice>,
    get: &impl Fn(&str) -> Option<String>,
) -> Result<Option<StoreNotice>, ConfigError> {
    let text = get("FERROSHOP_STORE_NOTICE");
    let id = get("FERROSHOP_STORE_NOTICE_ID");
    match (text, id) {
        (None, None) => Ok(current),
        (Some(text), id) => StoreNotice::parse(
            "FERROSHOP_STORE_NOTICE",
            &text,
            "FERROSHOP_STORE_NOTICE_ID",
            id.as_deref(),
        ),
        // A new id for the file's text: the notice shows again.
        (None, Some(id)) => match current {
            Some(notice) => StoreNotice::parse(
                "FERROSHOP_STORE_NOTICE",
                &notice.text,
                "FERROSHOP_STORE_NOTICE_ID",
                Some(&id),
            ),
            None => Ok(None),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::settings::test_env as env;

    #[test]
    fn an_empty_notice_is_no_notice() {
        assert_eq!(StoreNotice::parse("t", "  ", "i", Some("x")).unwrap(), None);
        assert_eq!(from_settings(None, &env(&[])).unwrap(), None);
    }

    #[test]
    fn a_notice_without_an_id_is_named_by_the_md5_of_its_text() {
        let notice = StoreNotice::parse("t", " Free shipping this week ", "i", None)
            .unwrap()
            .unwrap();
        assert_eq!(notice.text(), "Free shipping this week");
        assert_eq!(
            notice.id().as_str(),
            hex::encode(Md5::digest(b"Free shipping this week"))
        );
        assert_eq!(
            notice.cookie_name(),
            format!("store_notice{}", notice.id().as_str())
        );
        let changed = StoreNotice::parse("t", "Free shipping this month", "i", None)
            .unwrap()
            .unwrap();
        assert_ne!(changed.id(), notice.id(), "a changed text shows again");
    }

    #[test]
    fn an_id_given_is_kept_and_a_bad_one_names_its_setting() {
        let notice = from_settings(
            None,
            &env(&[
                ("FERROSHOP_STORE_NOTICE", "Closed on Monday"),
                ("FERROSHOP_STORE_NOTICE_ID", "holiday-2"),
            ]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(notice.cookie_name(), "store_noticeholiday-2");
        for id in ["a b", "a;b", "é", &"x".repeat(65)] {
            let err = from_settings(
                None,
                &env(&[
                    ("FERROSHOP_STORE_NOTICE", "Closed"),
                    ("FERROSHOP_STORE_NOTICE_ID", id),
                ]),
            )
            .unwrap_err();
            assert_eq!(err.setting, "FERROSHOP_STORE_NOTICE_ID", "{id}");
        }
    }

    #[test]
    fn an_id_in_the_environment_renames_the_files_notice() {
        let file = StoreNotice::parse("store_notice", "Sale", "store_notice_id", None).unwrap();
        let notice = from_settings(file, &env(&[("FERROSHOP_STORE_NOTICE_ID", "v2")]))
            .unwrap()
            .unwrap();
        assert_eq!((notice.text(), notice.id().as_str()), ("Sale", "v2"));
    }

    #[test]
    fn too_long_a_notice_is_refused() {
        let err = StoreNotice::parse("store_notice", &"x".repeat(2001), "i", None).unwrap_err();
        assert_eq!(err.setting, "store_notice");
    }

    #[test]
    fn only_hidden_dismisses() {
        let notice = StoreNotice::parse("t", "Sale", "i", None).unwrap().unwrap();
        assert!(notice.dismissed(Some("hidden")));
        assert!(!notice.dismissed(Some("shown")) && !notice.dismissed(None));
    }
}
