//! The contact form's mails: the message to the shop and the optional auto-reply,
//! each composed from the form's template (`rules::contact::form::compose`) and
//! written in the shop's frame. A visitor's words are plain text lines here; the
//! frame escapes them, so nothing a visitor types becomes markup.

use rules::contact::form::ComposedMail;
use store::outbox::{Attachment, NewMail};

use super::layout::{render, Block, MailContext, Rendered};

/// The mail to the shop.
pub const CONTACT_MESSAGE: &str = "contact_form";
/// The auto-reply to the visitor.
pub const CONTACT_AUTO_REPLY: &str = "contact_form_auto_reply";

/// A composed mail in the shop's frame.
pub fn render_composed(ctx: &MailContext, composed: &ComposedMail) -> Rendered {
    let lines: Vec<String> = composed.body.lines().map(str::to_string).collect();
    render(
        ctx,
        &composed.subject,
        &composed.subject,
        &[Block::Lines(lines)],
    )
}

/// The outbox row for a composed mail, with its reply address and files.
pub fn new_mail<'a>(
    kind: &'a str,
    composed: &'a ComposedMail,
    rendered: &'a Rendered,
    attachments: &'a [Attachment],
) -> NewMail<'a> {
    NewMail {
        kind,
        recipient: &composed.to,
        subject: &rendered.subject,
        html: &rendered.html,
        text: &rendered.text,
        reply_to: composed.reply_to.as_deref(),
        attachments,
        ..NewMail::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_visitors_words_are_escaped_and_kept_line_by_line() {
        let composed = ComposedMail {
            to: "shop@example.test".into(),
            from_name: "Ferroshop".into(),
            subject: "Ferroshop \"Hello\"".into(),
            body: "From: Ada <ada@example.test>\nMessage Body:\n<script>alert(1)</script>".into(),
            reply_to: Some("ada@example.test".into()),
        };
        let rendered = render_composed(
            &MailContext::new("Ferroshop", "https://shop.example"),
            &composed,
        );
        assert!(
            rendered.html.contains("&lt;script&gt;"),
            "{}",
            rendered.html
        );
        assert!(!rendered.html.contains("<script>"));
        assert!(rendered.text.contains("<script>alert(1)</script>"));
        assert!(rendered.text.contains("From: Ada <ada@example.test>"));
        let files = [Attachment {
            filename: "cv.pdf".into(),
            media_type: "application/pdf".into(),
            content: b"%PDF".to_vec(),
        }];
        let mail = new_mail(CONTACT_MESSAGE, &composed, &rendered, &files);
        assert_eq!(mail.recipient, "shop@example.test");
        assert_eq!(mail.reply_to, Some("ada@example.test"));
        assert_eq!(mail.attachments.len(), 1);
        assert!(!mail.sensitive);
    }
}
