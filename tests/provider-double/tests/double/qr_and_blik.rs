//! QR codes (WeChat Pay, Cash App Pay) and BLIK's six-digit code.

use payments::*;

use crate::common::*;

#[tokio::test]
async fn blik_needs_a_six_digit_code() {
    let (double, _client, mut receiver) = started().await;
    let method = double.create_payment_method("blik", &[]).await;
    let base = [
        ("amount", "4999"),
        ("currency", "pln"),
        ("payment_method", method.as_str()),
        ("payment_method_types[]", "blik"),
        ("confirm", "true"),
    ];
    let (status, error) = post(&double, "/v1/payment_intents", &base).await;
    assert_eq!(status, 400);
    assert_eq!(error["error"]["code"], "parameter_invalid_empty");
    assert_eq!(
        error["error"]["param"],
        "payment_method_options[blik][code]"
    );
    assert_eq!(error["error"]["type"], "invalid_request_error");

    let mut fields = base.to_vec();
    fields.push(("payment_method_options[blik][code]", "12345a"));
    let (status, error) = post(&double, "/v1/payment_intents", &fields).await;
    assert_eq!(status, 400);
    assert_eq!(error["error"]["code"], "invalid_blik_code");

    fields.pop();
    fields.push(("payment_method_options[blik][code]", "123456"));
    let (status, created) = post(&double, "/v1/payment_intents", &fields).await;
    assert_eq!(status, 200, "{created}");
    let created = intent(created);
    assert_eq!(created.status, PaymentIntentStatus::RequiresAction);
    assert_eq!(
        created.next_action.as_ref().unwrap().kind(),
        Some("blik_authorize")
    );
    // The code is not answered back.
    assert!(!serde_json::to_string(&double.events().await)
        .unwrap()
        .contains("123456"));
    let paid = intent(double.succeed(created.id.as_str()).await);
    assert_eq!(paid.status, PaymentIntentStatus::Succeeded);
    receiver
        .wait_for(created.id.as_str(), "payment_intent.succeeded")
        .await;
}

#[tokio::test]
async fn cash_app_shows_a_qr_code_and_a_mobile_link() {
    let (double, client, _receiver) = started().await;
    let method = double.create_payment_method("cashapp", &[]).await;
    let mut params = CreatePaymentIntent::new(2000, Currency::parse("USD").unwrap());
    params.payment_method = Some(PaymentMethodId::new(method));
    params.confirm = Some(true);
    params.return_url = Some("http://127.0.0.1:9/back".into());
    let intent = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresAction);
    let action = &intent.next_action.as_ref().unwrap().0;
    assert_eq!(action["type"], "cashapp_handle_redirect_or_display_qr_code");
    let details = &action["cashapp_handle_redirect_or_display_qr_code"];
    assert!(details["hosted_instructions_url"].is_string());
    assert!(details["mobile_auth_url"].is_string());
    assert!(details["qr_code"]["expires_at"].is_i64());
    assert!(details["qr_code"]["image_url_svg"].is_string());
    let png = browser()
        .get(details["qr_code"]["image_url_png"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(png.headers()["content-type"], "image/png");
    assert!(png.bytes().await.unwrap().starts_with(b"\x89PNG"));
}

#[tokio::test]
async fn wechat_pay_shows_a_qr_code_to_the_web_client() {
    let (double, _client, _receiver) = started().await;
    let method = double.create_payment_method("wechat_pay", &[]).await;
    let base = [
        ("amount", "1000"),
        ("currency", "cny"),
        ("payment_method", method.as_str()),
        ("confirm", "true"),
    ];
    let (status, error) = post(&double, "/v1/payment_intents", &base).await;
    assert_eq!(status, 400);
    assert_eq!(error["error"]["code"], "parameter_missing");
    assert_eq!(
        error["error"]["param"],
        "payment_method_options[wechat_pay][client]"
    );

    let mut fields = base.to_vec();
    fields.push(("payment_method_options[wechat_pay][client]", "web"));
    let (status, created) = post(&double, "/v1/payment_intents", &fields).await;
    assert_eq!(status, 200, "{created}");
    let created = intent(created);
    let action = &created.next_action.as_ref().unwrap().0;
    assert_eq!(action["type"], "wechat_pay_display_qr_code");
    let details = &action["wechat_pay_display_qr_code"];
    assert!(details["data"].is_string());
    assert!(details["image_data_url"]
        .as_str()
        .unwrap()
        .starts_with("data:image/png;base64,"));
    assert!(details["image_url_png"].is_string());
    assert!(details["hosted_instructions_url"].is_string());
}
