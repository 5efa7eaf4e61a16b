//! The nonce actions of the payment calls, as the original names them: each call
//! takes its own, bound to the shopper's session (see `session::Keys::nonce`).

pub const CREATE_PAYMENT_INTENT: &str = "wc_stripe_create_payment_intent_nonce";
pub const UPDATE_PAYMENT_INTENT: &str = "wc_stripe_update_payment_intent_nonce";
pub const CREATE_SETUP_INTENT: &str = "wc_stripe_create_setup_intent_nonce";
pub const CREATE_AND_CONFIRM_SETUP_INTENT: &str = "wc_stripe_create_and_confirm_setup_intent_nonce";
pub const UPDATE_FAILED_ORDER: &str = "wc_stripe_update_failed_order_nonce";
pub const UPDATE_ORDER_STATUS: &str = "wc_stripe_update_order_status_nonce";
pub const CONFIRM_CHANGE_PAYMENT: &str = "wc_stripe_confirm_change_payment_nonce";
pub const SAVE_APPEARANCE: &str = "wc_stripe_save_appearance_nonce";
