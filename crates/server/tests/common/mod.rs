//! Starts the real server on port 0 over a fresh database (a new SQLite file, or a
//! new schema in the PostgreSQL named by FERROSHOP_TEST_POSTGRES_URL), with a small
//! catalogue whose every product the tests know.

#![allow(dead_code)]

use std::path::PathBuf;

use ferroshop::config::Config;
use ferroshop::server::{start, RunningServer};
use rand::RngCore;
use rules::catalog::model::*;
use store::Db;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub addr: std::net::SocketAddr,
    pub server: Option<RunningServer>,
    pub dir: PathBuf,
    /// The settings the server started with, for a second instance over the same data.
    pub config: Config,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn api(&self, path: &str) -> String {
        self.url(&format!("/wp-json/wc/store/v1{path}"))
    }

    /// A shopper with a cookie jar, like a browser.
    pub fn shopper(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .cookie_store(true)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
    }

    /// A client without cookies, like a headless app using Cart-Token.
    pub fn bare(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
    }

    pub fn db(&self) -> &Db {
        &self.server.as_ref().unwrap().state.db
    }

    /// A shopper's current Store API nonce.
    pub async fn nonce(&self, client: &reqwest::Client) -> String {
        let res = client.get(self.api("/cart")).send().await.unwrap();
        res.headers()["nonce"].to_str().unwrap().to_string()
    }

    /// A new session's Cart-Token, as a headless client gets it.
    pub async fn cart_token(&self) -> String {
        let res = self.bare().get(self.api("/cart")).send().await.unwrap();
        res.headers()["cart-token"].to_str().unwrap().to_string()
    }

    /// Another server instance over the same database, as a second machine behind a
    /// load balancer would run.
    pub async fn second_instance(&self) -> RunningServer {
        let config = Config {
            bind: "127.0.0.1:0".parse().unwrap(),
            ..self.config.clone()
        };
        start(config, false).await.unwrap()
    }

    pub async fn stop(mut self) {
        if let Some(s) = self.server.take() {
            s.shutdown().await.unwrap();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The Set-Cookie headers of a response, as text.
pub fn set_cookies(res: &reqwest::Response) -> Vec<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect()
}

fn random_name() -> String {
    let mut b = [0u8; 6];
    rand::thread_rng().fill_bytes(&mut b);
    hex::encode(b)
}

/// None when the backend is not available here (PostgreSQL without its URL).
pub async fn spawn_app(backend: Backend) -> Option<TestApp> {
    spawn_app_with(backend, |_| {}).await
}

/// `spawn_app` with settings of the test's own (mail, proxies, …) laid over the usual
/// ones before the server starts.
pub async fn spawn_app_with(
    backend: Backend,
    configure: impl FnOnce(&mut Config),
) -> Option<TestApp> {
    let dir = std::env::temp_dir().join(format!("ferroshop-test-{}", random_name()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><html><head><meta charset=\"utf-8\">\n<title>Ferroshop</title>\n<!--ferroshop:head-->\n</head><body><div id=\"root\"></div></body></html>",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("assets/app-1a2b3c.js"), "console.log('shop')").unwrap();
    let database_url = match backend {
        Backend::Sqlite => format!("sqlite://{}/shop.db", dir.display()),
        Backend::Postgres => {
            let Ok(base) = std::env::var("FERROSHOP_TEST_POSTGRES_URL") else {
                eprintln!("FERROSHOP_TEST_POSTGRES_URL is not set: PostgreSQL case not run");
                return None;
            };
            let schema = format!("test_{}", random_name());
            let admin = Db::connect(&base).await.expect("PostgreSQL reachable");
            sqlx::query(&format!("CREATE SCHEMA {schema}"))
                .execute(admin.writer())
                .await
                .unwrap();
            admin.close().await;
            let sep = if base.contains('?') { '&' } else { '?' };
            format!("{base}{sep}options=-c%20search_path%3D{schema}")
        }
    };
    let mut config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        database_url: database_url.clone(),
        web_dir: dir.clone(),
        ..Config::default()
    };
    offer_every_payment_method(&mut config);
    configure(&mut config);
    let db = Db::connect(&database_url).await.unwrap();
    db.migrate().await.unwrap();
    store::catalog::insert_catalog(&db, &fixture())
        .await
        .unwrap();
    db.close().await;
    let server = start(config.clone(), false).await.unwrap();
    Some(TestApp {
        addr: server.addr,
        server: Some(server),
        dir,
        config,
    })
}

/// The test shop's bank account and cheque address, so it offers bank transfer,
/// cheque and cash on delivery.
pub fn offer_every_payment_method(config: &mut Config) {
    let payments = &mut config.checkout.payments;
    payments.bank_accounts = vec![rules::payments::BankAccount {
        account_name: "Ferroshop Test Ltd".into(),
        account_number: "12345678".into(),
        bank_name: "First Example Bank".into(),
        sort_code: "12-34-56".into(),
        iban: "GB33BUKB20201555555555".into(),
        bic: "BUKBGB22".into(),
    }];
    payments.cheque_payee = "Ferroshop Test Ltd".into();
    payments.cheque_address = "1 Test Street, San Francisco, CA 94110".into();
}

/// A TCP port on loopback that nothing listens on (now).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The mail outbox, newest first.
/// A product as the Store API answers it to anyone (`GET /products/{id}`).
pub async fn product_json(app: &TestApp, id: i64) -> serde_json::Value {
    let res = app
        .bare()
        .get(app.api(&format!("/products/{id}")))
        .send()
        .await
        .unwrap();
    res.json().await.unwrap()
}

pub async fn outbox(app: &TestApp) -> Vec<store::outbox::OutboxEntry> {
    store::outbox::recent(app.db(), 100).await.unwrap()
}

/// Runs each named test on SQLite and on PostgreSQL.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $name() { super::$name(super::common::Backend::Sqlite).await } )*
        }
        mod postgres {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $name() { super::$name(super::common::Backend::Postgres).await } )*
        }
    };
}

pub const BEANIE: i64 = 15;
pub const CAP: i64 = 17;
pub const HOODIE: i64 = 12;
pub const HOODIE_BLUE_M: i64 = 35;
pub const HOODIE_BLUE_L: i64 = 36;
pub const HOODIE_GREEN_M: i64 = 37;
pub const PENNANT: i64 = 34;
pub const POSTER: i64 = 40;
pub const MUG: i64 = 41;
pub const GIFT_CARD: i64 = 42;
pub const SOCKS: i64 = 43;
pub const PREORDER: i64 = 44;
pub const ODD_NAME: i64 = 45;

fn base(id: i64, kind: ProductKind, name: &str, price: Option<i64>) -> Product {
    Product {
        id: ProductId(id),
        parent_id: None,
        kind,
        status: ProductStatus::Publish,
        visibility: CatalogVisibility::Visible,
        name: name.into(),
        slug: name
            .to_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-"),
        sku: format!("sku-{id}"),
        short_description: format!("<p>The {name}.</p>"),
        description: format!("<p>All about the {name}.</p>"),
        menu_order: 0,
        created_at: 1_790_000_000 + id * 100,
        updated_at: 1_790_000_000 + id * 100,
        featured: false,
        regular_price: price,
        sale_price: None,
        sale_from: None,
        sale_to: None,
        manage_stock: false,
        stock_quantity: None,
        stock_status: StockStatus::InStock,
        backorders: Backorders::No,
        low_stock_amount: None,
        min_quantity: 1,
        max_quantity: None,
        sold_individually: false,
        weight_grams: Some(200),
        dimensions: None,
        external_url: String::new(),
        button_text: String::new(),
        rating_average_x100: 0,
        review_count: 0,
        total_sales: id,
        tax_status: TaxStatus::Taxable,
        tax_class: String::new(),
        is_virtual: false,
        reviews_allowed: true,
        purchase_note: String::new(),
        upsell_ids: Vec::new(),
        cross_sell_ids: Vec::new(),
        shipping_class: String::new(),
        image_ids: vec![MediaId(1)],
        category_ids: vec![CategoryId(2)],
        brand_ids: vec![BrandId(1)],
        tag_ids: vec![],
        attributes: vec![],
        variation: vec![],
    }
}

fn variation(id: i64, color: &str, size: &str, price: i64, sale: Option<i64>) -> Product {
    let mut v = base(
        id,
        ProductKind::Variation,
        &format!("Hoodie - {color}, {size}"),
        Some(price),
    );
    v.parent_id = Some(ProductId(HOODIE));
    v.slug = format!("hoodie-{id}");
    v.sale_price = sale;
    v.image_ids = vec![];
    v.category_ids = vec![];
    v.brand_ids = vec![];
    v.variation = vec![
        VariationValue {
            attribute: "pa_color".into(),
            value: color.to_lowercase(),
        },
        VariationValue {
            attribute: "pa_size".into(),
            value: size.to_lowercase(),
        },
    ];
    v
}

pub fn fixture() -> CatalogData {
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="teal"/></svg>"#;
    let mut beanie = base(BEANIE, ProductKind::Simple, "Beanie", Some(2000));
    beanie.sale_price = Some(1800);
    beanie.brand_ids = vec![BrandId(2)];
    // The cap is suggested instead, the mug (and the sold-out poster) with it.
    beanie.upsell_ids = vec![ProductId(CAP)];
    beanie.cross_sell_ids = vec![ProductId(POSTER), ProductId(MUG), ProductId(CAP)];
    let mut cap = base(CAP, ProductKind::Simple, "Cap", Some(1600));
    cap.category_ids = vec![CategoryId(3)];
    cap.menu_order = -1;
    let mut hoodie = base(HOODIE, ProductKind::Variable, "Hoodie", None);
    hoodie.category_ids = vec![CategoryId(3)];
    hoodie.attributes = vec![
        ProductAttribute {
            attribute_id: Some(AttributeId(1)),
            name: "Color".into(),
            values: vec!["blue".into(), "green".into()],
            visible: true,
            used_for_variations: true,
            default_value: String::new(),
        },
        ProductAttribute {
            attribute_id: Some(AttributeId(2)),
            name: "Size".into(),
            values: vec!["m".into(), "l".into()],
            visible: true,
            used_for_variations: true,
            default_value: String::new(),
        },
    ];
    let mut green = variation(HOODIE_GREEN_M, "Green", "M", 4500, None);
    green.manage_stock = true;
    green.stock_quantity = Some(0);
    green.stock_status = StockStatus::OutOfStock;
    let mut pennant = base(PENNANT, ProductKind::External, "Pennant", Some(1105));
    pennant.external_url = "https://example.com/pennant".into();
    pennant.button_text = "Buy from the maker".into();
    pennant.category_ids = vec![CategoryId(4)];
    pennant.brand_ids = vec![BrandId(2)];
    let mut poster = base(POSTER, ProductKind::Simple, "Poster", Some(900));
    poster.manage_stock = true;
    poster.stock_quantity = Some(0);
    poster.stock_status = StockStatus::OutOfStock;
    poster.category_ids = vec![CategoryId(4)];
    let mut mug = base(MUG, ProductKind::Simple, "Mug", Some(1200));
    mug.manage_stock = true;
    mug.stock_quantity = Some(3);
    mug.low_stock_amount = Some(5);
    mug.category_ids = vec![CategoryId(4)];
    let mut gift = base(GIFT_CARD, ProductKind::Simple, "Gift Card", Some(5000));
    gift.sold_individually = true;
    gift.category_ids = vec![CategoryId(4)];
    let mut socks = base(SOCKS, ProductKind::Simple, "Socks", Some(800));
    socks.min_quantity = 2;
    let mut preorder = base(PREORDER, ProductKind::Simple, "Lamp", Some(7500));
    preorder.manage_stock = true;
    preorder.stock_quantity = Some(0);
    preorder.stock_status = StockStatus::OnBackorder;
    preorder.backorders = Backorders::Yes;
    preorder.category_ids = vec![CategoryId(4)];
    let mut odd = base(
        ODD_NAME,
        ProductKind::Simple,
        "Tom & Jerry <Mug>",
        Some(999),
    );
    odd.slug = "tom-and-jerry-mug".into();
    odd.category_ids = vec![CategoryId(4)];
    CatalogData {
        categories: vec![
            Category {
                id: CategoryId(2),
                parent_id: None,
                name: "Clothing".into(),
                slug: "clothing".into(),
                description: "Things to wear.".into(),
                menu_order: 0,
                image_id: None,
            },
            Category {
                id: CategoryId(3),
                parent_id: Some(CategoryId(2)),
                name: "Hoodies".into(),
                slug: "hoodies".into(),
                description: String::new(),
                menu_order: 1,
                image_id: None,
            },
            Category {
                id: CategoryId(4),
                parent_id: None,
                name: "Decor".into(),
                slug: "decor".into(),
                description: String::new(),
                menu_order: 2,
                image_id: None,
            },
        ],
        brands: vec![
            Brand {
                id: BrandId(1),
                name: "Northwind".into(),
                slug: "northwind".into(),
                description: "Warm things.".into(),
                image_id: None,
            },
            Brand {
                id: BrandId(2),
                name: "Lumen".into(),
                slug: "lumen".into(),
                description: String::new(),
                image_id: None,
            },
        ],
        tags: vec![Tag {
            id: TagId(1),
            name: "New".into(),
            slug: "new".into(),
        }],
        attributes: vec![
            Attribute {
                id: AttributeId(1),
                name: "Color".into(),
                taxonomy: "pa_color".into(),
                terms: vec![
                    Term {
                        id: TermId(1),
                        name: "Blue".into(),
                        slug: "blue".into(),
                        color: "#1d4ed8".into(),
                        image_id: None,
                    },
                    Term {
                        id: TermId(2),
                        name: "Green".into(),
                        slug: "green".into(),
                        color: "#15803d".into(),
                        image_id: Some(MediaId(1)),
                    },
                ],
                swatch: SwatchType::Color,
            },
            Attribute {
                id: AttributeId(2),
                name: "Size".into(),
                taxonomy: "pa_size".into(),
                terms: vec![
                    Term {
                        id: TermId(3),
                        name: "M".into(),
                        slug: "m".into(),
                        ..Default::default()
                    },
                    Term {
                        id: TermId(4),
                        name: "L".into(),
                        slug: "l".into(),
                        ..Default::default()
                    },
                ],
                swatch: SwatchType::Label,
            },
        ],
        media: vec![Media {
            id: MediaId(1),
            file_name: "teal-square.svg".into(),
            mime_type: "image/svg+xml".into(),
            width: 800,
            height: 800,
            alt: "A teal square".into(),
            caption: String::new(),
            body: svg.to_vec(),
        }],
        products: vec![
            beanie,
            cap,
            hoodie,
            variation(HOODIE_BLUE_M, "Blue", "M", 4500, None),
            variation(HOODIE_BLUE_L, "Blue", "L", 4500, Some(4200)),
            green,
            pennant,
            poster,
            mug,
            gift,
            socks,
            preorder,
            odd,
        ],
    }
}

/// Number of top-level products in the fixture.
pub const TOP_LEVEL_PRODUCTS: usize = 10;

/// Stores the shop's pricing rules (taxes, shipping zones) and reloads the snapshot.
pub async fn store_rules(app: &TestApp, rules: &rules::pricing::rules::ShopRules) {
    use store;
    store::settings::set(
        app.db(),
        rules::pricing::rules::RULES_SETTING,
        &rules.to_json(),
    )
    .await
    .unwrap();
    store::catalog::bump_catalog_version(app.db())
        .await
        .unwrap();
    reload_catalog(app).await;
}

/// Has the running server read what changed in the catalogue now, instead of on its
/// next poll.
pub async fn reload_catalog(app: &TestApp) {
    app.server
        .as_ref()
        .unwrap()
        .state
        .refresh_catalog()
        .await
        .unwrap();
}

/// Adds (or replaces) a coupon.
pub async fn store_coupon(app: &TestApp, coupon: &rules::pricing::coupons::Coupon) {
    store::coupons::save_coupon(app.db(), coupon, 0)
        .await
        .unwrap();
}

/// The storefront's page settings, as a browser with this client's cookies gets them
/// (the checkout page carries the classic calls' nonces).
pub async fn page_settings(app: &TestApp, client: &reqwest::Client) -> serde_json::Value {
    settings_of(app, client, "/checkout").await
}

/// The settings the page at `path` carries, for this client's cookies.
pub async fn settings_of(app: &TestApp, client: &reqwest::Client, path: &str) -> serde_json::Value {
    let html = client
        .get(app.url(path))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let start = html
        .find("<script id=\"ferroshop-settings\" type=\"application/json\">")
        .expect("the page carries its settings");
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    serde_json::from_str(json).unwrap()
}

/// This client's nonce for a classic call's action, as the checkout page hands it out.
pub async fn classic_nonce(app: &TestApp, client: &reqwest::Client, action: &str) -> String {
    let key = match action {
        "update-order-review" => "update_order_review",
        "apply-coupon" => "apply_coupon",
        "remove-coupon" => "remove_coupon",
        "woocommerce-process_checkout" => "process_checkout",
        other => panic!("no page nonce for {other}"),
    };
    page_settings(app, client).await["checkout"]["nonces"][key]
        .as_str()
        .unwrap()
        .to_string()
}

/// Ada's address, as the Store API takes it.
pub fn ada_address() -> serde_json::Value {
    serde_json::json!({
        "first_name": "Ada", "last_name": "Lovelace", "company": "", "address_1": "1 Main St",
        "address_2": "", "city": "San Francisco", "state": "CA", "postcode": "94110",
        "country": "US", "email": "ada@example.test", "phone": "5555550100"
    })
}

/// A guest checks out `lines` (product, quantity) with `coupons` applied and pays with
/// `method`, as the storefront does; the order's id.
pub async fn place_order(
    app: &TestApp,
    lines: &[(i64, i64)],
    coupons: &[&str],
    method: &str,
    billing: serde_json::Value,
) -> i64 {
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let post = |path: &str, body: serde_json::Value| {
        c.post(app.api(path))
            .header("Nonce", &nonce)
            .json(&body)
            .send()
    };
    for &(id, quantity) in lines {
        let res = post(
            "/cart/add-item",
            serde_json::json!({"id": id, "quantity": quantity}),
        )
        .await
        .unwrap();
        assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    }
    for code in coupons {
        let res = post("/cart/apply-coupon", serde_json::json!({"code": code}))
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    }
    let res = post(
        "/checkout",
        serde_json::json!({
            "billing_address": billing, "shipping_address": billing, "payment_method": method,
        }),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 200);
    let order: serde_json::Value = res.json().await.unwrap();
    order["order_id"].as_i64().unwrap()
}

/// A product's stock quantity.
pub async fn stock_of(app: &TestApp, product: i64) -> Option<i64> {
    store::catalog::find_stock(app.db(), ProductId(product))
        .await
        .unwrap()
        .unwrap()
        .quantity
}

/// An order's status, read from the database.
pub async fn status_of(app: &TestApp, order: i64) -> String {
    sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
        .bind(order)
        .fetch_one(app.db().reader())
        .await
        .unwrap()
}

/// Moves an order's date back, as if it had been placed `days` ago.
pub async fn age_order(app: &TestApp, order: i64, days: i64) {
    sqlx::query("UPDATE orders SET created_at = created_at - $1 WHERE id = $2")
        .bind(days * 86_400)
        .bind(order)
        .execute(app.db().writer())
        .await
        .unwrap();
}

/// The running server's settings.
pub fn config(app: &TestApp) -> &Config {
    &app.server.as_ref().unwrap().state.config
}

/// The mail settings the server's upkeep task changes orders with.
pub fn order_mail(app: &TestApp) -> mail::order::OrderMailSettings {
    let state = &app.server.as_ref().unwrap().state;
    state
        .config
        .order_mails(state.address.default_base().as_str())
}

/// A staff API key made as `ferroshop api-keys create` makes one: (key, secret).
pub async fn staff_key(
    app: &TestApp,
    description: &str,
    permissions: rules::staff::Permissions,
) -> (String, String) {
    let key = rules::staff::NewKey::generate();
    store::staff::create(app.db(), &key, description, permissions, 0)
        .await
        .unwrap();
    (key.consumer_key, key.consumer_secret)
}

impl TestApp {
    /// A staff API address.
    pub fn staff(&self, path: &str) -> String {
        self.url(&format!("/wp-json/wc/v3{path}"))
    }
}

/// The Store API cart as the server holds it for this client's session.
pub async fn cart_of(app: &TestApp, c: &reqwest::Client) -> serde_json::Value {
    c.get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The boundary of the multipart bodies tests build.
pub const BOUNDARY: &str = "----ferroshopformboundary7MA4YWxkTrZu0gW";

/// One part of a multipart body: a field's text, or a file.
pub enum Part<'a> {
    Text(&'a str, &'a str),
    File(&'a str, &'a str, &'a str, &'a [u8]),
}

/// A multipart form body of `parts`, split by `BOUNDARY`.
pub fn multipart(parts: &[Part]) -> Vec<u8> {
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        match part {
            Part::Text(name, value) => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                        .as_bytes(),
                );
            }
            Part::File(name, file_name, media_type, content) => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: {media_type}\r\n\r\n").as_bytes(),
                );
                body.extend_from_slice(content);
                body.extend_from_slice(b"\r\n");
            }
        }
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}
