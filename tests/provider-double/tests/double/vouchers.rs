//! Vouchers: Boleto, OXXO and Multibanco show their details, and a voucher that is
//! not paid in time expires.

use payments::*;

use crate::common::*;

async fn voucher(
    client: &Client,
    double: &provider_double::Double,
    kind: &str,
    currency: &str,
    fields: &[(&str, &str)],
) -> PaymentIntent {
    let method = double.create_payment_method(kind, fields).await;
    let mut params = CreatePaymentIntent::new(5000, Currency::parse(currency).unwrap());
    params.payment_method = Some(PaymentMethodId::new(method));
    params.payment_method_types = vec![kind.into()];
    params.confirm = Some(true);
    params.metadata.insert("order_id".into(), "31".into());
    client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap()
}

#[tokio::test]
async fn an_unpaid_boleto_expires_and_the_payment_fails() {
    let (double, client, mut receiver) = started().await;
    let intent = voucher(
        &client,
        &double,
        "boleto",
        "BRL",
        &[
            ("boleto[tax_id]", "000.000.000-00"),
            ("billing_details[name]", "Jane Doe"),
            ("billing_details[email]", "jane@example.test"),
        ],
    )
    .await;
    assert_eq!(intent.status, PaymentIntentStatus::RequiresAction);
    let action = &intent.next_action.as_ref().unwrap().0;
    assert_eq!(action["type"], "boleto_display_details");
    let details = &action["boleto_display_details"];
    assert_eq!(details["number"].as_str().unwrap().len(), 47);
    assert_eq!(
        details["hosted_voucher_url"],
        format!("{}/_double/authorize/{}", double.base_url, intent.id)
    );
    assert!(details["expires_at"].as_i64().unwrap() > intent.created.unwrap());
    assert!(details["pdf"].is_string());
    let event = receiver
        .wait_for(intent.id.as_str(), "payment_intent.requires_action")
        .await;
    assert_eq!(event.payment_intent().unwrap().metadata["order_id"], "31");

    // The voucher page shows its number.
    let html = browser()
        .get(details["hosted_voucher_url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("<h1>Boleto test payment of 50.00 BRL</h1>"),
        "{html}"
    );
    assert!(html.contains(details["number"].as_str().unwrap()), "{html}");

    let expired = crate::common::intent(double.expire(intent.id.as_str()).await);
    assert_eq!(expired.status, PaymentIntentStatus::RequiresPaymentMethod);
    assert_eq!(
        expired.last_payment_error.as_ref().unwrap().code.as_deref(),
        Some("payment_intent_payment_attempt_expired")
    );
    let event = receiver
        .wait_for(intent.id.as_str(), "payment_intent.payment_failed")
        .await;
    assert_eq!(
        event
            .payment_intent()
            .unwrap()
            .last_payment_error
            .unwrap()
            .code
            .as_deref(),
        Some("payment_intent_payment_attempt_expired")
    );

    // Nothing to expire any more.
    let (status, error) = post(
        &double,
        &format!("/_double/payment_intents/{}/expire", intent.id),
        &[],
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(error["error"]["code"], "payment_intent_unexpected_state");
}

#[tokio::test]
async fn oxxo_and_multibanco_show_their_details_and_a_paid_voucher_succeeds() {
    let (double, client, mut receiver) = started().await;
    let oxxo = voucher(
        &client,
        &double,
        "oxxo",
        "MXN",
        &[("billing_details[name]", "Ana")],
    )
    .await;
    let action = &oxxo.next_action.as_ref().unwrap().0;
    assert_eq!(action["type"], "oxxo_display_details");
    assert!(action["oxxo_display_details"]["number"].is_string());
    assert!(action["oxxo_display_details"]["expires_after"].is_i64());
    assert!(action["oxxo_display_details"]["hosted_voucher_url"].is_string());

    let multibanco = voucher(&client, &double, "multibanco", "EUR", &[]).await;
    let action = &multibanco.next_action.as_ref().unwrap().0;
    assert_eq!(action["type"], "multibanco_display_details");
    let details = &action["multibanco_display_details"];
    assert_eq!(details["entity"].as_str().unwrap().len(), 5);
    assert_eq!(details["reference"].as_str().unwrap().len(), 9);
    assert!(details["expires_at"].is_i64());

    let paid = crate::common::intent(double.succeed(oxxo.id.as_str()).await);
    assert_eq!(paid.status, PaymentIntentStatus::Succeeded);
    receiver
        .wait_for(oxxo.id.as_str(), "payment_intent.succeeded")
        .await;
}
