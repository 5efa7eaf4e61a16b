//! A review's text as pages show it: everything the author wrote is escaped, and only
//! its paragraphs (a blank line between them) and line breaks become markup, as the
//! original's `wpautop` writes them.

use crate::html::escape;

/// `<p>…</p>` per paragraph, `<br />` per line break inside one; nothing else of the
/// author's is markup.
pub fn paragraphs_html(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len() + 16);
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |lines: &mut Vec<&str>, out: &mut String| {
        if lines.is_empty() {
            return;
        }
        out.push_str("<p>");
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                out.push_str("<br />\n");
            }
            out.push_str(&escape(line.trim()));
        }
        out.push_str("</p>\n");
        lines.clear();
    };
    for line in text.split('\n') {
        if line.trim().is_empty() {
            flush(&mut paragraph, &mut out);
        } else {
            paragraph.push(line);
        }
    }
    flush(&mut paragraph, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_and_line_breaks_are_the_only_markup() {
        assert_eq!(
            paragraphs_html("Warm.\nSoft.\n\n\nWould buy again."),
            "<p>Warm.<br />\nSoft.</p>\n<p>Would buy again.</p>\n"
        );
        assert_eq!(paragraphs_html("One line"), "<p>One line</p>\n");
        assert_eq!(paragraphs_html("  \n "), "");
    }

    #[test]
    fn everything_the_author_wrote_is_escaped() {
        assert_eq!(
            paragraphs_html("<script>alert(\"x\")</script> & <b>bold</b>"),
            "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;</p>\n"
        );
        assert_eq!(
            paragraphs_html("<a href='https://x.example'>x</a>"),
            "<p>&lt;a href=&#039;https://x.example&#039;&gt;x&lt;/a&gt;</p>\n"
        );
    }
}
