//! The account e-mails: welcome after registration, and the password-reset link.

use super::layout::{render, Block, MailContext, Rendered};

pub const NEW_ACCOUNT: &str = "customer_new_account";
pub const RESET_PASSWORD: &str = "customer_reset_password";

/// Where the account area lives in the storefront.
pub const ACCOUNT_PATH: &str = "/my-account/";

pub fn new_account(ctx: &MailContext, name: &str, email: &str) -> Rendered {
    let shop = &ctx.shop_name;
    render(
        ctx,
        &format!("Your {shop} account has been created!"),
        &format!("Welcome to {shop}"),
        &[
            Block::Paragraph(format!("Hi {name},")),
            Block::Paragraph(format!(
                "Thanks for creating an account on {shop}. Your username is {email}. You can access your account area to view orders, change your password, and more:"
            )),
            Block::Button {
                label: "Go to your account".into(),
                url: ctx.link(ACCOUNT_PATH),
            },
            Block::Paragraph("We look forward to seeing you soon.".into()),
        ],
    )
}

/// The link in the reset mail: the storefront's lost-password page with the key.
pub fn reset_link(ctx: &MailContext, key: &str, email: &str) -> String {
    let query = serde_urlencoded::to_string([("key", key), ("login", email)]).unwrap_or_default();
    ctx.link(&format!("{ACCOUNT_PATH}lost-password/?{query}"))
}

pub fn reset_password(ctx: &MailContext, name: &str, email: &str, key: &str) -> Rendered {
    let shop = &ctx.shop_name;
    render(
        ctx,
        &format!("Password Reset Request for {shop}"),
        "Password Reset Request",
        &[
            Block::Paragraph(format!("Hi {name},")),
            Block::Paragraph(format!(
                "Someone has requested a new password for the following account on {shop}:"
            )),
            Block::Paragraph(format!("Username: {email}")),
            Block::Paragraph(
                "If you didn't make this request, just ignore this email. The link works once, for 24 hours. If you'd like to proceed:"
                    .into(),
            ),
            Block::Button {
                label: "Click here to reset your password".into(),
                url: reset_link(ctx, key, email),
            },
            Block::Paragraph("Thanks for reading.".into()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> MailContext {
        MailContext::new("Lumen & Loom", "https://shop.example")
    }

    #[test]
    fn the_welcome_mail_names_the_shop_and_the_account() {
        let m = new_account(&ctx(), "Ada", "ada@example.test");
        assert_eq!(m.subject, "Your Lumen & Loom account has been created!");
        assert_eq!(
            m.text,
            "Welcome to Lumen & Loom\n\n\
             Hi Ada,\n\n\
             Thanks for creating an account on Lumen & Loom. Your username is ada@example.test. You can access your account area to view orders, change your password, and more:\n\n\
             Go to your account: https://shop.example/my-account/\n\n\
             We look forward to seeing you soon.\n\n\
             -- \nLumen & Loom\nhttps://shop.example/\n"
        );
        assert!(m.html.contains(">Welcome to Lumen &amp; Loom</h1>"));
        assert!(m.html.contains("href=\"https://shop.example/my-account/\""));
    }

    #[test]
    fn the_reset_mail_carries_the_key_and_the_login() {
        let m = reset_password(&ctx(), "Ada <b>", "ada+x@example.test", "KEY123");
        assert_eq!(m.subject, "Password Reset Request for Lumen & Loom");
        let link = "https://shop.example/my-account/lost-password/?key=KEY123&login=ada%2Bx%40example.test";
        assert!(m
            .text
            .contains(&format!("Click here to reset your password: {link}\n")));
        assert!(m.text.contains("Hi Ada <b>,\n"));
        assert!(m.html.contains("Hi Ada &lt;b&gt;,"));
        assert!(m
            .html
            .contains(&format!("href=\"{}\"", link.replace('&', "&amp;"))));
    }
}
