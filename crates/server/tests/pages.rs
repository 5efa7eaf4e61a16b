//! The storefront's pages as served: the server-rendered head, status codes, static
//! files and their caching, images, and the headers on every response.

mod common;

use common::*;
use serde_json::Value;

fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let s = html
        .find(start)
        .unwrap_or_else(|| panic!("{start} not in page"))
        + start.len();
    let e = s + html[s..].find(end).unwrap();
    &html[s..e]
}

async fn a_product_page_carries_its_head_before_any_script(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app
        .bare()
        .get(app.url("/product/beanie/"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = res.text().await.unwrap();
    assert!(html.contains("<title>Beanie – Ferroshop</title>"));
    assert!(html.contains("<meta name=\"description\" content=\"The Beanie.\">"));
    assert!(html.contains(&format!(
        "<link rel=\"canonical\" href=\"{}\">",
        app.url("/product/beanie/")
    )));
    let ld: Value = serde_json::from_str(between(
        &html,
        "<script type=\"application/ld+json\">",
        "</script>",
    ))
    .unwrap();
    assert_eq!(ld["@type"], "Product");
    assert_eq!(ld["name"], "Beanie");
    assert_eq!(ld["sku"], format!("sku-{BEANIE}"));
    assert_eq!(ld["offers"]["price"], "18.00");
    assert_eq!(ld["offers"]["priceCurrency"], "USD");
    assert_eq!(ld["offers"]["availability"], "https://schema.org/InStock");
    assert_eq!(ld["brand"]["name"], "Lumen");
    assert_eq!(ld["image"][0], app.url("/media/teal-square.svg"));
    // The main photograph is fetched first, as the gallery's <img> asks for it (the
    // API's sources, the gallery's sizes), so the browser uses the copy it preloaded.
    let product = product_json(&app, BEANIE).await;
    let image = &product["images"][0];
    let preload = between(&html, "<link rel=\"preload\" as=\"image\" ", ">");
    assert_eq!(
        preload,
        format!(
            "href=\"{}\" imagesrcset=\"{}\" imagesizes=\"(min-width: 1024px) 600px, 100vw\" fetchpriority=\"high\"",
            image["src"].as_str().unwrap(),
            image["srcset"].as_str().unwrap()
        )
    );
    // Its place in the shop: home, its category's trail, itself.
    let crumbs: Value = serde_json::from_str(between(
        html.split("<script type=\"application/ld+json\">")
            .nth(2)
            .unwrap(),
        "",
        "</script>",
    ))
    .unwrap();
    assert_eq!(crumbs["@type"], "BreadcrumbList");
    let items = crumbs["itemListElement"].as_array().unwrap();
    assert_eq!(items[0]["name"], "Home");
    assert_eq!(items[0]["item"], app.url("/"));
    assert_eq!(items.last().unwrap()["name"], "Beanie");
    assert_eq!(items.last().unwrap()["item"], app.url("/product/beanie/"));
    assert!(
        items.len() >= 3,
        "the trail names the product's category: {crumbs}"
    );
    for (n, item) in items.iter().enumerate() {
        assert_eq!(item["position"], n + 1);
    }
    let settings: Value = serde_json::from_str(between(
        &html,
        "<script id=\"ferroshop-settings\" type=\"application/json\">",
        "</script>",
    ))
    .unwrap();
    assert_eq!(settings["wc_ajax_url"], "/?wc-ajax=%%endpoint%%");
    assert_eq!(settings["currency"]["code"], "USD");
    assert_eq!(settings["cart_redirect_after_add"], "no");
    // A variable product offers a price range; a name with markup cannot break out.
    let html = app
        .bare()
        .get(app.url("/product/hoodie"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let ld: Value = serde_json::from_str(between(
        &html,
        "<script type=\"application/ld+json\">",
        "</script>",
    ))
    .unwrap();
    assert_eq!(ld["offers"]["@type"], "AggregateOffer");
    assert_eq!(ld["offers"]["lowPrice"], "42.00");
    assert_eq!(ld["offers"]["highPrice"], "45.00");
    let html = app
        .bare()
        .get(app.url("/product/tom-and-jerry-mug/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<title>Tom &amp; Jerry &lt;Mug&gt; – Ferroshop</title>"));
    assert!(!html.contains("<Mug>"));
    app.stop().await;
}

async fn unknown_pages_are_404_but_still_the_app(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    for path in [
        "/product/no-such-thing/",
        "/product-category/nothing/",
        "/brand/nobody/",
        "/no/such/page",
    ] {
        let res = app.bare().get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 404, "{path}");
        assert!(
            res.text()
                .await
                .unwrap()
                .contains("<div id=\"root\"></div>"),
            "{path}"
        );
    }
    for path in [
        "/",
        "/shop",
        "/shop/?orderby=price",
        "/cart",
        "/product-category/clothing/",
        "/product-category/clothing/hoodies/",
        "/brand/lumen/",
    ] {
        let res = app.bare().get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
    }
    let html = app
        .bare()
        .get(app.url("/product-category/clothing/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<title>Clothing – Ferroshop</title>"));
    assert!(html.contains("content=\"Things to wear.\""));
    app.stop().await;
}

async fn hashed_assets_are_cached_for_a_year(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app
        .bare()
        .get(app.url("/assets/app-1a2b3c.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    // A page carries its visitor's nonces: never kept for anyone else.
    let res = app.bare().get(app.url("/")).send().await.unwrap();
    assert_eq!(res.headers()["cache-control"], "private, no-cache");
    let res = app
        .bare()
        .get(app.url("/assets/../../etc/passwd"))
        .send()
        .await
        .unwrap();
    assert_ne!(res.status(), 200);
    let res = app
        .bare()
        .get(app.url("/"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-encoding"], "gzip");
    app.stop().await;
}

async fn images_come_from_the_database(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app
        .bare()
        .get(app.url("/media/teal-square.svg"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    assert!(res.text().await.unwrap().starts_with("<svg"));
    let res = app
        .bare()
        .get(app.url("/media/teal-square.svg"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 304);
    // Unknown, outside the images, and not text once decoded: no image, no body.
    for name in ["none.svg", "..%2f..%2fshop.db", "%FF.svg"] {
        let res = app
            .bare()
            .get(app.url(&format!("/media/{name}")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "{name}");
        assert!(res.text().await.unwrap().is_empty(), "{name}");
    }
    app.stop().await;
}

async fn every_response_carries_security_headers(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    for path in [
        "/",
        "/wp-json/wc/store/v1/products",
        "/?wc-ajax=get_refreshed_fragments",
    ] {
        let res = app.bare().get(app.url(path)).send().await.unwrap();
        let h = res.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "SAMEORIGIN", "{path}");
        assert!(
            h["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("default-src 'self'"),
            "{path}"
        );
    }
    app.stop().await;
}

async fn a_typed_shop_name_is_escaped_in_the_head_and_the_settings(backend: Backend) {
    let typed = "<script>alert(1)</script>\"'&";
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#039;&amp;";
    let Some(app) = spawn_app_with(backend, |config| config.shop_name = typed.into()).await else {
        return;
    };
    let html = app
        .bare()
        .get(app.url("/product/tom-and-jerry-mug/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(html.contains(&format!(
        "<title>Tom &amp; Jerry &lt;Mug&gt; – {escaped}</title>"
    )));
    assert!(html.contains(&format!(
        "<meta property=\"og:title\" content=\"Tom &amp; Jerry &lt;Mug&gt; – {escaped}\"><meta property=\"og:site_name\" content=\"{escaped}\">"
    )));
    let settings: Value = serde_json::from_str(between(
        &html,
        "<script id=\"ferroshop-settings\" type=\"application/json\">",
        "</script>",
    ))
    .unwrap();
    assert_eq!(settings["shop_name"], typed);
    app.stop().await;
}

async fn an_unbuilt_storefront_says_so_under_the_escaped_shop_name(backend: Backend) {
    let typed = "<script>alert(1)</script>\"'&";
    let Some(app) = spawn_app_with(backend, |config| {
        config.shop_name = typed.into();
        config.web_dir = config.web_dir.join("never-built");
    })
    .await
    else {
        return;
    };
    let res = app.bare().get(app.url("/shop/")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.text().await.unwrap(),
        "<!doctype html><meta charset=utf-8><title>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#039;&amp;</title><p>The storefront has not been built. Run <code>make run</code> from the repository root.</p>"
    );
    app.stop().await;
}

/// Every page says what it is to search engines and link previews before any script
/// runs: a meta description, and a canonical link (a 404 has none).
async fn every_page_has_a_description_and_a_canonical_link(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    for (path, canonical) in [
        ("/", "/"),
        ("/shop", "/shop/"),
        ("/shop/?orderby=price&paged=2", "/shop/"),
        ("/cart", "/cart/"),
        ("/checkout", "/checkout/"),
        ("/my-account", "/my-account/"),
        ("/my-account/orders", "/my-account/"),
        ("/order-tracking", "/order-tracking/"),
        ("/product/beanie/", "/product/beanie/"),
        ("/product-category/clothing/", "/product-category/clothing/"),
        ("/brand/lumen/", "/brand/lumen/"),
        ("/brands", "/brands/"),
        ("/contact", "/contact/"),
        ("/no/such/page", ""),
    ] {
        let html = app
            .bare()
            .get(app.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let description = between(&html, "<meta name=\"description\" content=\"", "\"");
        assert!(
            description.len() > 10 && description.contains("Ferroshop")
                || path.starts_with("/product/")
                || path.starts_with("/product-category/"),
            "{path}: {description:?}"
        );
        assert!(!description.is_empty(), "{path}");
        if canonical.is_empty() {
            assert!(!html.contains("rel=\"canonical\""), "{path}");
        } else {
            assert!(
                html.contains(&format!(
                    "<link rel=\"canonical\" href=\"{}\">",
                    app.url(canonical)
                )),
                "{path}"
            );
        }
    }
    let home = app
        .bare()
        .get(app.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let description = between(&home, "<meta name=\"description\" content=\"", "\"");
    assert!(
        description.starts_with("Shop ")
            && description.contains("Clothing")
            && description.ends_with(" at Ferroshop."),
        "{description}"
    );
    // Link previews and search results: Open Graph's type, a Twitter card, and on the
    // home page the shop and its site search as JSON-LD.
    assert!(home.contains("<meta property=\"og:type\" content=\"website\">"));
    assert!(home.contains("<meta name=\"twitter:card\" content=\"summary\">"));
    let ld: Value = serde_json::from_str(between(
        &home,
        "<script type=\"application/ld+json\">",
        "</script>",
    ))
    .unwrap();
    assert_eq!(ld["@graph"][0]["@type"], "Organization");
    assert_eq!(ld["@graph"][0]["name"], "Ferroshop");
    assert_eq!(ld["@graph"][0]["url"], app.url("/"));
    assert_eq!(ld["@graph"][1]["@type"], "WebSite");
    assert_eq!(
        ld["@graph"][1]["potentialAction"]["target"]["urlTemplate"],
        format!("{}?s={{search_term_string}}", app.url("/shop/"))
    );
    assert_eq!(
        ld["@graph"][1]["potentialAction"]["query-input"],
        "required name=search_term_string"
    );
    let product = app
        .bare()
        .get(app.url("/product/beanie/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(product.contains("<meta property=\"og:type\" content=\"product\">"));
    assert!(product.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"));
    app.stop().await;
}

/// The brands A–Z page is a page of the shop: its title, and its place in the shop.
async fn the_brands_page_is_served_with_its_title(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app.bare().get(app.url("/brands/")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("<title>Brands – Ferroshop</title>"), "{html}");
    let crumbs: Value = serde_json::from_str(between(
        &html,
        "<script type=\"application/ld+json\">",
        "</script>",
    ))
    .unwrap();
    assert_eq!(crumbs["itemListElement"][1]["name"], "Brands");
    assert_eq!(crumbs["itemListElement"][1]["item"], app.url("/brands/"));
    app.stop().await;
}

/// The store notice travels in every page's settings until the shopper's browser
/// carries its dismissal cookie (`store_notice{id}=hidden`); a notice with another id
/// shows again.
async fn the_store_notice_is_in_every_page_until_dismissed(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |config| {
        config.store_notice = ferroshop::config::store_notice::StoreNotice::parse(
            "store_notice",
            "Free shipping <strong>this week</strong>",
            "store_notice_id",
            Some("sale-1"),
        )
        .unwrap();
    })
    .await
    else {
        return;
    };
    let settings = |path: &'static str, cookie: Option<&'static str>| {
        let mut req = app.bare().get(app.url(path));
        if let Some(cookie) = cookie {
            req = req.header("cookie", cookie);
        }
        async move {
            let html = req.send().await.unwrap().text().await.unwrap();
            let json: Value = serde_json::from_str(between(
                &html,
                "<script id=\"ferroshop-settings\" type=\"application/json\">",
                "</script>",
            ))
            .unwrap();
            json["store_notice"].clone()
        }
    };
    for path in [
        "/",
        "/product/beanie/",
        "/cart",
        "/checkout",
        "/no/such/page",
    ] {
        let notice = settings(path, None).await;
        assert_eq!(notice["id"], "sale-1", "{path}");
        assert_eq!(notice["text"], "Free shipping <strong>this week</strong>");
    }
    assert_eq!(
        settings("/", Some("a=1; store_noticesale-1=hidden")).await,
        Value::Null
    );
    assert_eq!(
        settings("/shop/", Some("store_noticesale-1=hidden")).await,
        Value::Null
    );
    // Another notice's dismissal, or a cookie that does not say hidden, hides nothing.
    assert_eq!(
        settings("/", Some("store_noticesale-0=hidden")).await["id"],
        "sale-1"
    );
    assert_eq!(
        settings("/", Some("store_noticesale-1=shown")).await["id"],
        "sale-1"
    );
    app.stop().await;

    let Some(plain) = spawn_app(backend).await else {
        return;
    };
    let html = plain
        .bare()
        .get(plain.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("\"store_notice\":null"),
        "no notice configured"
    );
    plain.stop().await;
}

/// `robots.txt` points crawlers at the sitemap and keeps them out of the account and
/// the add-to-cart links; the sitemap lists the shop's pages, its categories and brands with products,
/// and every product that is shown or found by search, with absolute links from the
/// shop's own address.
async fn robots_and_the_sitemap_list_what_search_engines_should_read(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app.bare().get(app.url("/robots.txt")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/plain; charset=utf-8");
    assert!(
        res.headers().get("set-cookie").is_none(),
        "no session for a crawler"
    );
    let robots = res.text().await.unwrap();
    assert!(robots.starts_with("User-agent: *\n"));
    for line in [
        "Disallow: /my-account",
        "Disallow: /*?add-to-cart=",
        "Disallow: /*&add-to-cart=",
    ] {
        assert!(robots.lines().any(|l| l == line), "{line} in {robots}");
    }
    // The pages search tools check stay crawlable.
    for page in ["/cart", "/checkout", "/shop", "/product/"] {
        assert!(
            !robots.lines().any(|l| l
                .strip_prefix("Disallow: ")
                .is_some_and(|rule| page.starts_with(rule))),
            "{page} is not blocked: {robots}"
        );
    }
    assert!(robots
        .lines()
        .any(|l| l == format!("Sitemap: {}", app.url("/sitemap.xml"))));

    let res = app
        .bare()
        .get(app.url("/sitemap.xml"))
        .send()
        .await
        .unwrap();
    let first_tag = res.headers()["etag"].clone();
    let before = res.text().await.unwrap();
    // Asked again with its tag, an unchanged sitemap is not sent again.
    let res = app
        .bare()
        .get(app.url("/sitemap.xml"))
        .header("if-none-match", first_tag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 304);
    assert_eq!(res.headers()["etag"], first_tag);
    for path in ["/product/socks/", "/product/poster/"] {
        assert!(
            before.contains(&format!("<loc>{}</loc>", app.url(path))),
            "{path} listed at first"
        );
    }
    // One product hidden from the catalogue and search, one back to draft: neither is listed.
    let mut hidden = store::catalog::load_products(
        app.db(),
        Some(&[
            rules::catalog::model::ProductId(SOCKS),
            rules::catalog::model::ProductId(POSTER),
        ]),
    )
    .await
    .unwrap();
    for p in &mut hidden {
        if p.id.0 == SOCKS {
            p.visibility = rules::catalog::model::CatalogVisibility::Hidden;
        } else {
            p.status = rules::catalog::model::ProductStatus::Draft;
        }
        store::catalog::save_product(app.db(), p).await.unwrap();
    }
    reload_catalog(&app).await;

    // The catalogue changed: the old tag no longer matches.
    let res = app
        .bare()
        .get(app.url("/sitemap.xml"))
        .header("if-none-match", first_tag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_ne!(res.headers()["etag"], first_tag);
    assert_eq!(
        res.headers()["content-type"],
        "application/xml; charset=utf-8"
    );
    let xml = res.text().await.unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
    let locs: Vec<&str> = xml
        .split("<loc>")
        .skip(1)
        .map(|rest| &rest[..rest.find("</loc>").unwrap()])
        .collect();
    for path in [
        "/",
        "/shop/",
        "/brands/",
        "/contact/",
        "/product-category/hoodies/",
        "/product-category/decor/",
        "/brand/lumen/",
        "/product/beanie/",
        "/product/hoodie/",
        "/product/tom-and-jerry-mug/",
    ] {
        assert!(locs.contains(&app.url(path).as_str()), "{path} in {locs:?}");
    }
    for path in ["/product/socks/", "/product/poster/", "/cart", "/checkout"] {
        assert!(
            !locs.contains(&app.url(path).as_str()),
            "{path} not in the sitemap"
        );
    }
    assert!(
        !locs.iter().any(|l| l.contains("hoodie-3")),
        "no variation in {locs:?}"
    );
    assert_eq!(locs.len(), xml.matches("<url>").count());
    // Products carry their last change as a W3C date-time.
    let beanie = &xml[xml.find(&app.url("/product/beanie/")).unwrap()..];
    let lastmod = between(beanie, "<lastmod>", "</lastmod>");
    assert_eq!(
        lastmod.len(),
        "2026-11-22T12:13:59+00:00".len(),
        "{lastmod}"
    );
    assert!(lastmod.ends_with("+00:00"));

    // A split sitemap's files exist only past the protocol's 50,000 addresses.
    let res = app
        .bare()
        .get(app.url("/sitemaps/1.xml"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    // A name the shop does not answer for never reaches a link.
    let res = app
        .bare()
        .get(app.url("/sitemap.xml"))
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_ne!(res.status(), 200);
    assert!(!res.text().await.unwrap().contains("evil.example"));
    app.stop().await;
}

on_both_databases!(
    every_page_has_a_description_and_a_canonical_link,
    robots_and_the_sitemap_list_what_search_engines_should_read,
    a_product_page_carries_its_head_before_any_script,
    unknown_pages_are_404_but_still_the_app,
    hashed_assets_are_cached_for_a_year,
    images_come_from_the_database,
    every_response_carries_security_headers,
    a_typed_shop_name_is_escaped_in_the_head_and_the_settings,
    an_unbuilt_storefront_says_so_under_the_escaped_shop_name,
    the_brands_page_is_served_with_its_title,
    the_store_notice_is_in_every_page_until_dismissed,
);
