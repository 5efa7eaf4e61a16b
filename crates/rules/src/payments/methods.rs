//! The provider's payment method types: what each is called, where and in which
//! currencies it can be used, whether it can be kept for later purchases, and how a
//! payment with it completes. The card method is the gateway `stripe`; every other
//! type is `stripe_{type}`.

/// How a payment with a method completes after the shopper submits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Settled at once, or after a 3-D Secure challenge handled in the page.
    Card,
    /// The shopper leaves for the bank or lender and comes back; the webhook settles.
    Redirect,
    /// A voucher paid later at a shop or bank; the order waits on hold.
    Voucher,
    /// A QR code or an app hand-off.
    Wallet,
    /// A bank debit under a mandate: processing first, settled days later.
    BankDebit,
    /// A six-digit code from the shopper's banking app.
    Blik,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodType {
    Blik,
    Card,
    UsBankAccount,
    AuBecsDebit,
    Giropay,
    Eps,
    Ideal,
    P24,
    SepaDebit,
    Sofort,
    Boleto,
    Oxxo,
    Bancontact,
    Alipay,
    Multibanco,
    Klarna,
    Affirm,
    AfterpayClearpay,
    WechatPay,
    Cashapp,
    AcssDebit,
    BacsDebit,
}

/// The countries of the Single Euro Payments Area whose banks take SEPA debits.
const SEPA: &[&str] = &[
    "AD", "AT", "BE", "BG", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GI", "GR",
    "HR", "HU", "IE", "IS", "IT", "LI", "LT", "LU", "LV", "MC", "MT", "NL", "NO", "PL", "PT", "RO",
    "SE", "SI", "SK", "SM", "VA",
];

const KLARNA: &[&str] = &[
    "AT", "AU", "BE", "CA", "CH", "CZ", "DE", "DK", "ES", "FI", "FR", "GB", "GR", "IE", "IT", "NL",
    "NO", "NZ", "PL", "PT", "SE", "US",
];

const EUR: &[&str] = &["EUR"];

/// What the storefront and checkout need to know of one method type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodInfo {
    pub id: &'static str,
    pub gateway_id: &'static str,
    pub title: &'static str,
    /// Billing countries the method is offered in; empty: all.
    pub countries: &'static [&'static str],
    /// Currencies it takes; empty: any the provider takes.
    pub currencies: &'static [&'static str],
    /// Whether it can be kept on the customer for later purchases.
    pub is_reusable: bool,
    /// Whether the intent can be made when the order is placed, after the element
    /// collected the details (the storefront's deferred flow).
    pub supports_deferred_intent: bool,
    pub flow: Flow,
}

impl MethodType {
    pub const ALL: [MethodType; 22] = [
        Self::Blik,
        Self::Card,
        Self::UsBankAccount,
        Self::AuBecsDebit,
        Self::Giropay,
        Self::Eps,
        Self::Ideal,
        Self::P24,
        Self::SepaDebit,
        Self::Sofort,
        Self::Boleto,
        Self::Oxxo,
        Self::Bancontact,
        Self::Alipay,
        Self::Multibanco,
        Self::Klarna,
        Self::Affirm,
        Self::AfterpayClearpay,
        Self::WechatPay,
        Self::Cashapp,
        Self::AcssDebit,
        Self::BacsDebit,
    ];

    pub fn info(self) -> MethodInfo {
        use Flow::*;
        let m = |id, gateway_id, title, countries, currencies, is_reusable, flow| MethodInfo {
            id,
            gateway_id,
            title,
            countries,
            currencies,
            is_reusable,
            supports_deferred_intent: true,
            flow,
        };
        match self {
            Self::Blik => m(
                "blik",
                "stripe_blik",
                "BLIK",
                &["PL"],
                &["PLN"],
                false,
                Blik,
            ),
            Self::Card => m(
                "card",
                "stripe",
                "Credit / Debit Card",
                &[],
                &[],
                true,
                Card,
            ),
            Self::UsBankAccount => m(
                "us_bank_account",
                "stripe_us_bank_account",
                "ACH Direct Debit",
                &["US"],
                &["USD"],
                true,
                BankDebit,
            ),
            Self::AuBecsDebit => m(
                "au_becs_debit",
                "stripe_au_becs_debit",
                "BECS Direct Debit",
                &["AU"],
                &["AUD"],
                true,
                BankDebit,
            ),
            Self::Giropay => m(
                "giropay",
                "stripe_giropay",
                "giropay",
                &["DE"],
                EUR,
                false,
                Redirect,
            ),
            Self::Eps => m("eps", "stripe_eps", "EPS", &["AT"], EUR, false, Redirect),
            Self::Ideal => m(
                "ideal",
                "stripe_ideal",
                "iDEAL",
                &["NL"],
                EUR,
                true,
                Redirect,
            ),
            Self::P24 => m(
                "p24",
                "stripe_p24",
                "Przelewy24",
                &["PL"],
                &["EUR", "PLN"],
                false,
                Redirect,
            ),
            Self::SepaDebit => m(
                "sepa_debit",
                "stripe_sepa_debit",
                "SEPA Direct Debit",
                SEPA,
                EUR,
                true,
                BankDebit,
            ),
            Self::Sofort => m(
                "sofort",
                "stripe_sofort",
                "Sofort",
                &["AT", "BE", "DE", "ES", "IT", "NL"],
                EUR,
                true,
                Redirect,
            ),
            Self::Boleto => m(
                "boleto",
                "stripe_boleto",
                "Boleto",
                &["BR"],
                &["BRL"],
                false,
                Voucher,
            ),
            Self::Oxxo => m(
                "oxxo",
                "stripe_oxxo",
                "OXXO",
                &["MX"],
                &["MXN"],
                false,
                Voucher,
            ),
            Self::Bancontact => m(
                "bancontact",
                "stripe_bancontact",
                "Bancontact",
                &["BE"],
                EUR,
                true,
                Redirect,
            ),
            Self::Alipay => m(
                "alipay",
                "stripe_alipay",
                "Alipay",
                &[],
                &[
                    "AUD", "CAD", "CNY", "EUR", "GBP", "HKD", "JPY", "MYR", "NZD", "SGD", "USD",
                ],
                false,
                Redirect,
            ),
            Self::Multibanco => m(
                "multibanco",
                "stripe_multibanco",
                "Multibanco",
                &["PT"],
                EUR,
                false,
                Voucher,
            ),
            Self::Klarna => m(
                "klarna",
                "stripe_klarna",
                "Klarna",
                KLARNA,
                &[
                    "AUD", "CAD", "CHF", "CZK", "DKK", "EUR", "GBP", "NOK", "NZD", "PLN", "SEK",
                    "USD",
                ],
                false,
                Redirect,
            ),
            Self::Affirm => m(
                "affirm",
                "stripe_affirm",
                "Affirm",
                &["CA", "US"],
                &["CAD", "USD"],
                false,
                Redirect,
            ),
            Self::AfterpayClearpay => m(
                "afterpay_clearpay",
                "stripe_afterpay_clearpay",
                "Clearpay / Afterpay",
                &["AU", "CA", "GB", "NZ", "US"],
                &["AUD", "CAD", "GBP", "NZD", "USD"],
                false,
                Redirect,
            ),
            Self::WechatPay => m(
                "wechat_pay",
                "stripe_wechat_pay",
                "WeChat Pay",
                &[],
                &[
                    "AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "HKD", "JPY", "NOK", "SEK",
                    "SGD", "USD",
                ],
                false,
                Wallet,
            ),
            Self::Cashapp => m(
                "cashapp",
                "stripe_cashapp",
                "Cash App Pay",
                &["US"],
                &["USD"],
                true,
                Wallet,
            ),
            Self::AcssDebit => m(
                "acss_debit",
                "stripe_acss_debit",
                "Pre-authorized debit",
                &["CA"],
                &["CAD", "USD"],
                true,
                BankDebit,
            ),
            Self::BacsDebit => m(
                "bacs_debit",
                "stripe_bacs_debit",
                "Bacs Direct Debit",
                &["GB"],
                &["GBP"],
                true,
                BankDebit,
            ),
        }
    }

    pub fn as_str(self) -> &'static str {
        self.info().id
    }

    pub fn gateway_id(self) -> &'static str {
        self.info().gateway_id
    }

    /// A method type by the provider's name for it (`card`, `sepa_debit`).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// A method type by its gateway id (`stripe`, `stripe_sepa_debit`).
    pub fn from_gateway_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.gateway_id() == id)
    }

    /// Methods whose save option is never shown: they cannot be kept, or the provider
    /// does not let the shop reuse them without the shopper present.
    pub fn save_option_hidden(self) -> bool {
        matches!(
            self,
            Self::Alipay
                | Self::Affirm
                | Self::AfterpayClearpay
                | Self::AuBecsDebit
                | Self::Boleto
                | Self::Eps
                | Self::Giropay
                | Self::Multibanco
                | Self::P24
                | Self::Oxxo
                | Self::WechatPay
        )
    }

    /// Whether the method can pay in `currency` (ISO code, any case).
    pub fn takes_currency(self, currency: &str) -> bool {
        let currencies = self.info().currencies;
        currencies.is_empty() || currencies.iter().any(|c| c.eq_ignore_ascii_case(currency))
    }

    /// Whether the method is offered to a shopper billed in `country`; an unknown
    /// country (empty) only sees methods offered everywhere.
    pub fn offered_in(self, country: &str) -> bool {
        let countries = self.info().countries;
        countries.is_empty() || countries.iter().any(|c| c.eq_ignore_ascii_case(country))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_has_its_gateway_id_and_parses_back() {
        for t in MethodType::ALL {
            let info = t.info();
            assert_eq!(MethodType::parse(info.id), Some(t));
            assert_eq!(MethodType::from_gateway_id(info.gateway_id), Some(t));
            if t == MethodType::Card {
                assert_eq!(info.gateway_id, "stripe");
            } else {
                assert_eq!(info.gateway_id, format!("stripe_{}", info.id));
            }
        }
        assert_eq!(MethodType::parse("link"), None);
        assert_eq!(MethodType::from_gateway_id("stripe_card"), None);
    }

    #[test]
    fn the_save_option_is_hidden_for_the_listed_methods_only() {
        let hidden: Vec<&str> = MethodType::ALL
            .into_iter()
            .filter(|t| t.save_option_hidden())
            .map(MethodType::as_str)
            .collect();
        assert_eq!(
            hidden,
            [
                "au_becs_debit",
                "giropay",
                "eps",
                "p24",
                "boleto",
                "oxxo",
                "alipay",
                "multibanco",
                "affirm",
                "afterpay_clearpay",
                "wechat_pay"
            ]
        );
    }

    #[test]
    fn countries_and_currencies_limit_where_a_method_is_offered() {
        assert!(MethodType::Card.offered_in("JP") && MethodType::Card.takes_currency("jpy"));
        assert!(MethodType::Ideal.offered_in("nl") && !MethodType::Ideal.offered_in("DE"));
        assert!(!MethodType::Ideal.offered_in(""));
        assert!(
            MethodType::Ideal.takes_currency("EUR") && !MethodType::Ideal.takes_currency("GBP")
        );
        assert!(MethodType::Blik.offered_in("PL") && MethodType::Blik.takes_currency("PLN"));
    }
}
