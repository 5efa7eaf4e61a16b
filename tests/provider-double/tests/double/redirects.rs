//! Redirect methods: iDEAL through the authorisation page, both ways, and Sofort,
//! which settles later.

use axum::http::StatusCode;
use payments::*;

use crate::common::*;

const RETURN_URL: &str = "http://127.0.0.1:9/checkout/return?order=12";

async fn ideal_intent(client: &Client, double: &provider_double::Double) -> PaymentIntent {
    let method = double
        .create_payment_method(
            "ideal",
            &[
                ("ideal[bank]", "abn_amro"),
                ("billing_details[name]", "Jenny <Rosen>"),
            ],
        )
        .await;
    let mut params = eur(1200);
    params.payment_method = Some(PaymentMethodId::new(method));
    params.payment_method_types = vec!["ideal".into()];
    params.metadata.insert("order_id".into(), "12".into());
    let created = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap();
    assert_eq!(created.status, PaymentIntentStatus::RequiresConfirmation);
    assert_eq!(created.object, "payment_intent");
    assert!(!created.livemode);
    let confirm = ConfirmPaymentIntent {
        return_url: Some(RETURN_URL.into()),
        ..ConfirmPaymentIntent::default()
    };
    client
        .confirm_payment_intent(&created.id, &confirm, &key("confirm"))
        .await
        .unwrap()
}

#[tokio::test]
async fn an_ideal_payment_authorized_on_the_page_succeeds_and_is_reported() {
    let (double, client, mut receiver) = started().await;
    let intent = ideal_intent(&client, &double).await;
    assert_eq!(intent.status, PaymentIntentStatus::RequiresAction);
    let action = intent.next_action.as_ref().unwrap();
    assert_eq!(action.kind(), Some("redirect_to_url"));
    let page = action.redirect_url().unwrap().to_owned();
    assert_eq!(
        page,
        format!("{}/_double/authorize/{}", double.base_url, intent.id)
    );
    assert_eq!(action.0["redirect_to_url"]["return_url"], RETURN_URL);
    let secret = intent.client_secret.as_ref().unwrap().expose().to_owned();
    assert!(secret.starts_with(&format!("{}_secret_", intent.id)));
    assert_eq!(intent.id.as_str().len(), "pi_".len() + 24);
    receiver
        .wait_for(intent.id.as_str(), "payment_intent.requires_action")
        .await;

    let html = browser().get(&page).send().await.unwrap();
    assert_eq!(html.status(), StatusCode::OK);
    assert!(html.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = html.text().await.unwrap();
    assert!(html.contains("<html lang=\"en\">"), "{html}");
    assert!(html.contains("<title>"), "{html}");
    assert!(
        html.contains("<h1>iDEAL test payment of 12.00 EUR</h1>"),
        "{html}"
    );
    assert_eq!(html.matches("<form method=\"post\">").count(), 2, "{html}");
    assert!(html.contains("<button type=\"submit\">Authorize test payment</button>"));
    assert!(html.contains("<button type=\"submit\">Fail test payment</button>"));

    let back = browser()
        .post(&page)
        .form(&[("outcome", "authorize")])
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        back.headers()["location"].to_str().unwrap(),
        format!(
            "{RETURN_URL}&payment_intent={}&payment_intent_client_secret={secret}&redirect_status=succeeded",
            intent.id
        )
    );

    let paid = client.retrieve_payment_intent(&intent.id).await.unwrap();
    assert_eq!(paid.status, PaymentIntentStatus::Succeeded);
    assert_eq!(paid.amount_received, Some(1200));
    assert!(paid.latest_charge_id().unwrap().as_str().starts_with("ch_"));
    assert_eq!(paid.metadata["order_id"], "12");

    let event = receiver
        .wait_for(intent.id.as_str(), "payment_intent.succeeded")
        .await;
    let reported = event.payment_intent().unwrap();
    assert_eq!(reported.status, PaymentIntentStatus::Succeeded);
    assert_eq!(reported.metadata["order_id"], "12");
    assert_eq!(event.api_version.as_deref(), Some(API_VERSION));
    assert!(!event.livemode);

    // The same event read back through the API.
    let read = client.retrieve_event(&event.id).await.unwrap();
    assert_eq!(read.event_type, "payment_intent.succeeded");
    let listed = client
        .list_events(&ListEvents {
            event_type: Some("payment_intent.succeeded".into()),
            ..ListEvents::default()
        })
        .await
        .unwrap();
    assert_eq!(listed.data.len(), 1);
    assert_eq!(listed.data[0].id, event.id);

    // The page after the fact says so, without buttons.
    let html = browser()
        .get(&page)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("This test payment is paid."), "{html}");
    assert!(!html.contains("<form"), "{html}");
    let again = browser()
        .post(&page)
        .form(&[("outcome", "fail")])
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::CONFLICT);
}

#[tokio::test]
async fn an_ideal_payment_failed_on_the_page_needs_another_method() {
    let (double, client, mut receiver) = started().await;
    let intent = ideal_intent(&client, &double).await;
    let page = intent
        .next_action
        .as_ref()
        .unwrap()
        .redirect_url()
        .unwrap()
        .to_owned();
    let back = browser()
        .post(&page)
        .form(&[("outcome", "fail")])
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), StatusCode::SEE_OTHER);
    assert!(back.headers()["location"]
        .to_str()
        .unwrap()
        .ends_with("&redirect_status=failed"));
    let failed = client.retrieve_payment_intent(&intent.id).await.unwrap();
    assert_eq!(failed.status, PaymentIntentStatus::RequiresPaymentMethod);
    assert_eq!(failed.payment_method_id(), None);
    let error = failed.last_payment_error.unwrap();
    assert_eq!(
        error.code.as_deref(),
        Some("payment_intent_authentication_failure")
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
        Some("payment_intent_authentication_failure")
    );
}

#[tokio::test]
async fn a_redirect_method_needs_a_return_url() {
    let (double, client, _receiver) = started().await;
    let method = double.create_payment_method("bancontact", &[]).await;
    let mut params = eur(500);
    params.payment_method = Some(PaymentMethodId::new(method));
    params.payment_method_types = vec!["bancontact".into()];
    params.confirm = Some(true);
    let error = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap_err();
    assert_eq!(
        refusal(error),
        (
            400,
            Some("parameter_missing".into()),
            Some("return_url".into())
        )
    );
}

#[tokio::test]
async fn a_sofort_payment_authorized_on_the_page_is_processing_until_it_settles() {
    let (double, client, mut receiver) = started().await;
    let method = double
        .create_payment_method("sofort", &[("sofort[country]", "DE")])
        .await;
    let mut params = eur(2500);
    params.payment_method = Some(PaymentMethodId::new(method));
    params.payment_method_types = vec!["sofort".into()];
    params.confirm = Some(true);
    params.return_url = Some(RETURN_URL.into());
    let intent = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap();
    let page = intent
        .next_action
        .as_ref()
        .unwrap()
        .redirect_url()
        .unwrap()
        .to_owned();
    let back = browser()
        .post(&page)
        .form(&[("outcome", "authorize")])
        .send()
        .await
        .unwrap();
    assert!(back.headers()["location"]
        .to_str()
        .unwrap()
        .ends_with("&redirect_status=processing"));
    receiver
        .wait_for(intent.id.as_str(), "payment_intent.processing")
        .await;
    let settled = double.succeed(intent.id.as_str()).await;
    assert_eq!(settled["status"], "succeeded");
    receiver
        .wait_for(intent.id.as_str(), "payment_intent.succeeded")
        .await;
}

#[tokio::test]
async fn alipay_hands_the_shopper_to_the_page_too() {
    let (double, client, _receiver) = started().await;
    let method = double.create_payment_method("alipay", &[]).await;
    let mut params = CreatePaymentIntent::new(880, Currency::parse("CNY").unwrap());
    params.payment_method = Some(PaymentMethodId::new(method));
    params.confirm = Some(true);
    params.return_url = Some(RETURN_URL.into());
    let intent = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresAction);
    let action = &intent.next_action.unwrap().0;
    assert_eq!(action["type"], "alipay_handle_redirect");
    let redirect = &action["alipay_handle_redirect"];
    assert_eq!(redirect["return_url"], RETURN_URL);
    assert_eq!(
        redirect["url"],
        format!("{}/_double/authorize/{}", double.base_url, intent.id)
    );
    assert!(redirect["native_url"].is_string());
}

#[tokio::test]
async fn without_an_upstream_a_card_simply_succeeds_or_declines() {
    let (_double, client, _receiver) = started().await;
    let mut params = eur(1200);
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    params.confirm = Some(true);
    params.capture_method = Some(CaptureMethod::Manual);
    let intent = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresCapture);
    let captured = client
        .capture_payment_intent(
            &intent.id,
            &CapturePaymentIntent {
                amount_to_capture: Some(1000),
                expand: vec!["latest_charge".into()],
            },
            &key("capture"),
        )
        .await
        .unwrap();
    assert_eq!(captured.status, PaymentIntentStatus::Succeeded);
    assert_eq!(captured.amount_received, Some(1000));
    let charge = captured
        .latest_charge
        .as_ref()
        .unwrap()
        .as_object()
        .unwrap();
    assert_eq!(charge.status, ChargeStatus::Succeeded);
    assert_eq!(charge.payment_intent.as_ref(), Some(&intent.id));

    params.capture_method = None;
    params.payment_method = Some(PaymentMethodId::new("pm_card_chargeDeclined"));
    let error = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap_err();
    let declined = error.provider_error().unwrap();
    assert_eq!(declined.status, 402);
    assert!(declined.is_card_error());
    assert_eq!(declined.decline_code.as_deref(), Some("generic_decline"));
    let intent_id = declined.payment_intent.clone().unwrap();
    let intent = client.retrieve_payment_intent(&intent_id).await.unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresPaymentMethod);
    assert_eq!(
        intent.last_payment_error.unwrap().code.as_deref(),
        Some("card_declined")
    );
}

#[tokio::test]
async fn behind_a_proxy_the_page_is_reached_through_it() {
    let (double, _client, _receiver) = started().await;
    let method = double.create_payment_method("giropay", &[]).await;
    let answer = reqwest::Client::new()
        .post(format!("{}/v1/payment_intents", double.base_url))
        .bearer_auth(provider_double::SECRET_KEY)
        .header("X-Forwarded-Host", "127.0.0.1:3000")
        .header("X-Forwarded-Prefix", "/_provider/")
        .form(&[
            ("amount", "990"),
            ("currency", "eur"),
            ("payment_method", method.as_str()),
            ("confirm", "true"),
            ("return_url", RETURN_URL),
        ])
        .send()
        .await
        .unwrap();
    let created = intent(answer.json().await.unwrap());
    assert_eq!(
        created.next_action.unwrap().redirect_url(),
        Some(
            format!(
                "http://127.0.0.1:3000/_provider/_double/authorize/{}",
                created.id
            )
            .as_str()
        )
    );
}
