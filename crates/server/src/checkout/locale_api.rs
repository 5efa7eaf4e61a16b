//! `GET /wp-json/ferroshop/v1/address-locale`: the address data for the storefront's
//! checkout form, cacheable for an hour and revalidated by its entity tag.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::http::routes::ApiRoutes;
use rules::address::locale::data::{locale_etag, locale_json};

/// Under the shop's own API root.
pub const ADDRESS_LOCALE_PATH: &str = "/address-locale";

const CACHE_CONTROL: &str = "public, max-age=3600";

/// The routes need no shared state, so tests can serve them on their own.
pub fn routes<S: Clone + Send + Sync + 'static>() -> ApiRoutes<S> {
    ApiRoutes::new().get(ADDRESS_LOCALE_PATH, get_address_locale)
}

async fn get_address_locale(headers: HeaderMap) -> Response {
    let etag = locale_etag();
    let cache_headers = [
        (header::ETAG, HeaderValue::from_static(etag)),
        (
            header::CACHE_CONTROL,
            HeaderValue::from_static(CACHE_CONTROL),
        ),
    ];
    if none_match(&headers, etag) {
        return (StatusCode::NOT_MODIFIED, cache_headers).into_response();
    }
    (
        StatusCode::OK,
        cache_headers,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=UTF-8"),
        )],
        locale_json(),
    )
        .into_response()
}

/// Whether `If-None-Match` names our tag: `*`, or the tag in a list, weak or not.
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

#[cfg(test)]
mod tests {
    use axum::body::{to_bytes, Body};
    use axum::http::Request;
    use tower::ServiceExt;

    use super::*;

    async fn get(if_none_match: Option<&str>) -> Response {
        let mut req = Request::get(ADDRESS_LOCALE_PATH);
        if let Some(tag) = if_none_match {
            req = req.header(header::IF_NONE_MATCH, tag);
        }
        routes::<()>()
            .into_router()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn serves_the_address_data_with_a_strong_tag_for_an_hour() {
        let res = get(None).await;
        assert_eq!(res.status(), StatusCode::OK);
        let h = res.headers();
        assert_eq!(h[header::CACHE_CONTROL], "public, max-age=3600");
        assert_eq!(h[header::CONTENT_TYPE], "application/json; charset=UTF-8");
        let etag = h[header::ETAG].to_str().unwrap().to_string();
        assert!(etag.starts_with('"') && !etag.starts_with("W/"));
        let body = to_bytes(res.into_body(), usize::MAX).await.unwrap();
        assert_eq!(body, locale_json().as_bytes());
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            json["countries"][0],
            serde_json::json!(["AF", "Afghanistan"])
        );
        assert_eq!(json["i18n_optional_text"], "optional");
    }

    #[tokio::test]
    async fn answers_not_modified_to_a_client_holding_the_current_tag() {
        let etag = locale_etag();
        for header in [
            etag.to_string(),
            format!("W/{etag}"),
            format!("\"old\", {etag}"),
            "*".into(),
        ] {
            let res = get(Some(&header)).await;
            assert_eq!(res.status(), StatusCode::NOT_MODIFIED, "{header}");
            assert_eq!(res.headers()[header::ETAG], etag);
            assert_eq!(res.headers()[header::CACHE_CONTROL], "public, max-age=3600");
            let body = to_bytes(res.into_body(), usize::MAX).await.unwrap();
            assert!(body.is_empty());
        }
        assert_eq!(get(Some("\"old\"")).await.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn the_route_wins_over_a_catch_all_for_the_rest_of_wp_json() {
        let app = crate::http::routes::ApiRoutes::<()>::new()
            .nest("/wp-json/ferroshop/v1", routes())
            .into_router()
            .route(
                "/wp-json/{*rest}",
                axum::routing::any(|| async { StatusCode::NOT_FOUND }),
            );
        let req = Request::get("/wp-json/ferroshop/v1/address-locale")
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            app.clone().oneshot(req).await.unwrap().status(),
            StatusCode::OK
        );
        let req = Request::get("/wp-json/ferroshop/v1/other")
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            app.oneshot(req).await.unwrap().status(),
            StatusCode::NOT_FOUND
        );
    }
}
