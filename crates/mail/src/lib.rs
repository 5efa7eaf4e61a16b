//! E-mail: the templates (HTML and plain text), the outbox every mail is written to
//! first, and the worker that sends from it over SMTP with retries. Queuing is cheap
//! and transactional; sending happens in the background on whichever instance claims
//! the mail first.

pub mod account;
pub mod config;
pub mod contact;
pub mod layout;
pub mod newsletter;
pub mod order;
pub mod worker;

use sqlx::{Any, Transaction};

pub use config::{FileMail, MailConfig, SmtpTls};
pub use layout::{MailContext, Rendered};
pub use worker::wake;

use store::outbox::{self, NewMail};
use store::{Db, StoreResult};

fn new_mail<'a>(kind: &'a str, to: &'a str, mail: &'a Rendered) -> NewMail<'a> {
    NewMail {
        kind,
        recipient: to,
        subject: &mail.subject,
        html: &mail.html,
        text: &mail.text,
        sensitive: holds_secret(kind),
        ..NewMail::default()
    }
}

/// Mails whose text holds a secret (a single-use key) that must not outlive sending.
fn holds_secret(kind: &str) -> bool {
    kind == account::RESET_PASSWORD
}

/// Queues a mail and wakes the sender. Returns the outbox id.
pub async fn queue(db: &Db, kind: &str, to: &str, mail: &Rendered) -> StoreResult<i64> {
    let id = outbox::queue(db, &new_mail(kind, to, mail), rules::clock::now()).await?;
    wake();
    Ok(id)
}

/// Queues a mail inside the caller's transaction. Call `wake()` after committing so it
/// goes out at once; otherwise the sender finds it within a few seconds.
pub async fn queue_in(
    tx: &mut Transaction<'_, Any>,
    kind: &str,
    to: &str,
    mail: &Rendered,
) -> StoreResult<i64> {
    outbox::queue_in(tx, &new_mail(kind, to, mail), rules::clock::now()).await
}
