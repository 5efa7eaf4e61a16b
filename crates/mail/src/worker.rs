//! The sender: a background task on every instance that claims due mails from the
//! outbox, sends them over SMTP and settles each one (sent, retry later, or failed for
//! good after `MAX_ATTEMPTS`). It wakes when a mail is queued in this process and
//! otherwise looks every few seconds, which also picks up mail queued elsewhere and
//! retries that have come due.

use std::time::Duration;

use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use rand::RngCore;
use secrecy::ExposeSecret;
use tokio::sync::{watch, Notify};

use super::config::{MailConfig, SmtpTls};
use rules::clock;
use store::outbox::{self, OutboxMail};
use store::Db;
use store::StoreResult;

/// After this many attempts a mail is marked failed (and kept).
pub const MAX_ATTEMPTS: i64 = 10;
/// How long a claim holds a mail; longer than any one send can take.
const LEASE_SECS: i64 = 600;
const POLL: Duration = Duration::from_secs(5);
const BATCH: i64 = 20;
const SEND_TIMEOUT: Duration = Duration::from_secs(60);

// A hint only: the outbox is the truth, and every instance polls it anyway.
static WAKE: Notify = Notify::const_new();

/// Tells this process's senders to look at the outbox now.
pub fn wake() {
    WAKE.notify_waiters();
}

/// Seconds to wait after the `attempts`-th failed attempt: 1 min, 5 min, 30 min, 2 h,
/// then growing to a day.
pub fn retry_delay(attempts: i64) -> i64 {
    const DELAYS: [i64; 9] = [60, 300, 1800, 7200, 14_400, 28_800, 43_200, 86_400, 86_400];
    let i = (attempts.max(1) - 1).min(DELAYS.len() as i64 - 1);
    DELAYS[i as usize]
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// Worth trying again later (connection refused, timeout, 4xx).
    Transient(String),
    /// The server refused it for good (5xx) or it cannot be sent as it is.
    Permanent(String),
}

/// What to do with a mail after an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settle {
    Sent,
    RetryAt(i64, String),
    Failed(String),
}

pub fn settle(attempts: i64, result: Result<(), SendError>, now: i64) -> Settle {
    match result {
        Ok(()) => Settle::Sent,
        Err(SendError::Permanent(e)) => Settle::Failed(e),
        Err(SendError::Transient(e)) if attempts >= MAX_ATTEMPTS => Settle::Failed(e),
        Err(SendError::Transient(e)) => Settle::RetryAt(now + retry_delay(attempts), e),
    }
}

/// Starts the sender, unless no SMTP host is configured: then mail stays queued.
/// Starts the worker that sends the outbox; None when mail is not sent. It stops when
/// `stopped` changes, after the mail it is sending.
pub fn spawn(
    db: Db,
    config: &MailConfig,
    stopped: watch::Receiver<bool>,
) -> Option<tokio::task::JoinHandle<()>> {
    if !config.sending_enabled() {
        tracing::warn!(
            "FERROSHOP_SMTP_HOST is not set: e-mails are kept in the outbox and not sent"
        );
        return None;
    }
    let sender = match Sender::new(config) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "cannot set up SMTP; e-mails are kept in the outbox");
            return None;
        }
    };
    Some(tokio::spawn(run(db, sender, stopped)))
}

async fn run(db: Db, sender: Sender, mut stopped: watch::Receiver<bool>) {
    loop {
        // Registered before looking, so a wake-up during the look is not lost.
        let notified = WAKE.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if let Err(e) = drain(&db, &sender).await {
            tracing::warn!(error = %e, "could not read the mail outbox");
        }
        tokio::select! {
            _ = stopped.changed() => return,
            _ = &mut notified => {}
            _ = tokio::time::sleep(POLL) => {}
        }
    }
}

/// Sends everything due, batch by batch.
async fn drain(db: &Db, sender: &Sender) -> StoreResult<()> {
    loop {
        let now = clock::now();
        let token = lease_token();
        let claimed = outbox::claim_due(db, now, now + LEASE_SECS, &token, BATCH).await?;
        if claimed.is_empty() {
            return Ok(());
        }
        for mail in &claimed {
            let result = sender.send(mail).await;
            let now = clock::now();
            let kept = match settle(mail.attempts, result, now) {
                Settle::Sent => {
                    tracing::info!(mail = mail.id, kind = %mail.kind, "sent an e-mail");
                    outbox::mark_sent(db, mail.id, &token, now).await?
                }
                Settle::RetryAt(at, error) => {
                    tracing::warn!(mail = mail.id, kind = %mail.kind, attempts = mail.attempts, %error, "could not send an e-mail; will retry");
                    outbox::retry_later(db, mail.id, &token, at, &error).await?
                }
                Settle::Failed(error) => {
                    tracing::error!(mail = mail.id, kind = %mail.kind, attempts = mail.attempts, %error, "gave up sending an e-mail");
                    outbox::mark_failed(db, mail.id, &token, &error).await?
                }
            };
            if !kept {
                tracing::warn!(
                    mail = mail.id,
                    "the claim on an e-mail ran out before it was settled"
                );
            }
        }
    }
}

fn lease_token() -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

struct Sender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Sender {
    fn new(config: &MailConfig) -> Result<Sender, lettre::transport::smtp::Error> {
        let host = config.smtp_host.trim();
        let builder = match config.smtp_tls {
            SmtpTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
            SmtpTls::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host)?,
            SmtpTls::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(host)?,
        };
        let mut builder = builder.port(config.smtp_port).timeout(Some(SEND_TIMEOUT));
        if !config.smtp_username.is_empty() {
            builder = builder.credentials(Credentials::new(
                config.smtp_username.clone(),
                config.smtp_password.expose_secret().to_string(),
            ));
        }
        Ok(Sender {
            transport: builder.build(),
            from: config.from_mailbox(),
        })
    }

    fn message(&self, mail: &OutboxMail) -> Result<Message, SendError> {
        let to: Mailbox = mail.recipient.parse().map_err(|e| {
            SendError::Permanent(format!("the recipient is not a valid address: {e}"))
        })?;
        // The same id on every attempt, so a receiver can drop a duplicate.
        let message_id = format!(
            "<outbox.{}.{}@{}>",
            mail.id,
            mail.created_at,
            self.from.email.domain()
        );
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.clone())
            .message_id(Some(message_id));
        // A reply address that no longer reads as one is left out, not the mail.
        if let Some(reply_to) = mail.reply_to.as_deref().and_then(|r| r.parse().ok()) {
            builder = builder.reply_to(reply_to);
        }
        if let Some(address) = mail.list_unsubscribe.as_deref() {
            builder = builder.header(ListUnsubscribe(format!("<{address}>")));
            // One click in the mail program unsubscribes, by a POST to that address.
            if address.starts_with("https://") || address.starts_with("http://") {
                builder = builder.header(ListUnsubscribePost);
            }
        }
        let body = MultiPart::alternative_plain_html(mail.text.clone(), mail.html.clone());
        let built = if mail.attachments.is_empty() {
            builder.multipart(body)
        } else {
            let mixed =
                mail.attachments
                    .iter()
                    .fold(MultiPart::mixed().multipart(body), |mixed, file| {
                        let media_type =
                            ContentType::parse(&file.media_type).unwrap_or_else(|_| {
                                ContentType::parse("application/octet-stream")
                                    .expect("a valid media type")
                            });
                        mixed.singlepart(
                            Attachment::new(file.filename.clone())
                                .body(file.content.clone(), media_type),
                        )
                    });
            builder.multipart(mixed)
        };
        built.map_err(|e| SendError::Permanent(format!("cannot build the message: {e}")))
    }

    async fn send(&self, mail: &OutboxMail) -> Result<(), SendError> {
        let message = self.message(mail)?;
        match tokio::time::timeout(SEND_TIMEOUT, self.transport.send(message)).await {
            Err(_) => Err(SendError::Transient("timed out".into())),
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) if e.is_permanent() => Err(SendError::Permanent(e.to_string())),
            Ok(Err(e)) => Err(SendError::Transient(e.to_string())),
        }
    }
}

/// `List-Unsubscribe: <address>`, on mail a recipient signed up to.
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_and_stop_after_ten_attempts() {
        let delays: Vec<i64> = (1..=4).map(retry_delay).collect();
        assert_eq!(delays, vec![60, 300, 1800, 7200]);
        assert_eq!(retry_delay(50), 86_400);
        let fail = || Err(SendError::Transient("refused".into()));
        assert_eq!(
            settle(1, fail(), 1000),
            Settle::RetryAt(1060, "refused".into())
        );
        assert_eq!(
            settle(9, fail(), 0),
            Settle::RetryAt(86_400, "refused".into())
        );
        assert_eq!(settle(10, fail(), 0), Settle::Failed("refused".into()));
        assert_eq!(
            settle(1, Err(SendError::Permanent("550 no such user".into())), 0),
            Settle::Failed("550 no such user".into())
        );
        assert_eq!(settle(3, Ok(()), 0), Settle::Sent);
    }
}
