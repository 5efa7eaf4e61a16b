//! What confirming an intent does for each payment method type: the `next_action`
//! the shopper is shown (pointing at this double's own authorisation page), or the
//! status the intent moves to at once. Nothing here changes state: the checks come
//! first, so a refused confirmation leaves the intent as it was.

use serde_json::{json, Map, Value};

use crate::error::ApiError;
use crate::objects::{random_digits, random_text, Flow, PaymentMethod};

/// A 1×1 PNG: the "QR code" the double shows.
pub(crate) const QR_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x7e, 0x9b,
    0x55, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x01, 0x48, 0xaf, 0xa4, 0x71, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];
/// `QR_PNG` in base64, for `image_data_url`.
const QR_PNG_BASE64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==";
/// The same "QR code" as SVG.
pub(crate) const QR_SVG: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>"#;

const DAY: i64 = 24 * 60 * 60;

/// What a confirmation leads to.
#[derive(Debug)]
pub(crate) enum Step {
    /// `succeeded` (or `requires_capture` under manual capture).
    Succeed,
    /// `processing`, settled later by a control call.
    Process,
    /// A declined card: 402 and `requires_payment_method`.
    Decline,
    /// `requires_action` with this `next_action`.
    Action(Value),
}

/// One confirmation's inputs.
pub(crate) struct Confirming<'a> {
    pub intent_id: &'a str,
    pub method: &'a PaymentMethod,
    pub return_url: Option<&'a str>,
    /// `payment_method_options`, as sent at creation and confirmation.
    pub options: &'a Map<String, Value>,
    pub mandate_data: Option<&'a Value>,
    /// Where the shopper's browser reaches this double.
    pub public_base: &'a str,
    pub now: i64,
}

impl Confirming<'_> {
    fn page(&self) -> String {
        authorize_url(self.public_base, self.intent_id)
    }

    fn qr(&self, extension: &str) -> String {
        format!(
            "{}/_double/qr/{}.{extension}",
            self.public_base, self.intent_id
        )
    }

    fn option(&self, path: &[&str]) -> Option<&str> {
        let name = self.method.kind.name;
        let mut value = self.options.get(name)?;
        for key in path {
            value = value.get(*key)?;
        }
        value.as_str().filter(|text| !text.is_empty())
    }

    fn return_url(&self) -> Result<&str, ApiError> {
        self.return_url.ok_or_else(|| {
            ApiError::invalid(format!(
                "A return_url is needed to confirm with a {} payment method: the shopper comes back to it.",
                self.method.kind.name
            ))
            .code("parameter_missing")
            .param("return_url")
        })
    }

    /// A bank debit needs the shopper's mandate, or a method kept for a customer.
    fn check_mandate(&self) -> Result<(), ApiError> {
        let acceptance = self
            .mandate_data
            .and_then(|data| data.get("customer_acceptance"));
        match acceptance.and_then(|acceptance| acceptance.get("type")).and_then(Value::as_str) {
            Some("online" | "offline") => Ok(()),
            Some(other) => Err(ApiError::invalid_param(
                "mandate_data[customer_acceptance][type]",
                format!("Invalid mandate acceptance type: {other} (online or offline)."),
            )),
            None if self.method.customer.is_some() || self.method.mandate.is_some() => Ok(()),
            None => Err(ApiError::invalid(format!(
                "A {} payment needs the shopper's mandate: send mandate_data[customer_acceptance][type] (online or offline).",
                self.method.kind.name
            ))
            .code("parameter_missing")
            .param("mandate_data[customer_acceptance][type]")),
        }
    }

    fn microdeposits(&self) -> Value {
        json!({
            "type": "verify_with_microdeposits",
            "verify_with_microdeposits": {
                "arrival_date": self.now + 2 * DAY,
                "hosted_verification_url": self.page(),
                "microdeposit_type": "descriptor_code",
            },
        })
    }
}

/// The authorisation page of an intent.
pub(crate) fn authorize_url(public_base: &str, intent_id: &str) -> String {
    format!("{public_base}/_double/authorize/{intent_id}")
}

/// What confirming a payment intent does.
pub(crate) fn for_payment(c: &Confirming) -> Result<Step, ApiError> {
    let name = c.method.kind.name;
    Ok(match c.method.kind.flow {
        Flow::Card if c.method.declines => Step::Decline,
        Flow::Card => Step::Succeed,
        Flow::Redirect => redirect(c)?,
        Flow::Alipay => {
            let return_url = c.return_url()?;
            json_action(
                "alipay_handle_redirect",
                json!({
                    "native_data": null,
                    "native_url": c.page(),
                    "return_url": return_url,
                    "url": c.page(),
                }),
            )
        }
        Flow::Voucher => {
            let days = voucher_days(c)?;
            let expires = c.now + days * DAY;
            let details = match name {
                "boleto" => json!({
                    "expires_at": expires,
                    "hosted_voucher_url": c.page(),
                    "number": random_digits(47),
                    "pdf": c.page(),
                }),
                "oxxo" => json!({
                    "expires_after": expires,
                    "hosted_voucher_url": c.page(),
                    "number": random_digits(18),
                }),
                _ => json!({
                    "entity": random_digits(5),
                    "expires_at": expires,
                    "hosted_voucher_url": c.page(),
                    "reference": random_digits(9),
                }),
            };
            json_action(&format!("{name}_display_details"), details)
        }
        Flow::WechatPay => match c.option(&["client"]) {
            None => return Err(ApiError::missing("payment_method_options[wechat_pay][client]")),
            Some("web") => json_action(
                "wechat_pay_display_qr_code",
                json!({
                    "data": format!("provider-double:wechat_pay:{}:{}", c.intent_id, random_text(8)),
                    "hosted_instructions_url": c.page(),
                    "image_data_url": format!("data:image/png;base64,{QR_PNG_BASE64}"),
                    "image_url_png": c.qr("png"),
                    "image_url_svg": c.qr("svg"),
                }),
            ),
            Some(other) => {
                return Err(ApiError::invalid_param(
                    "payment_method_options[wechat_pay][client]",
                    format!("This test double shows WeChat Pay's QR code to the web client only, not to {other}."),
                ))
            }
        },
        Flow::Cashapp => cashapp(c),
        Flow::Blik => {
            match c.option(&["code"]) {
                None => {
                    return Err(ApiError::invalid(
                        "A BLIK payment needs the six-digit code from the shopper's banking app.",
                    )
                    .code("parameter_invalid_empty")
                    .param("payment_method_options[blik][code]"))
                }
                Some(code) if code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) => {}
                Some(_) => {
                    return Err(ApiError::invalid("The BLIK code must be six digits.")
                        .code("invalid_blik_code")
                        .param("payment_method_options[blik][code]"))
                }
            }
            json_action("blik_authorize", json!({}))
        }
        Flow::BankDebit => {
            c.check_mandate()?;
            Step::Process
        }
        Flow::UsBankAccount if c.method.needs_microdeposits => Step::Action(c.microdeposits()),
        Flow::UsBankAccount => Step::Process,
    })
}

/// What confirming a setup intent does (only reusable types get here).
pub(crate) fn for_setup(c: &Confirming) -> Result<Step, ApiError> {
    Ok(match c.method.kind.flow {
        Flow::Card if c.method.declines => Step::Decline,
        Flow::Card => Step::Succeed,
        Flow::BankDebit => {
            c.check_mandate()?;
            Step::Succeed
        }
        Flow::UsBankAccount if c.method.needs_microdeposits => Step::Action(c.microdeposits()),
        Flow::UsBankAccount => Step::Succeed,
        Flow::Redirect => redirect(c)?,
        Flow::Cashapp => cashapp(c),
        _ => {
            return Err(ApiError::invalid(format!(
                "A {} payment method cannot be set up for later payments.",
                c.method.kind.name
            ))
            .param("payment_method"))
        }
    })
}

fn json_action(kind: &str, details: Value) -> Step {
    let mut action = json!({ "type": kind });
    action[kind] = details;
    Step::Action(action)
}

fn redirect(c: &Confirming) -> Result<Step, ApiError> {
    let return_url = c.return_url()?;
    Ok(json_action(
        "redirect_to_url",
        json!({ "return_url": return_url, "url": c.page() }),
    ))
}

fn cashapp(c: &Confirming) -> Step {
    json_action(
        "cashapp_handle_redirect_or_display_qr_code",
        json!({
            "hosted_instructions_url": c.page(),
            "mobile_auth_url": c.page(),
            "qr_code": {
                "expires_at": c.now + 30 * 60,
                "image_url_png": c.qr("png"),
                "image_url_svg": c.qr("svg"),
            },
        }),
    )
}

/// `payment_method_options[{type}][expires_after_days]`, else the type's default.
fn voucher_days(c: &Confirming) -> Result<i64, ApiError> {
    let name = c.method.kind.name;
    match c.option(&["expires_after_days"]) {
        None => Ok(if name == "multibanco" { 7 } else { 3 }),
        Some(text) => text
            .parse()
            .ok()
            .filter(|days| (1..=60).contains(days))
            .ok_or_else(|| {
                ApiError::invalid_param(
                    &format!("payment_method_options[{name}][expires_after_days]"),
                    "This value must be a whole number of days from 1 to 60.",
                )
            }),
    }
}
