//! The newsletter's mail: the confirmation a sign-up asks for. Like every newsletter
//! mail it carries its unsubscribe link, in the text and in `List-Unsubscribe`.

use super::layout::{render, Block, MailContext, Rendered};

pub const CONFIRM_SUBSCRIPTION: &str = "newsletter_confirmation";

pub fn confirmation(
    ctx: &MailContext,
    name: &str,
    confirm_url: &str,
    unsubscribe_url: &str,
) -> Rendered {
    let shop = &ctx.shop_name;
    let greeting = if name.trim().is_empty() {
        "Hi,".to_string()
    } else {
        format!("Hi {name},")
    };
    render(
        ctx,
        &format!("Confirm your subscription to {shop}"),
        "Confirm your subscription",
        &[
            Block::Paragraph(greeting),
            Block::Paragraph(format!(
                "Someone, hopefully you, asked to receive the {shop} newsletter at this address. Confirm it and you will hear from us about new arrivals and offers; ignore this mail and nothing will be sent."
            )),
            Block::Button {
                label: "Confirm my subscription".into(),
                url: confirm_url.into(),
            },
            Block::Paragraph("The link works for a week.".into()),
            Block::Paragraph(format!("Not for you? Unsubscribe: {unsubscribe_url}")),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_confirmation_carries_both_links_and_escapes_the_name() {
        let ctx = MailContext::new("Lumen & Loom", "https://shop.example");
        let mail = confirmation(
            &ctx,
            "<Ada>",
            "https://shop.example/?na=c&nk=1-2-ab",
            "https://shop.example/?na=u&nk=1-0-cd",
        );
        assert_eq!(mail.subject, "Confirm your subscription to Lumen & Loom");
        assert!(mail.text.contains("Hi <Ada>,"));
        assert!(mail.html.contains("Hi &lt;Ada&gt;,"));
        assert!(mail.text.contains("https://shop.example/?na=c&nk=1-2-ab"));
        assert!(mail.text.contains("https://shop.example/?na=u&nk=1-0-cd"));
        assert!(
            mail.html
                .contains("href=\"https://shop.example/?na=c&amp;nk=1-2-ab\""),
            "{}",
            mail.html
        );
    }
}
