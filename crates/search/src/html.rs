//! Product descriptions arrive as HTML; only their words are searched.
//! Markup, the contents of `<script>`/`<style>` and comments are dropped,
//! and the common character entities are decoded.

/// The visible text of an HTML fragment, tags replaced by spaces so that
/// `<li>red</li><li>blue</li>` stays two words.
pub fn strip_tags(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find(['<', '&']) {
        text.push_str(&rest[..start]);
        rest = &rest[start..];
        if rest.starts_with('&') {
            let (decoded, consumed) = decode_entity(rest);
            text.push_str(decoded.as_deref().unwrap_or("&"));
            rest = &rest[consumed..];
            continue;
        }
        if !rest[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!') {
            // "size < 5 cm": a browser shows a bare `<` as text.
            text.push('<');
            rest = &rest[1..];
            continue;
        }
        rest = skip_markup(rest);
        text.push(' ');
    }
    text.push_str(rest);
    text
}

/// Skips the tag, comment or raw-text element that `rest` starts with.
/// An unclosed `<` swallows the rest, as a browser would.
fn skip_markup(rest: &str) -> &str {
    if let Some(comment) = rest.strip_prefix("<!--") {
        return comment.find("-->").map_or("", |end| &comment[end + 3..]);
    }
    let Some(end) = rest.find('>') else {
        return "";
    };
    let tag = &rest[1..end];
    let after = &rest[end + 1..];
    let name: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if name == "script" || name == "style" {
        let closing = format!("</{name}");
        return match find_ascii_case_insensitive(after, &closing) {
            Some(close) => skip_markup(&after[close..]),
            None => "",
        };
    }
    after
}

fn find_ascii_case_insensitive(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Decodes the entity at the start of `rest` (which starts with `&`).
/// Returns the text and how many bytes were read; `None` for something
/// that is not an entity, of which only the `&` is consumed.
fn decode_entity(rest: &str) -> (Option<String>, usize) {
    // Entities are short: looking further would make text full of bare
    // ampersands cost quadratic time.
    let Some(end) = rest.bytes().take(12).position(|b| b == b';') else {
        return (None, 1);
    };
    let name = &rest[1..end];
    let decoded = match name {
        "amp" => Some("&".to_string()),
        "lt" => Some("<".to_string()),
        "gt" => Some(">".to_string()),
        "quot" => Some("\"".to_string()),
        "apos" => Some("'".to_string()),
        _ if name.starts_with('#') => numeric_entity(&name[1..]).map(String::from),
        _ => named_letter(name).or_else(|| {
            // Any other named entity (&nbsp;, &mdash;, &hellip;...) is
            // punctuation or space to a search.
            name.chars()
                .all(|c| c.is_ascii_alphanumeric())
                .then(|| " ".to_string())
        }),
    };
    match decoded {
        Some(text) => (Some(text), end + 1),
        None => (None, 1),
    }
}

fn numeric_entity(number: &str) -> Option<char> {
    let code = match number.strip_prefix(['x', 'X']) {
        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
        None => number.parse().ok()?,
    };
    char::from_u32(code)
}

/// `&eacute;`, `&Uuml;`, `&ccedil;`...: the index folds accents away, so
/// the base letter is all a search needs.
fn named_letter(name: &str) -> Option<String> {
    const MARKS: [&str; 8] = [
        "acute", "grave", "circ", "uml", "tilde", "cedil", "ring", "slash",
    ];
    let mut chars = name.chars();
    let letter = chars.next().filter(char::is_ascii_alphabetic)?;
    MARKS.contains(&chars.as_str()).then(|| letter.to_string())
}

#[cfg(test)]
mod tests {
    use super::strip_tags;

    #[test]
    fn tags_become_word_breaks() {
        assert_eq!(
            strip_tags("<ul><li>red</li><li>blue</li></ul>")
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["red", "blue"]
        );
    }

    #[test]
    fn scripts_styles_and_comments_are_dropped() {
        let text = strip_tags("a<script>var x = '<b>';</script>b<STYLE>p{}</style>c<!-- d -->e");
        assert_eq!(text.split_whitespace().collect::<String>(), "abce");
    }

    #[test]
    fn entities_are_decoded() {
        assert_eq!(
            strip_tags("Caf&eacute; &amp; caf&#233;&nbsp;&#xE9; &bogus"),
            "Cafe & café é &bogus"
        );
    }

    #[test]
    fn a_bare_less_than_is_text() {
        assert_eq!(strip_tags("size < 5 cm"), "size < 5 cm");
    }

    #[test]
    fn an_unclosed_tag_swallows_the_rest() {
        assert_eq!(strip_tags("soft <b class=\"x\" cotton").trim(), "soft");
    }
}
