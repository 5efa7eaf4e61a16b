//! Bank debits: a mandate is needed, the payment is processing until a test settles
//! it, and a refund stays pending. ACH accounts ending 0000 need microdeposits first.

use payments::*;

use crate::common::*;

#[tokio::test]
async fn a_becs_debit_is_processing_until_it_succeeds_and_its_refund_is_pending() {
    let (double, client, mut receiver) = started().await;
    let method = double
        .create_payment_method(
            "au_becs_debit",
            &[
                ("au_becs_debit[bsb_number]", "000000"),
                ("au_becs_debit[account_number]", "000123456"),
                ("billing_details[name]", "Jenny Rosen"),
                ("billing_details[email]", "jenny@example.test"),
            ],
        )
        .await;
    let mut params = CreatePaymentIntent::new(1500, Currency::parse("AUD").unwrap());
    params.payment_method = Some(PaymentMethodId::new(&*method));
    params.payment_method_types = vec!["au_becs_debit".into()];
    let created = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap();

    // Without the shopper's mandate the debit cannot start.
    let error = client
        .confirm_payment_intent(
            &created.id,
            &ConfirmPaymentIntent::default(),
            &key("confirm"),
        )
        .await
        .unwrap_err();
    assert_eq!(
        refusal(error),
        (
            400,
            Some("parameter_missing".into()),
            Some("mandate_data[customer_acceptance][type]".into())
        )
    );

    let (status, confirmed) = post(
        &double,
        &format!("/v1/payment_intents/{}/confirm", created.id),
        &[
            ("mandate_data[customer_acceptance][type]", "online"),
            (
                "mandate_data[customer_acceptance][online][ip_address]",
                "127.0.0.1",
            ),
            (
                "mandate_data[customer_acceptance][online][user_agent]",
                "tests",
            ),
        ],
    )
    .await;
    assert_eq!(status, 200, "{confirmed}");
    let confirmed = intent(confirmed);
    assert_eq!(confirmed.status, PaymentIntentStatus::Processing);
    assert!(confirmed.latest_charge_id().is_some());

    let paid = intent(double.succeed(created.id.as_str()).await);
    assert_eq!(paid.status, PaymentIntentStatus::Succeeded);
    assert_eq!(paid.latest_charge_id(), confirmed.latest_charge_id());
    // In order: processing, then succeeded.
    receiver
        .wait_for(created.id.as_str(), "payment_intent.processing")
        .await;
    receiver
        .wait_for(created.id.as_str(), "payment_intent.succeeded")
        .await;

    let mut refund = CreateRefund::new(created.id.clone());
    refund.amount = Some(500);
    let refund = client.create_refund(&refund, &key("refund")).await.unwrap();
    assert_eq!(refund.status, RefundStatus::Pending);
    assert_eq!(refund.amount, 500);
    assert_eq!(refund.payment_intent.as_ref(), Some(&created.id));
    let charge = paid.latest_charge_id().unwrap().as_str().to_owned();
    let event = receiver.wait_for(&charge, "charge.refunded").await;
    let refunded = event.charge().unwrap();
    assert_eq!(refunded.amount_refunded, 500);
    assert!(!refunded.refunded);
    assert_eq!(
        event.data.object["refunds"]["data"][0]["id"],
        refund.id.as_str()
    );

    // More than is left is refused.
    let mut too_much = CreateRefund::new(created.id.clone());
    too_much.amount = Some(1001);
    let error = client
        .create_refund(&too_much, &key("refund"))
        .await
        .unwrap_err();
    assert_eq!(refusal(error).1.as_deref(), Some("amount_too_large"));
}

#[tokio::test]
async fn a_failed_debit_names_its_code() {
    let (double, _client, mut receiver) = started().await;
    let method = double
        .create_payment_method(
            "bacs_debit",
            &[
                ("bacs_debit[sort_code]", "108800"),
                ("bacs_debit[account_number]", "00012345"),
            ],
        )
        .await;
    let (status, created) = post(
        &double,
        "/v1/payment_intents",
        &[
            ("amount", "900"),
            ("currency", "gbp"),
            ("payment_method", method.as_str()),
            ("payment_method_types[0]", "bacs_debit"),
            ("confirm", "true"),
            ("mandate_data[customer_acceptance][type]", "offline"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let created = intent(created);
    assert_eq!(created.status, PaymentIntentStatus::Processing);
    let failed = intent(
        double
            .fail(
                created.id.as_str(),
                Some("insufficient_funds"),
                Some("The account had too little."),
            )
            .await,
    );
    assert_eq!(failed.status, PaymentIntentStatus::RequiresPaymentMethod);
    let error = failed.last_payment_error.unwrap();
    assert_eq!(error.code.as_deref(), Some("insufficient_funds"));
    assert_eq!(
        error.message.as_deref(),
        Some("The account had too little.")
    );
    receiver
        .wait_for(created.id.as_str(), "payment_intent.payment_failed")
        .await;
}

#[tokio::test]
async fn an_ach_account_ending_0000_is_verified_with_microdeposits_first() {
    let (double, client, _receiver) = started().await;
    let method = double
        .create_payment_method(
            "us_bank_account",
            &[
                ("us_bank_account[routing_number]", "110000000"),
                ("us_bank_account[account_number]", "000000000000"),
                ("billing_details[name]", "Jenny Rosen"),
            ],
        )
        .await;
    let mut params = CreatePaymentIntent::new(4000, Currency::parse("USD").unwrap());
    params.payment_method = Some(PaymentMethodId::new(method));
    params.confirm = Some(true);
    let intent = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresAction);
    let action = &intent.next_action.as_ref().unwrap().0;
    assert_eq!(action["type"], "verify_with_microdeposits");
    let url = action["verify_with_microdeposits"]["hosted_verification_url"]
        .as_str()
        .unwrap();
    assert!(action["verify_with_microdeposits"]["arrival_date"].is_i64());
    // Verified on the page (no return_url: the page itself says so).
    let answer = browser()
        .post(url)
        .form(&[("outcome", "authorize")])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert!(answer.text().await.unwrap().contains("now processing"));
    let verified = client.retrieve_payment_intent(&intent.id).await.unwrap();
    assert_eq!(verified.status, PaymentIntentStatus::Processing);
}
