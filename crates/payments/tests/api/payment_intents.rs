//! Payment intents through the emulator: paid, declined, 3-D Secure, captured later,
//! canceled.

use ferroshop_payments::*;

use crate::common::emulator::Emulator;
use crate::common::key;

fn eur(amount: i64) -> CreatePaymentIntent {
    CreatePaymentIntent::new(amount, Currency::parse("EUR").unwrap())
}

#[tokio::test]
async fn a_card_payment_succeeds() {
    let client = Emulator::shared().client();
    let mut params = eur(1200);
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    params.metadata.insert("order_id".into(), "12".into());
    let created = client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap();
    assert_eq!(created.status, PaymentIntentStatus::RequiresConfirmation);
    assert_eq!(created.object, "payment_intent");
    assert!(created.client_secret.is_some());

    let confirmed = client
        .confirm_payment_intent(
            &created.id,
            &ConfirmPaymentIntent::default(),
            &key("confirm"),
        )
        .await
        .unwrap();
    assert_eq!(confirmed.status, PaymentIntentStatus::Succeeded);
    assert_eq!(confirmed.amount, 1200);
    assert_eq!(confirmed.currency.as_str(), "eur");
    assert_eq!(confirmed.metadata["order_id"], "12");
    assert_eq!(
        confirmed.payment_method_id().unwrap().as_str(),
        "pm_card_visa"
    );
    let charge = confirmed
        .latest_charge
        .as_ref()
        .unwrap()
        .as_object()
        .unwrap();
    assert_eq!(charge.status, ChargeStatus::Succeeded);
    assert_eq!(charge.amount, 1200);
    assert_eq!(charge.payment_intent.as_ref(), Some(&created.id));

    let retrieved = client.retrieve_payment_intent(&created.id).await.unwrap();
    assert_eq!(retrieved.status, PaymentIntentStatus::Succeeded);
    assert_eq!(retrieved.latest_charge_id(), confirmed.latest_charge_id());
}

#[tokio::test]
async fn a_card_payment_confirmed_at_creation_succeeds() {
    let client = Emulator::shared().client();
    let mut params = eur(900);
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    params.confirm = Some(true);
    params.payment_method_types = vec!["card".into()];
    params.expand = vec!["latest_charge".into()];
    let intent = client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::Succeeded);
    assert_eq!(intent.capture_method, Some(CaptureMethod::AutomaticAsync));
}

#[tokio::test]
async fn a_declined_card_is_a_provider_error_and_the_intent_then_requires_a_payment_method() {
    let client = Emulator::shared().client();
    let mut params = eur(1500);
    params.payment_method = Some(PaymentMethodId::new("pm_card_chargeCustomerFail"));
    let created = client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap();

    let error = client
        .confirm_payment_intent(
            &created.id,
            &ConfirmPaymentIntent::default(),
            &key("confirm"),
        )
        .await
        .unwrap_err();
    let refused = error.provider_error().expect("the provider's error object");
    assert_eq!(refused.status, 402);
    assert_eq!(refused.code.as_deref(), Some("card_declined"));
    assert!(refused.is_card_error());
    assert!(refused.message.is_some());
    assert!(refused.charge.is_some());

    let intent = client.retrieve_payment_intent(&created.id).await.unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresPaymentMethod);
    let last_error = intent.last_payment_error.expect("the last payment error");
    assert_eq!(last_error.code.as_deref(), Some("card_declined"));
    assert_eq!(
        last_error.message.as_deref(),
        Some("Your card was declined.")
    );
}

/// An intent confirmed with the 3-D Secure test card, waiting for the shopper.
async fn intent_waiting_for_3d_secure(emulator: &Emulator, client: &Client) -> PaymentIntent {
    let card = emulator.create_card("4000000000003220").await;
    let mut params = eur(2500);
    params.payment_method = Some(card.clone());
    let created = client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap();
    let confirmed = client
        .confirm_payment_intent(
            &created.id,
            &ConfirmPaymentIntent::default(),
            &key("confirm"),
        )
        .await
        .unwrap();
    assert_eq!(confirmed.status, PaymentIntentStatus::RequiresAction);
    assert_eq!(confirmed.payment_method_id(), Some(&card));
    let next_action = confirmed.next_action.as_ref().expect("a next action");
    assert_eq!(next_action.kind(), Some("use_stripe_sdk"));
    assert_eq!(next_action.redirect_url(), None);
    confirmed
}

#[tokio::test]
async fn a_3d_secure_card_requires_action_then_succeeds_once_authenticated() {
    let emulator = Emulator::shared();
    let client = emulator.client();
    let intent = intent_waiting_for_3d_secure(emulator, &client).await;

    emulator.authenticate(&intent, true).await;

    let intent = client.retrieve_payment_intent(&intent.id).await.unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::Succeeded);
    assert!(intent.next_action.is_none());
}

#[tokio::test]
async fn a_3d_secure_card_that_fails_authentication_requires_a_new_payment_method() {
    let emulator = Emulator::shared();
    let client = emulator.client();
    let intent = intent_waiting_for_3d_secure(emulator, &client).await;

    emulator.authenticate(&intent, false).await;

    let intent = client.retrieve_payment_intent(&intent.id).await.unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresPaymentMethod);
    assert_eq!(
        intent.last_payment_error.unwrap().code.as_deref(),
        Some("payment_intent_authentication_failure")
    );
}

async fn authorized_for_later_capture(client: &Client, amount: i64) -> PaymentIntent {
    let mut params = eur(amount);
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    params.capture_method = Some(CaptureMethod::Manual);
    params.confirm = Some(true);
    let intent = client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresCapture);
    assert_eq!(intent.capture_method, Some(CaptureMethod::Manual));
    intent
}

#[tokio::test]
async fn a_manually_captured_payment_is_captured_in_full() {
    let client = Emulator::shared().client();
    let intent = authorized_for_later_capture(&client, 3000).await;

    let captured = client
        .capture_payment_intent(
            &intent.id,
            &CapturePaymentIntent::default(),
            &key("capture"),
        )
        .await
        .unwrap();
    assert_eq!(captured.status, PaymentIntentStatus::Succeeded);
    let charge = captured
        .latest_charge
        .unwrap()
        .as_object()
        .cloned()
        .unwrap();
    assert_eq!(charge.captured, Some(true));
    assert_eq!(charge.amount_refunded, 0);
}

#[tokio::test]
async fn a_manually_captured_payment_is_captured_in_part_and_the_rest_released() {
    let client = Emulator::shared().client();
    let intent = authorized_for_later_capture(&client, 3000).await;

    let params = CapturePaymentIntent {
        amount_to_capture: Some(1800),
        ..Default::default()
    };
    let captured = client
        .capture_payment_intent(&intent.id, &params, &key("capture"))
        .await
        .unwrap();
    assert_eq!(captured.status, PaymentIntentStatus::Succeeded);
    let charge = captured
        .latest_charge
        .unwrap()
        .as_object()
        .cloned()
        .unwrap();
    assert_eq!(charge.amount, 3000);
    assert_eq!(charge.amount_refunded, 1200);
}

#[tokio::test]
async fn an_intent_is_canceled() {
    let client = Emulator::shared().client();
    let intent = authorized_for_later_capture(&client, 700).await;

    let canceled = client
        .cancel_payment_intent(&intent.id, &CancelPaymentIntent::default(), &key("cancel"))
        .await
        .unwrap();
    assert_eq!(canceled.status, PaymentIntentStatus::Canceled);
}

#[tokio::test]
async fn an_intent_is_given_its_payment_method_by_an_update_before_confirming() {
    let client = Emulator::shared().client();
    let created = client
        .create_payment_intent(&eur(400), &key("create-intent"))
        .await
        .unwrap();
    assert_eq!(created.status, PaymentIntentStatus::RequiresPaymentMethod);

    let mut update = UpdatePaymentIntent {
        amount: Some(450),
        payment_method: Some(PaymentMethodId::new("pm_card_visa")),
        ..Default::default()
    };
    update.metadata.insert("order_id".into(), "41".into());
    let updated = client
        .update_payment_intent(&created.id, &update, &key("update"))
        .await
        .unwrap();
    assert_eq!(updated.status, PaymentIntentStatus::RequiresConfirmation);
    assert_eq!(updated.amount, 450);
    assert_eq!(updated.metadata["order_id"], "41");

    let confirmed = client
        .confirm_payment_intent(
            &created.id,
            &ConfirmPaymentIntent::default(),
            &key("confirm"),
        )
        .await
        .unwrap();
    assert_eq!(confirmed.status, PaymentIntentStatus::Succeeded);
}

/// The optional fields the provider takes and the emulator refuses: each is left out
/// unless set, and this pins what the emulator says when one is sent.
#[tokio::test]
async fn the_emulator_refuses_the_optional_fields_it_does_not_know() {
    let client = Emulator::shared().client();
    let refused = [
        (
            "automatic_payment_methods",
            CreatePaymentIntent {
                automatic_payment_methods: Some(true),
                ..eur(100)
            },
        ),
        (
            "description",
            CreatePaymentIntent {
                description: Some("Order 12".into()),
                ..eur(100)
            },
        ),
        (
            "receipt_email",
            CreatePaymentIntent {
                receipt_email: Some("a@example.com".into()),
                ..eur(100)
            },
        ),
        (
            "setup_future_usage",
            CreatePaymentIntent {
                setup_future_usage: Some(SetupFutureUsage::OffSession),
                ..eur(100)
            },
        ),
        (
            "statement_descriptor_suffix",
            CreatePaymentIntent {
                statement_descriptor_suffix: Some("ORDER 12".into()),
                ..eur(100)
            },
        ),
        (
            "return_url",
            CreatePaymentIntent {
                return_url: Some("https://shop.example/back".into()),
                ..eur(100)
            },
        ),
    ];
    for (field, params) in refused {
        let error = client
            .create_payment_intent(&params, &key("create-intent"))
            .await
            .unwrap_err();
        let error = error.provider_error().expect("the provider's error object");
        assert_eq!(error.status, 400, "{field}");
        assert_eq!(
            error.message.as_deref(),
            Some(format!("Unexpected {field}").as_str())
        );
    }

    let intent = authorized_for_later_capture(&client, 100).await;
    let cancel = CancelPaymentIntent {
        cancellation_reason: Some(CancellationReason::RequestedByCustomer),
    };
    let error = client
        .cancel_payment_intent(&intent.id, &cancel, &key("cancel"))
        .await
        .unwrap_err();
    assert_eq!(error.provider_error().unwrap().status, 400);

    let mut params = eur(100);
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    let intent = client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap();
    let confirm = ConfirmPaymentIntent {
        payment_method: Some(PaymentMethodId::new("pm_card_visa")),
        ..Default::default()
    };
    let error = client
        .confirm_payment_intent(&intent.id, &confirm, &key("confirm"))
        .await
        .unwrap_err();
    let error = error.provider_error().unwrap();
    assert_eq!(
        (error.status, error.message.as_deref()),
        (500, Some("Not implemented"))
    );
}
