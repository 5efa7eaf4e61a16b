//! What shoppers read when a payment goes wrong: the provider's error codes in the
//! shop's words (the same table the storefront receives in its page settings), and the
//! fixed messages of the payment pages.

/// The provider's error codes and what the shopper reads for each.
pub const ERROR_MESSAGES: [(&str, &str); 24] = [
    ("invalid_number", "The card number is not a valid credit card number."),
    ("invalid_expiry_month", "The card's expiration month is invalid."),
    ("invalid_expiry_year", "The card's expiration year is invalid."),
    ("invalid_cvc", "The card's security code is invalid."),
    ("incorrect_number", "The card number is incorrect."),
    ("incomplete_number", "The card number is incomplete."),
    ("incomplete_cvc", "The card's security code is incomplete."),
    ("incomplete_expiry", "The card's expiration date is incomplete."),
    ("expired_card", "The card has expired."),
    ("incorrect_cvc", "The card's security code is incorrect."),
    ("incorrect_zip", "The card's zip code failed validation."),
    ("postal_code_invalid", "Invalid zip code, please correct and try again"),
    ("invalid_expiry_year_past", "The card's expiration year is in the past"),
    ("card_declined", "The card was declined."),
    ("missing", "There is no card on a customer that is being charged."),
    ("processing_error", "An error occurred while processing the card."),
    ("invalid_sofort_country", "The billing country is not accepted by Sofort. Please try another country."),
    ("email_invalid", "Invalid email address, please correct and try again."),
    ("invalid_request_error", "Unable to process this payment, please try again or use alternative method."),
    ("amount_too_large", "The order total is too high for this payment method"),
    ("amount_too_small", "The order total is too low for this payment method"),
    ("country_code_invalid", "Invalid country code, please try again with a valid country code"),
    ("tax_id_invalid", "Invalid Tax Id, please try again with a valid tax id"),
    ("payment_intent_authentication_failure", "We are unable to authenticate your payment method. Please choose a different payment method and try again."),
];

/// `invalid_request_error` on the add-payment-method page.
pub const UNABLE_TO_SAVE: &str =
    "Unable to save this payment method, please try again or use alternative method.";
pub const INVALID_WALLET_TYPE: &str =
    "Invalid wallet payment type, please try again or use an alternative method.";
pub const GENERIC_ERROR: &str = "There was a problem processing the payment. Please check your email inbox and refresh the page to try again.";
/// A method type not offered where the order is billed.
pub const INVALID_METHOD_TYPE: &str = "The selected payment method type is invalid.";
/// A checkout sent again for an order whose payment did not go through.
pub const NOT_PAID_YET: &str =
    "Your order was placed but its payment did not go through. Please pay for it on its payment page.";
pub const PAYMENT_FAILED: &str = "Payment failed. Please try again.";
pub const INVALID_DETAILS: &str = "Invalid or missing payment details. Please ensure the provided payment method is correctly entered.";
/// The provider could not be reached (after retries).
pub const UNREACHABLE: &str = "An error occurred while connecting to the server. Please try again.";
pub const IN_PROGRESS: &str =
    "This order's payment is already being processed. Please wait a moment and refresh the page.";

/// The shop's words for a provider error: its decline code or code if the table has
/// it, else the provider's own message, else "Payment failed. Please try again."
pub fn for_error(code: Option<&str>, decline_code: Option<&str>, message: Option<&str>) -> String {
    let known = |c: Option<&str>| {
        ERROR_MESSAGES
            .iter()
            .find(|(k, _)| Some(*k) == c)
            .map(|(_, m)| m.to_string())
    };
    known(decline_code)
        .or_else(|| known(code))
        .or_else(|| {
            message
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_string)
        })
        .unwrap_or_else(|| PAYMENT_FAILED.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_in_the_shops_words_and_unknown_ones_in_the_providers() {
        assert_eq!(
            for_error(
                Some("card_declined"),
                Some("insufficient_funds"),
                Some("Your card has insufficient funds.")
            ),
            "The card was declined."
        );
        assert_eq!(
            for_error(Some("card_declined"), Some("expired_card"), None),
            "The card has expired."
        );
        assert_eq!(
            for_error(Some("rate_limit"), None, Some("Too many requests")),
            "Too many requests"
        );
        assert_eq!(for_error(None, None, Some("  ")), PAYMENT_FAILED);
    }
}
