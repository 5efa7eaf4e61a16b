//! Escaping for the markup the shop writes: the escapers its askama templates use, and
//! `escape` for the few places that write markup without a template.

use std::fmt::{self, Write};

/// The templates' escaper for `.html`: the original shop's `esc_html`/`esc_attr`
/// (`&quot;` and `&#039;` rather than askama's numeric forms), so fragments its
/// scripts read keep their bytes. Safe in text nodes and double-quoted attributes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Html;

impl askama::filters::Escaper for Html {
    fn write_escaped_str<W: Write>(&self, mut dest: W, text: &str) -> fmt::Result {
        write_escaped(&mut dest, text, true)
    }
}

/// An escaper for text nodes that keeps quotes as typed, as the original's notices do
/// ("Coupon "x" does not exist!"); never for attribute values. Templates name it with
/// `|escape("text-node")`.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextNode;

impl askama::filters::Escaper for TextNode {
    fn write_escaped_str<W: Write>(&self, mut dest: W, text: &str) -> fmt::Result {
        write_escaped(&mut dest, text, false)
    }
}

fn write_escaped<W: Write>(dest: &mut W, text: &str, quotes: bool) -> fmt::Result {
    let mut rest = text;
    while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
        let (plain, tail) = rest.split_at(at);
        dest.write_str(plain)?;
        let ch = tail.as_bytes()[0];
        let entity = match ch {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' if quotes => "&quot;",
            b'\'' if quotes => "&#039;",
            b'"' => "\"",
            _ => "'",
        };
        dest.write_str(entity)?;
        rest = &tail[1..];
    }
    dest.write_str(rest)
}

/// Escapes text for an HTML text node or a double-quoted attribute, as `Html` does.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    // Writing to a String cannot fail.
    let _ = write_escaped(&mut out, text, true);
    out
}

/// Strips tags from trusted shop HTML for plain-text uses (meta descriptions).
pub fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(ch),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_characters() {
        assert_eq!(
            escape(r#"<a href="x">Tom's & Jerry</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom&#039;s &amp; Jerry&lt;/a&gt;"
        );
    }

    #[test]
    fn text_nodes_keep_quotes_as_typed() {
        let escaped = askama::filters::escape(r#"Coupon "<b>" & 'x'"#, TextNode)
            .unwrap()
            .to_string();
        assert_eq!(escaped, r#"Coupon "&lt;b&gt;" &amp; 'x'"#);
    }

    #[test]
    fn strips_tags_and_folds_space() {
        assert_eq!(
            strip_tags("<p>Soft  <b>cotton</b></p>\n<p>Warm.</p>"),
            "Soft cotton Warm."
        );
    }
}
