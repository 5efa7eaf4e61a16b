//! The frame every e-mail shares, written once as HTML (inline styles, since mail
//! programs drop style sheets) and once as plain text. A mail's content is a list of
//! blocks; every piece of text is escaped here, so templates never write markup.

use crate::html::escape;

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

const FONT: &str = "font-family:'Helvetica Neue',Helvetica,Roboto,Arial,sans-serif;";
const ACCENT: &str = "#2f5d62";

pub fn render(ctx: &MailContext, subject: &str, heading: &str, blocks: &[Block]) -> Rendered {
    Rendered {
        subject: subject.to_string(),
        html: render_html(ctx, subject, heading, blocks),
        text: render_text(ctx, heading, blocks),
    }
}

fn render_html(ctx: &MailContext, subject: &str, heading: &str, blocks: &[Block]) -> String {
    let mut body = String::new();
    for block in blocks {
        match block {
            Block::Paragraph(text) => body.push_str(&format!(
                "<p style=\"margin:0 0 16px;\">{}</p>\n",
                escape(text)
            )),
            Block::Button { label, url } => body.push_str(&format!(
                "<p style=\"margin:0 0 16px;\"><a href=\"{}\" style=\"display:inline-block;background:{ACCENT};color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 20px;border-radius:3px;\">{}</a></p>\n",
                escape(url),
                escape(label)
            )),
            Block::Heading(text) => body.push_str(&format!(
                "<h2 style=\"{FONT}color:{ACCENT};font-size:18px;font-weight:bold;margin:24px 0 12px;\">{}</h2>\n",
                escape(text)
            )),
            Block::Table(rows) => {
                body.push_str("<table role=\"presentation\" cellspacing=\"0\" cellpadding=\"6\" style=\"width:100%;border:1px solid #e5e5e5;border-collapse:collapse;margin:0 0 16px;\">\n");
                for row in rows {
                    let weight = if row.strong { "font-weight:bold;" } else { "" };
                    body.push_str(&format!(
                        "<tr><td style=\"{FONT}border:1px solid #e5e5e5;text-align:left;{weight}\">{}</td><td style=\"{FONT}border:1px solid #e5e5e5;text-align:right;{weight}\">{}</td></tr>\n",
                        escape(&row.label),
                        escape(&row.value)
                    ));
                }
                body.push_str("</table>\n");
            }
            Block::Lines(lines) => {
                let joined: Vec<String> = lines.iter().map(|l| escape(l)).collect();
                body.push_str(&format!(
                    "<p style=\"margin:0 0 16px;padding:12px;border:1px solid #e5e5e5;\">{}</p>\n",
                    joined.join("<br>")
                ));
            }
        }
    }
    format!(
        "<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<title>{subject}</title>
</head>
<body style=\"margin:0;padding:0;background:#f4f4f4;\">
<table role=\"presentation\" width=\"100%\" cellspacing=\"0\" cellpadding=\"0\" style=\"background:#f4f4f4;padding:32px 0;\">
<tr><td align=\"center\">
<table role=\"presentation\" width=\"600\" cellspacing=\"0\" cellpadding=\"0\" style=\"max-width:600px;width:100%;background:#ffffff;border:1px solid #dedede;border-radius:3px;\">
<tr><td style=\"{FONT}background:{ACCENT};color:#ffffff;padding:20px 40px;font-size:20px;font-weight:bold;\"><a href=\"{home}\" style=\"color:#ffffff;text-decoration:none;\">{shop}</a></td></tr>
<tr><td style=\"{FONT}padding:32px 40px 8px;\"><h1 style=\"{FONT}color:#1e1e1e;font-size:26px;font-weight:normal;line-height:1.3;margin:0;\">{heading}</h1></td></tr>
<tr><td style=\"{FONT}padding:16px 40px 32px;color:#3c3c3c;font-size:15px;line-height:1.5;\">
{body}</td></tr>
</table>
<p style=\"{FONT}color:#8a8a8a;font-size:12px;margin:16px 0 0;\">{shop}</p>
</td></tr>
</table>
</body>
</html>
",
        subject = escape(subject),
        home = escape(&ctx.link("/")),
        shop = escape(&ctx.shop_name),
        heading = escape(heading),
    )
}

fn render_text(ctx: &MailContext, heading: &str, blocks: &[Block]) -> String {
    let mut out = format!("{heading}\n\n");
    for block in blocks {
        match block {
            Block::Paragraph(text) => out.push_str(&format!("{text}\n\n")),
            Block::Button { label, url } => out.push_str(&format!("{label}: {url}\n\n")),
            Block::Heading(text) => out.push_str(&format!("{}\n\n", text.to_uppercase())),
            Block::Table(rows) => {
                for row in rows {
                    let sep = if row.label.ends_with(':') { " " } else { ": " };
                    out.push_str(&format!("{}{sep}{}\n", row.label, row.value));
                }
                out.push('\n');
            }
            Block::Lines(lines) => {
                for line in lines {
                    out.push_str(line);
                    out.push('\n');
                }
                out.push('\n');
            }
        }
    }
    out.push_str(&format!("-- \n{}\n{}\n", ctx.shop_name, ctx.link("/")));
    out
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
