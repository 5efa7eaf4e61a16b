//! Where the shopper goes when the order call leaves the payment in their hands. The
//! answer's `redirect` is one of the original's return fragments, read by the page
//! the shopper is on (checkout or order-pay), or the provider's own page:
//!
//! - `#wc-stripe-confirm-{pi|si}:{order}:{client secret}:{nonce}`: a challenge (3-D
//!   Secure, a BLIK approval) finished in the page, then the shop told;
//! - `#wc-stripe-voucher-{order}:{method}:{client secret}:{return url}`: a voucher shown;
//! - `#wc-stripe-wallet-{order}:{wallet}:{intent kind}:{client secret}:{return url}:{nonce}`:
//!   a QR code or an app hand-off;
//! - the provider's address, for the methods that leave for the bank or lender.
//!
//! Return URLs are percent-encoded (every byte but the unreserved ones), so the
//! fragment's `:` separators stay unambiguous.

use super::methods::{Flow, MethodType};

/// What the shopper does next, as the provider's answer and the method's flow say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextStep {
    /// Confirm in the page with the provider's script.
    Confirm,
    /// Show the voucher.
    Voucher,
    /// Hand off to the wallet's app or QR code.
    Wallet,
    /// Leave for the provider's page.
    Redirect(String),
    /// Nothing in the page: the order waits (a bank account's micro-deposits).
    Wait,
}

/// The intent a return fragment confirms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntentKind {
    Payment,
    Setup,
}

impl IntentKind {
    /// `pi` or `si`, as the confirm fragment names it.
    pub fn short(self) -> &'static str {
        match self {
            Self::Payment => "pi",
            Self::Setup => "si",
        }
    }

    /// `payment_intent` or `setup_intent`, the provider's object name, as the wallet
    /// fragment names it.
    pub fn object(self) -> &'static str {
        match self {
            Self::Payment => "payment_intent",
            Self::Setup => "setup_intent",
        }
    }
}

/// The next step of an intent that needs the shopper: `action` is its
/// `next_action.type`, `action_url` the address that action names (if any).
pub fn next_step(method: MethodType, action: Option<&str>, action_url: Option<&str>) -> NextStep {
    match method.info().flow {
        Flow::Voucher => return NextStep::Voucher,
        Flow::Wallet => return NextStep::Wallet,
        _ => {}
    }
    match (action, action_url) {
        (Some("redirect_to_url" | "alipay_handle_redirect"), Some(url))
            if url.starts_with("https://") || url.starts_with("http://") =>
        {
            NextStep::Redirect(url.to_string())
        }
        (Some("verify_with_microdeposits"), _) => NextStep::Wait,
        _ => NextStep::Confirm,
    }
}

/// The parts every fragment is built from.
#[derive(Debug, Clone, Copy)]
pub struct FragmentParts<'a> {
    pub order_id: i64,
    pub method: MethodType,
    pub intent: IntentKind,
    pub client_secret: &'a str,
    /// Where the shopper ends up once paid (the order-received page).
    pub return_url: &'a str,
    /// The nonce of the call that tells the shop the outcome.
    pub nonce: &'a str,
}

/// The `redirect` of the order call's answer for `step`, `page` being the page the
/// shopper is on (the fragment is appended to it). `None` for `Wait`: the caller
/// sends the shopper to the return URL.
pub fn redirect_for(step: &NextStep, page: &str, parts: &FragmentParts<'_>) -> Option<String> {
    let p = parts;
    Some(match step {
        NextStep::Confirm => format!(
            "{page}#wc-stripe-confirm-{}:{}:{}:{}",
            p.intent.short(),
            p.order_id,
            p.client_secret,
            p.nonce
        ),
        NextStep::Voucher => format!(
            "{page}#wc-stripe-voucher-{}:{}:{}:{}",
            p.order_id,
            p.method.as_str(),
            p.client_secret,
            encode(p.return_url)
        ),
        NextStep::Wallet => format!(
            "{page}#wc-stripe-wallet-{}:{}:{}:{}:{}:{}",
            p.order_id,
            p.method.as_str(),
            p.intent.object(),
            p.client_secret,
            encode(p.return_url),
            p.nonce
        ),
        NextStep::Redirect(url) => url.clone(),
        NextStep::Wait => return None,
    })
}

/// Percent-encodes every byte but letters, digits and `-_.~`.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(method: MethodType) -> FragmentParts<'static> {
        FragmentParts {
            order_id: 42,
            method,
            intent: IntentKind::Payment,
            client_secret: "pi_1_secret_2",
            return_url: "https://shop.test/checkout/order-received/42/?key=wc_order_a",
            nonce: "n0nce",
        }
    }

    #[test]
    fn vouchers_and_wallets_get_their_fragments_whatever_the_action() {
        for m in [MethodType::Boleto, MethodType::Oxxo, MethodType::Multibanco] {
            assert_eq!(
                next_step(m, Some("boleto_display_details"), None),
                NextStep::Voucher
            );
        }
        for m in [MethodType::WechatPay, MethodType::Cashapp] {
            assert_eq!(
                next_step(m, Some("redirect_to_url"), Some("https://x.test")),
                NextStep::Wallet
            );
        }
        assert_eq!(
            redirect_for(&NextStep::Voucher, "https://shop.test/checkout/", &parts(MethodType::Oxxo)).unwrap(),
            "https://shop.test/checkout/#wc-stripe-voucher-42:oxxo:pi_1_secret_2:https%3A%2F%2Fshop.test%2Fcheckout%2Forder-received%2F42%2F%3Fkey%3Dwc_order_a"
        );
        assert_eq!(
            redirect_for(&NextStep::Wallet, "/checkout/", &parts(MethodType::Cashapp)).unwrap(),
            "/checkout/#wc-stripe-wallet-42:cashapp:payment_intent:pi_1_secret_2:https%3A%2F%2Fshop.test%2Fcheckout%2Forder-received%2F42%2F%3Fkey%3Dwc_order_a:n0nce"
        );
    }

    #[test]
    fn redirect_methods_leave_for_the_providers_page() {
        let step = next_step(
            MethodType::Ideal,
            Some("redirect_to_url"),
            Some("https://bank.test/a?b=1"),
        );
        assert_eq!(step, NextStep::Redirect("https://bank.test/a?b=1".into()));
        assert_eq!(
            redirect_for(&step, "/checkout/", &parts(MethodType::Ideal)).unwrap(),
            "https://bank.test/a?b=1"
        );
        assert_eq!(
            next_step(
                MethodType::Alipay,
                Some("alipay_handle_redirect"),
                Some("https://alipay.test/")
            ),
            NextStep::Redirect("https://alipay.test/".into())
        );
        // Anything but a web address is not followed.
        assert_eq!(
            next_step(
                MethodType::Ideal,
                Some("redirect_to_url"),
                Some("javascript:alert(1)")
            ),
            NextStep::Confirm
        );
    }

    #[test]
    fn challenges_are_confirmed_in_the_page_and_bank_checks_wait() {
        assert_eq!(
            next_step(MethodType::Card, Some("use_stripe_sdk"), None),
            NextStep::Confirm
        );
        assert_eq!(
            next_step(MethodType::Blik, Some("blik_authorize"), None),
            NextStep::Confirm
        );
        assert_eq!(
            redirect_for(&NextStep::Confirm, "/checkout/", &parts(MethodType::Blik)).unwrap(),
            "/checkout/#wc-stripe-confirm-pi:42:pi_1_secret_2:n0nce"
        );
        let step = next_step(
            MethodType::UsBankAccount,
            Some("verify_with_microdeposits"),
            None,
        );
        assert_eq!(step, NextStep::Wait);
        assert_eq!(
            redirect_for(&step, "/checkout/", &parts(MethodType::UsBankAccount)),
            None
        );
    }

    #[test]
    fn encoding_keeps_only_unreserved_bytes() {
        assert_eq!(encode("a-b_c.d~e"), "a-b_c.d~e");
        assert_eq!(encode("a:b/c?d=é"), "a%3Ab%2Fc%3Fd%3D%C3%A9");
    }
}
