//! Customers and their saved payment methods through the emulator; the key check; a
//! reset of the emulator.

use ferroshop_payments::*;

use crate::common::emulator::Emulator;
use crate::common::key;

#[tokio::test]
async fn a_customer_is_created_retrieved_and_updated_with_a_default_payment_method() {
    let emulator = Emulator::shared();
    let client = emulator.client();
    let mut params = CreateCustomer {
        email: Some("ada@example.com".into()),
        name: Some("Ada Lovelace".into()),
        ..Default::default()
    };
    params.metadata.insert("account_id".into(), "7".into());
    let created = client
        .create_customer(&params, &key("create-customer"))
        .await
        .unwrap();
    assert!(created.id.as_str().starts_with("cus_"));
    assert_eq!(created.email.as_deref(), Some("ada@example.com"));
    assert_eq!(created.invoice_settings.default_payment_method, None);

    let card = emulator.create_card("4242424242424242").await;
    client
        .attach_payment_method(&card, &created.id, &key("attach"))
        .await
        .unwrap();
    let update = UpdateCustomer {
        name: Some("Ada King".into()),
        default_payment_method: Some(card.clone()),
        ..Default::default()
    };
    let updated = client
        .update_customer(&created.id, &update, &key("update-customer"))
        .await
        .unwrap();
    assert_eq!(updated.name.as_deref(), Some("Ada King"));
    assert_eq!(
        updated.invoice_settings.default_payment_method.as_ref(),
        Some(&card)
    );

    let retrieved = client.retrieve_customer(&created.id).await.unwrap();
    assert_eq!(retrieved.email.as_deref(), Some("ada@example.com"));
    assert_eq!(retrieved.name.as_deref(), Some("Ada King"));
    assert_eq!(retrieved.metadata["account_id"], "7");
    assert_eq!(
        retrieved.invoice_settings.default_payment_method,
        Some(card)
    );
    assert!(!retrieved.deleted);
}

#[tokio::test]
async fn payment_methods_are_attached_listed_and_detached() {
    let emulator = Emulator::shared();
    let client = emulator.client();
    let customer = client
        .create_customer(&CreateCustomer::default(), &key("create-customer"))
        .await
        .unwrap();
    let visa = emulator.create_card("4242424242424242").await;
    let other = emulator.create_card("4000000000003220").await;

    let attached = client
        .attach_payment_method(&visa, &customer.id, &key("attach"))
        .await
        .unwrap();
    assert_eq!(attached.customer.as_ref(), Some(&customer.id));
    assert_eq!(attached.method_type, "card");
    let card = attached.card.expect("card details");
    assert_eq!(card.last4.as_deref(), Some("4242"));
    assert_eq!((card.exp_month, card.exp_year), (Some(12), Some(2034)));
    assert_eq!(card.brand.as_deref(), Some("visa"));
    assert_eq!(card.funding.as_deref(), Some("credit"));
    assert!(card.country.is_some());
    client
        .attach_payment_method(&other, &customer.id, &key("attach"))
        .await
        .unwrap();

    let listed = client
        .list_payment_methods(&ListPaymentMethods::cards_of(customer.id.clone()))
        .await
        .unwrap();
    let mut ids: Vec<_> = listed.data.iter().map(|m| m.id.clone()).collect();
    ids.sort();
    let mut expected = vec![visa.clone(), other.clone()];
    expected.sort();
    assert_eq!(ids, expected);
    assert!(!listed.has_more);

    let detached = client
        .detach_payment_method(&visa, &key("detach"))
        .await
        .unwrap();
    assert_eq!(detached.customer, None);
    let listed = client
        .list_payment_methods(&ListPaymentMethods::cards_of(customer.id.clone()))
        .await
        .unwrap();
    assert_eq!(
        listed.data.iter().map(|m| &m.id).collect::<Vec<_>>(),
        vec![&other]
    );

    let retrieved = client.retrieve_payment_method(&other).await.unwrap();
    assert_eq!(retrieved.customer, Some(customer.id));
}

#[tokio::test]
async fn a_card_the_issuer_refuses_to_save_is_not_attached() {
    let emulator = Emulator::shared();
    let client = emulator.client();
    let customer = client
        .create_customer(&CreateCustomer::default(), &key("create-customer"))
        .await
        .unwrap();
    let declined = emulator.create_card("4000000000000002").await;
    let error = client
        .attach_payment_method(&declined, &customer.id, &key("attach"))
        .await
        .unwrap_err();
    let refused = error.provider_error().unwrap();
    assert_eq!(
        (refused.status, refused.code.as_deref()),
        (402, Some("card_declined"))
    );
}

#[tokio::test]
async fn a_missing_customer_is_a_404() {
    let client = Emulator::shared().client();
    let error = client
        .retrieve_customer(&CustomerId::new("cus_missing"))
        .await
        .unwrap_err();
    assert_eq!(error.provider_error().unwrap().status, 404);
}

#[tokio::test]
async fn the_key_check_passes_with_a_good_key() {
    Emulator::shared().client().check_account().await.unwrap();
}

#[tokio::test]
async fn a_reset_clears_the_emulators_data() {
    // An instance of its own: a reset of the shared one would pull objects from under
    // the tests running beside this one.
    let emulator = Emulator::start();
    let client = emulator.client();
    let customer = client
        .create_customer(&CreateCustomer::default(), &key("create-customer"))
        .await
        .unwrap();

    emulator.reset().await;

    let error = client.retrieve_customer(&customer.id).await.unwrap_err();
    assert_eq!(error.provider_error().unwrap().status, 404);
    assert!(!emulator.log().contains("Traceback"), "{}", emulator.log());
}
