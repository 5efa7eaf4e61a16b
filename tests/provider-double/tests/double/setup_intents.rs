//! Setting a method up for later payments: a bank debit under a mandate succeeds at
//! once and is kept for the customer; iDEAL needs the shopper on the page first.

use axum::http::StatusCode;
use payments::*;

use crate::common::*;

#[tokio::test]
async fn a_becs_debit_is_set_up_under_a_mandate_for_the_customer() {
    let (double, client, mut receiver) = started().await;
    let customer = client
        .create_customer(
            &CreateCustomer {
                email: Some("jenny@example.test".into()),
                ..CreateCustomer::default()
            },
            &key("customer"),
        )
        .await
        .unwrap();
    let method = double
        .create_payment_method(
            "au_becs_debit",
            &[
                ("au_becs_debit[bsb_number]", "000000"),
                ("au_becs_debit[account_number]", "000123456"),
            ],
        )
        .await;

    // The shop's client cannot send a mandate: without one the setup is refused.
    let error = client
        .create_setup_intent(
            &CreateSetupIntent {
                customer: Some(customer.id.clone()),
                payment_method: Some(PaymentMethodId::new(&*method)),
                confirm: Some(true),
                ..CreateSetupIntent::default()
            },
            &key("setup"),
        )
        .await
        .unwrap_err();
    assert_eq!(refusal(error).1.as_deref(), Some("parameter_missing"));

    let (status, created) = post(
        &double,
        "/v1/setup_intents",
        &[
            ("customer", customer.id.as_str()),
            ("payment_method", method.as_str()),
            ("payment_method_types[]", "au_becs_debit"),
            ("confirm", "true"),
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
    assert_eq!(status, StatusCode::OK, "{created}");
    assert!(created["mandate"].as_str().unwrap().starts_with("mandate_"));
    let setup: SetupIntent = serde_json::from_value(created).unwrap();
    assert_eq!(setup.status, SetupIntentStatus::Succeeded);
    assert_eq!(setup.usage, Some(SetupIntentUsage::OffSession));
    assert_eq!(setup.customer.as_ref(), Some(&customer.id));
    assert!(setup.id.as_str().starts_with("seti_"));

    let event = receiver
        .wait_for(setup.id.as_str(), "setup_intent.succeeded")
        .await;
    assert_eq!(
        event.setup_intent().unwrap().status,
        SetupIntentStatus::Succeeded
    );
    receiver.wait_for(&method, "payment_method.attached").await;

    let kept = client
        .list_payment_methods(&ListPaymentMethods {
            customer: customer.id.clone(),
            method_type: "au_becs_debit".into(),
            limit: None,
        })
        .await
        .unwrap();
    assert_eq!(kept.data.len(), 1);
    assert_eq!(kept.data[0].id.as_str(), method);
    assert_eq!(kept.data[0].customer.as_ref(), Some(&customer.id));

    // The kept method pays again without a new mandate.
    let mut params = CreatePaymentIntent::new(1000, Currency::parse("AUD").unwrap());
    params.customer = Some(customer.id.clone());
    params.payment_method = Some(PaymentMethodId::new(&*method));
    params.confirm = Some(true);
    params.off_session = Some(true);
    let intent = client
        .create_payment_intent(&params, &key("pay"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::Processing);

    let detached = client
        .detach_payment_method(&PaymentMethodId::new(&*method), &key("detach"))
        .await
        .unwrap();
    assert_eq!(detached.customer, None);
}

#[tokio::test]
async fn an_ideal_setup_needs_the_shopper_on_the_page() {
    let (double, client, mut receiver) = started().await;
    let customer = client
        .create_customer(&CreateCustomer::default(), &key("customer"))
        .await
        .unwrap();
    let method = double.create_payment_method("ideal", &[]).await;
    let setup = client
        .create_setup_intent(
            &CreateSetupIntent {
                customer: Some(customer.id.clone()),
                payment_method: Some(PaymentMethodId::new(&*method)),
                payment_method_types: vec!["ideal".into()],
                ..CreateSetupIntent::default()
            },
            &key("setup"),
        )
        .await
        .unwrap();
    assert_eq!(setup.status, SetupIntentStatus::RequiresConfirmation);
    let setup = client
        .confirm_setup_intent(
            &setup.id,
            &ConfirmSetupIntent {
                return_url: Some("http://127.0.0.1:9/account/methods".into()),
                ..ConfirmSetupIntent::default()
            },
            &key("confirm"),
        )
        .await
        .unwrap();
    assert_eq!(setup.status, SetupIntentStatus::RequiresAction);
    let page = setup
        .next_action
        .as_ref()
        .unwrap()
        .redirect_url()
        .unwrap()
        .to_owned();
    let html = browser()
        .get(&page)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("<h1>Set up iDEAL for later payments (test)</h1>"),
        "{html}"
    );
    let back = browser()
        .post(&page)
        .form(&[("outcome", "authorize")])
        .send()
        .await
        .unwrap();
    let location = back.headers()["location"].to_str().unwrap();
    assert!(
        location.starts_with(&format!(
            "http://127.0.0.1:9/account/methods?setup_intent={}&setup_intent_client_secret={}_secret_",
            setup.id, setup.id
        )),
        "{location}"
    );
    assert!(location.ends_with("&redirect_status=succeeded"));
    receiver
        .wait_for(setup.id.as_str(), "setup_intent.succeeded")
        .await;
    let method = client
        .retrieve_payment_method(&PaymentMethodId::new(&*method))
        .await
        .unwrap();
    assert_eq!(method.customer.as_ref(), Some(&customer.id));

    // A voucher cannot be set up.
    let error = client
        .create_setup_intent(
            &CreateSetupIntent {
                payment_method_types: vec!["oxxo".into()],
                ..CreateSetupIntent::default()
            },
            &key("setup"),
        )
        .await
        .unwrap_err();
    assert_eq!(refusal(error).0, 400);
}
