//! Setup intents through the emulator: a card saved for later payments.

use ferroshop_payments::*;

use crate::common::emulator::Emulator;
use crate::common::key;

async fn customer(client: &Client) -> Customer {
    let params = CreateCustomer {
        email: Some("saver@example.com".into()),
        ..Default::default()
    };
    client
        .create_customer(&params, &key("create-customer"))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_setup_intent_is_created_confirmed_and_retrieved() {
    let client = Emulator::shared().client();
    let customer = customer(&client).await;
    let mut params = CreateSetupIntent {
        customer: Some(customer.id.clone()),
        usage: Some(SetupIntentUsage::OffSession),
        ..Default::default()
    };
    params.metadata.insert("account_id".into(), "5".into());
    let created = client
        .create_setup_intent(&params, &key("create-setup"))
        .await
        .unwrap();
    assert_eq!(created.status, SetupIntentStatus::RequiresPaymentMethod);
    assert_eq!(created.customer.as_ref(), Some(&customer.id));
    assert_eq!(created.usage, Some(SetupIntentUsage::OffSession));
    assert!(created.client_secret.is_some());

    let confirm = ConfirmSetupIntent {
        payment_method: Some(PaymentMethodId::new("pm_card_visa")),
        ..Default::default()
    };
    let confirmed = client
        .confirm_setup_intent(&created.id, &confirm, &key("confirm-setup"))
        .await
        .unwrap();
    assert_eq!(confirmed.status, SetupIntentStatus::Succeeded);
    let method = confirmed
        .payment_method_id()
        .expect("the saved method")
        .clone();
    assert!(method.as_str().starts_with("pm_"));

    let retrieved = client.retrieve_setup_intent(&created.id).await.unwrap();
    assert_eq!(retrieved.status, SetupIntentStatus::Succeeded);
    assert_eq!(retrieved.payment_method_id(), Some(&method));
    assert_eq!(retrieved.metadata["account_id"], "5");
    assert!(retrieved.last_setup_error.is_none());
}

#[tokio::test]
async fn a_setup_intent_with_a_3d_secure_card_requires_action() {
    let emulator = Emulator::shared();
    let client = emulator.client();
    let card = emulator.create_card("4000000000003220").await;
    let created = client
        .create_setup_intent(&CreateSetupIntent::default(), &key("create-setup"))
        .await
        .unwrap();
    let confirm = ConfirmSetupIntent {
        payment_method: Some(card),
        ..Default::default()
    };
    let confirmed = client
        .confirm_setup_intent(&created.id, &confirm, &key("confirm-setup"))
        .await
        .unwrap();
    assert_eq!(confirmed.status, SetupIntentStatus::RequiresAction);
    assert_eq!(
        confirmed.next_action.unwrap().kind(),
        Some("use_stripe_sdk")
    );
}

#[tokio::test]
async fn a_card_refused_when_saved_is_a_provider_error() {
    let client = Emulator::shared().client();
    let created = client
        .create_setup_intent(&CreateSetupIntent::default(), &key("create-setup"))
        .await
        .unwrap();
    let confirm = ConfirmSetupIntent {
        payment_method: Some(PaymentMethodId::new("pm_card_visa_chargeDeclined")),
        ..Default::default()
    };
    let error = client
        .confirm_setup_intent(&created.id, &confirm, &key("confirm-setup"))
        .await
        .unwrap_err();
    let refused = error.provider_error().unwrap();
    assert_eq!(
        (refused.status, refused.code.as_deref()),
        (402, Some("card_declined"))
    );
}
