//! Photographs: added by the owner, offered in the Store API's `srcset`, and served
//! as WebP copies at the offered widths only, on both databases.

mod common;

use std::io::Cursor;

use common::*;
use image::{DynamicImage, ImageFormat, Rgb, RgbImage};

/// A camera-like JPEG: a smooth gradient with fine detail.
fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = DynamicImage::ImageRgb8(RgbImage::from_fn(width, height, |x, y| {
        Rgb([
            (x * 255 / width) as u8,
            (y * 255 / height) as u8,
            ((x * 7 + y * 13) % 32) as u8,
        ])
    }));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

async fn add(
    app: &TestApp,
    name: &str,
    body: &[u8],
    alt: &str,
) -> Result<rules::catalog::model::Media, String> {
    let path = app.dir.join(name);
    std::fs::write(&path, body).unwrap();
    ferroshop::catalog::images::add_image(app.db(), &path, alt).await
}

async fn get(app: &TestApp, path: &str) -> reqwest::Response {
    app.bare().get(app.url(path)).send().await.unwrap()
}

async fn a_photograph_gets_webp_copies_at_the_offered_widths(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let original = jpeg(1200, 800);
    let mug = add(&app, "Blue Mug (front).JPG", &original, " A blue mug ")
        .await
        .unwrap();
    assert_eq!(mug.file_name, "blue-mug-front.jpg");
    assert_eq!((mug.width, mug.height), (1200, 800));
    assert_eq!(mug.mime_type, "image/jpeg");
    assert_eq!(mug.alt, "A blue mug");
    // The same name again is kept apart.
    let again = add(&app, "blue mug front.jpeg", &jpeg(300, 300), "")
        .await
        .unwrap();
    assert_eq!(again.file_name, "blue-mug-front-2.jpg");
    assert_ne!(again.id, mug.id);

    // The beanie now shows the photograph.
    let mut beanie =
        store::catalog::load_products(app.db(), Some(&[rules::catalog::model::ProductId(BEANIE)]))
            .await
            .unwrap()
            .remove(0);
    beanie.image_ids = vec![mug.id];
    store::catalog::save_product(app.db(), &beanie)
        .await
        .unwrap();
    reload_catalog(&app).await;

    let product = product_json(&app, BEANIE).await;
    let image = &product["images"][0];
    let src = app.url("/media/blue-mug-front.jpg");
    assert_eq!(image["src"], src.as_str());
    assert_eq!(image["thumbnail"], format!("{src}?w=320"));
    assert_eq!(
        image["srcset"],
        format!(
            "{src}?w=160 160w, {src}?w=320 320w, {src}?w=480 480w, {src}?w=640 640w, {src}?w=960 960w, {src} 1200w"
        )
    );
    assert_eq!(
        (image["width"].as_i64(), image["height"].as_i64()),
        (Some(1200), Some(800))
    );
    assert_eq!(image["alt"], "A blue mug");

    // Each offered width is a WebP of that width, much smaller than the original.
    for (width, height) in [(160, 107), (640, 427), (960, 640)] {
        let res = get(&app, &format!("/media/blue-mug-front.jpg?w={width}")).await;
        assert_eq!(res.status(), 200, "{width}");
        assert_eq!(res.headers()["content-type"], "image/webp");
        let etag = res.headers()["etag"].to_str().unwrap().to_string();
        let body = res.bytes().await.unwrap();
        let copy = image::load_from_memory_with_format(&body, ImageFormat::WebP).unwrap();
        assert_eq!((copy.width(), copy.height()), (width, height));
        assert!(
            body.len() < original.len() / 2,
            "{} bytes at {width}",
            body.len()
        );
        // Asked again: the same bytes (from the cache), or nothing when the browser has them.
        let res = get(&app, &format!("/media/blue-mug-front.jpg?w={width}")).await;
        assert_eq!(res.bytes().await.unwrap(), body);
        let res = app
            .bare()
            .get(app.url(&format!("/media/blue-mug-front.jpg?w={width}")))
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 304);
    }
    // The original is kept as it was uploaded.
    let res = get(&app, "/media/blue-mug-front.jpg").await;
    assert_eq!(res.headers()["content-type"], "image/jpeg");
    assert_eq!(res.bytes().await.unwrap().as_ref(), original.as_slice());

    // No other width is made: not the original's, not a wider one, not one off the ladder.
    for query in [
        "w=1200",
        "w=1280",
        "w=500",
        "w=0",
        "w=-1",
        "w=abc",
        "w=99999999999",
    ] {
        let res = get(&app, &format!("/media/blue-mug-front.jpg?{query}")).await;
        assert_eq!(res.status(), 404, "{query}");
    }
    // Drawings are sharp at every size: no copies, the srcset offers the drawing alone.
    assert_eq!(
        get(&app, "/media/teal-square.svg?w=320").await.status(),
        404
    );
    let cap = product_json(&app, CAP).await;
    let svg = app.url("/media/teal-square.svg");
    assert_eq!(cap["images"][0]["srcset"], format!("{svg} 800w"));
    assert_eq!(cap["images"][0]["thumbnail"], svg.as_str());
    assert_eq!(get(&app, "/media/no-such.jpg?w=320").await.status(), 404);
    app.stop().await;
}

async fn what_is_not_a_photograph_is_refused_with_a_reason(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let svg = b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>";
    let e = add(&app, "logo.svg", svg, "").await.unwrap_err();
    assert!(e.contains("not an image this shop takes"), "{e}");
    let e = add(&app, "broken.jpg", &jpeg(400, 300)[..30], "")
        .await
        .unwrap_err();
    assert!(e.contains("does not decode"), "{e}");
    let missing = ferroshop::catalog::images::add_image(
        app.db(),
        std::path::Path::new("/no/such/photo.jpg"),
        "",
    )
    .await
    .unwrap_err();
    assert!(missing.contains("/no/such/photo.jpg"), "{missing}");
    // Nothing was stored.
    let catalog = store::catalog::load_terms(app.db()).await.unwrap();
    assert_eq!(catalog.media.len(), 1);
    app.stop().await;
}

on_both_databases!(
    a_photograph_gets_webp_copies_at_the_offered_widths,
    what_is_not_a_photograph_is_refused_with_a_reason,
);
