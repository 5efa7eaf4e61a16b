//! The frame every e-mail shares, written once as HTML (inline styles, since mail
//! programs drop style sheets) and once as plain text, both askama templates in
//! `templates/`. A mail's content is a list of blocks of plain text; the HTML
//! template escapes every piece of it, so no mail writes markup.

use askama::Template;

/// What every mail needs to know about the shop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailContext {
    pub shop_name: String,
    /// The shop's address without a trailing slash, for links.
    pub base_url: String,
}

impl MailContext {
    pub fn new(shop_name: &str, base_url: &str) -> Self {
        Self {
            shop_name: shop_name.to_string(),
            base_url: base_url.trim_end_matches('/').to_string(),
        }
    }

    pub fn link(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }
}

/// One piece of a mail's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Paragraph(String),
    /// A call to action.
    Button {
        label: String,
        url: String,
    },
    /// A smaller heading inside the mail.
    Heading(String),
    /// Label–value rows (order lines, totals, bank details); `strong` rows are totals.
    Table(Vec<Row>),
    /// Lines kept together, such as a postal address.
    Lines(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub label: String,
    pub value: String,
    pub strong: bool,
}

impl Row {
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            value: value.into(),
            strong: false,
        }
    }

    pub fn strong(label: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            strong: true,
            ..Self::new(label, value)
        }
    }
}

/// A rendered mail, ready for the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub html: String,
    pub text: String,
}

/// The HTML part: `templates/mail.html` in the frame of `templates/layout.html`.
#[derive(Template)]
#[template(path = "mail.html")]
struct MailHtml<'a> {
    subject: &'a str,
    heading: &'a str,
    home: &'a str,
    shop: &'a str,
    blocks: &'a [Block],
}

/// The plain-text part, `templates/mail.txt`: the same blocks, nothing escaped.
#[derive(Template)]
#[template(path = "mail.txt")]
struct MailText<'a> {
    heading: &'a str,
    home: &'a str,
    shop: &'a str,
    blocks: &'a [Block],
}

impl Row {
    /// "Total: $5" but "Subtotal: $5" for a label that brings its own colon.
    fn text_separator(&self) -> &'static str {
        if self.label.ends_with(':') {
            " "
        } else {
            ": "
        }
    }
}

pub fn render(ctx: &MailContext, subject: &str, heading: &str, blocks: &[Block]) -> Rendered {
    let home = ctx.link("/");
    let html = MailHtml {
        subject,
        heading,
        home: &home,
        shop: &ctx.shop_name,
        blocks,
    };
    let text = MailText {
        heading,
        home: &home,
        shop: &ctx.shop_name,
        blocks,
    };
    Rendered {
        subject: subject.to_string(),
        html: rendered(&html),
        text: rendered(&text),
    }
}

/// The templates write only strings and numbers, which cannot fail to render.
fn rendered(template: &impl Template) -> String {
    template.render().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_is_escaped_in_the_html_and_kept_in_the_text() {
        let ctx = MailContext::new("Tom & Jerry's", "https://shop.example/");
        let r = render(
            &ctx,
            "Hi <you>",
            "Hello \"there\"",
            &[
                Block::Paragraph("<script>alert(1)</script>".into()),
                Block::Button {
                    label: "Go".into(),
                    url: "https://shop.example/a?b=1&c=\"2\"".into(),
                },
            ],
        );
        assert!(r.html.contains("Tom &amp; Jerry&#039;s"));
        assert!(r.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(!r.html.contains("<script>"));
        assert!(r
            .html
            .contains("href=\"https://shop.example/a?b=1&amp;c=&quot;2&quot;\""));
        assert!(r.html.contains("<title>Hi &lt;you&gt;</title>"));
        assert!(r
            .text
            .starts_with("Hello \"there\"\n\n<script>alert(1)</script>\n\n"));
        assert!(r
            .text
            .ends_with("-- \nTom & Jerry's\nhttps://shop.example/\n"));
    }
}
