//! With an upstream (here a second double standing in for the emulator): cards,
//! customers and unknown ids go there unchanged; the other methods stay here.

use payments::*;
use provider_double::Double;

use crate::common::*;

#[tokio::test]
async fn what_the_double_does_not_own_goes_to_the_upstream() {
    let upstream = Double::start().await;
    let double = Double::start_with_upstream(&upstream.base_url).await;
    let client = double.client();
    let theirs = upstream.client();

    // Customers live upstream.
    let customer = client
        .create_customer(
            &CreateCustomer {
                email: Some("shopper@example.test".into()),
                ..CreateCustomer::default()
            },
            &key("customer"),
        )
        .await
        .unwrap();
    assert_eq!(
        theirs
            .retrieve_customer(&customer.id)
            .await
            .unwrap()
            .email
            .as_deref(),
        Some("shopper@example.test")
    );
    client.check_account().await.unwrap();

    // A card is the upstream's: the method, its intent (idempotency key and all),
    // the refund.
    let card = double
        .create_payment_method(
            "card",
            &[
                ("card[number]", "4242424242424242"),
                ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"),
            ],
        )
        .await;
    let card = PaymentMethodId::new(card);
    assert_eq!(
        theirs
            .retrieve_payment_method(&card)
            .await
            .unwrap()
            .method_type,
        "card"
    );
    let mut params = eur(1200);
    params.payment_method = Some(card.clone());
    params.confirm = Some(true);
    let once = key("card");
    let paid = client.create_payment_intent(&params, &once).await.unwrap();
    let again = client.create_payment_intent(&params, &once).await.unwrap();
    assert_eq!(paid.id, again.id);
    assert_eq!(paid.status, PaymentIntentStatus::Succeeded);
    assert_eq!(
        theirs
            .retrieve_payment_intent(&paid.id)
            .await
            .unwrap()
            .status,
        PaymentIntentStatus::Succeeded
    );
    assert_eq!(
        client.retrieve_payment_intent(&paid.id).await.unwrap().id,
        paid.id
    );
    let refund = client
        .create_refund(&CreateRefund::new(paid.id.clone()), &key("refund"))
        .await
        .unwrap();
    assert_eq!(refund.status, RefundStatus::Succeeded);

    // iDEAL is the double's own: the upstream never hears of it.
    let ideal = PaymentMethodId::new(double.create_payment_method("ideal", &[]).await);
    assert_eq!(
        refusal(theirs.retrieve_payment_method(&ideal).await.unwrap_err()).0,
        404
    );
    let mut params = eur(800);
    params.customer = Some(customer.id.clone());
    params.payment_method_types = vec!["ideal".into()];
    let intent = client
        .create_payment_intent(&params, &key("ideal"))
        .await
        .unwrap();
    assert_eq!(
        refusal(
            theirs
                .retrieve_payment_intent(&intent.id)
                .await
                .unwrap_err()
        )
        .0,
        404
    );
    assert_eq!(intent.customer.as_ref(), Some(&customer.id));
    client
        .attach_payment_method(&ideal, &customer.id, &key("attach"))
        .await
        .unwrap();

    // Unknown ids are the upstream's to refuse.
    let error = client
        .retrieve_payment_intent(&PaymentIntentId::new("pi_nobody"))
        .await
        .unwrap_err();
    assert_eq!(refusal(error).1.as_deref(), Some("resource_missing"));

    // The event list has both.
    let events = client
        .list_events(&ListEvents {
            limit: Some(100),
            ..ListEvents::default()
        })
        .await
        .unwrap();
    let about = |id: &str, kind: &str| {
        events
            .data
            .iter()
            .any(|event| event.event_type == kind && event.data.object["id"] == id)
    };
    assert!(about(paid.id.as_str(), "payment_intent.succeeded"));
    assert!(about(intent.id.as_str(), "payment_intent.created"));
    let created: Vec<i64> = events.data.iter().map(|event| event.created).collect();
    assert!(
        created.windows(2).all(|pair| pair[0] >= pair[1]),
        "newest first"
    );

    // A webhook registered here is registered upstream too.
    let mut receiver = Receiver::start().await;
    double
        .register_webhook("both", &receiver.url, WEBHOOK_SECRET)
        .await;
    let mut params = eur(300);
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    params.confirm = Some(true);
    let card_paid = client
        .create_payment_intent(&params, &key("card"))
        .await
        .unwrap();
    receiver
        .wait_for(card_paid.id.as_str(), "payment_intent.succeeded")
        .await;
    let ideal_paid = intent.id.clone();
    let update = UpdatePaymentIntent {
        payment_method: Some(ideal.clone()),
        ..UpdatePaymentIntent::default()
    };
    client
        .update_payment_intent(&ideal_paid, &update, &key("update"))
        .await
        .unwrap();
    let confirmed = client
        .confirm_payment_intent(
            &ideal_paid,
            &ConfirmPaymentIntent {
                return_url: Some("http://127.0.0.1:9/back".into()),
                ..ConfirmPaymentIntent::default()
            },
            &key("confirm"),
        )
        .await
        .unwrap();
    assert_eq!(confirmed.status, PaymentIntentStatus::RequiresAction);
    double.succeed(ideal_paid.as_str()).await;
    receiver
        .wait_for(ideal_paid.as_str(), "payment_intent.succeeded")
        .await;
}
