//! Refunds through the emulator, whole and in part.

use ferroshop_payments::*;

use crate::common::emulator::Emulator;
use crate::common::key;

async fn paid(client: &Client, amount: i64) -> PaymentIntent {
    let mut params = CreatePaymentIntent::new(amount, Currency::parse("eur").unwrap());
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    params.confirm = Some(true);
    let intent = client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::Succeeded);
    intent
}

#[tokio::test]
async fn a_payment_is_refunded_in_full() {
    let client = Emulator::shared().client();
    let intent = paid(&client, 2000).await;

    let mut params = CreateRefund::new(intent.id.clone());
    params.metadata.insert("order_id".into(), "12".into());
    let refund = client.create_refund(&params, &key("refund")).await.unwrap();
    assert!(refund.id.as_str().starts_with("re_"));
    assert_eq!(refund.amount, 2000);
    assert_eq!(refund.status, RefundStatus::Succeeded);
    assert_eq!(refund.payment_intent.as_ref(), Some(&intent.id));
    assert_eq!(refund.charge.as_ref(), intent.latest_charge_id());
    assert_eq!(refund.metadata["order_id"], "12");

    let intent = client.retrieve_payment_intent(&intent.id).await.unwrap();
    let charge = intent.latest_charge.unwrap().as_object().cloned().unwrap();
    assert!(charge.refunded);
    assert_eq!(charge.amount_refunded, 2000);
}

#[tokio::test]
async fn a_payment_is_refunded_in_part() {
    let client = Emulator::shared().client();
    let intent = paid(&client, 2000).await;

    let params = CreateRefund {
        amount: Some(500),
        ..CreateRefund::new(intent.id.clone())
    };
    let refund = client.create_refund(&params, &key("refund")).await.unwrap();
    assert_eq!(refund.amount, 500);

    let intent = client.retrieve_payment_intent(&intent.id).await.unwrap();
    let charge = intent.latest_charge.unwrap().as_object().cloned().unwrap();
    assert!(!charge.refunded);
    assert_eq!(charge.amount_refunded, 500);
}

#[tokio::test]
async fn the_emulator_refuses_a_refund_reason() {
    let client = Emulator::shared().client();
    let intent = paid(&client, 300).await;
    let params = CreateRefund {
        reason: Some(RefundReason::RequestedByCustomer),
        ..CreateRefund::new(intent.id)
    };
    let error = client
        .create_refund(&params, &key("refund"))
        .await
        .unwrap_err();
    let error = error.provider_error().unwrap();
    assert_eq!(
        (error.status, error.message.as_deref()),
        (400, Some("Unexpected reason"))
    );
}
