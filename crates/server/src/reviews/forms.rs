//! The review form without scripts, as the original takes it: `POST
//! /wp-comments-post.php` with `comment_post_ID`, `comment`, `rating`, `author`,
//! `email`, `comment_parent`, and the session's nonce in a field of the shop's own.
//! It answers with a redirect to the product page: to the review (`#comment-ID`), or
//! back with the problem's code (`?review_error=CODE#reviews`), which the page shows
//! as a notice in the shop's own words.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::api::{parent_field, rating_field, HONEYPOT_FIELD, NONCE_FIELD};
use super::service::{self, Author, Post, PostError};
use crate::http::guard::Surface;
use crate::http::params::Params;
use crate::http::store_api::{StoreCtx, STORE_API_NONCE};
use crate::state::{AppState, SharedState};
use rules::catalog::model::{Product, ProductId};
use rules::reviews::moderation::Refusal;
use rules::reviews::posting::{ParentProblem, ReviewProblem, Submission};

/// The query parameter that carries a refusal back to the product page.
pub const ERROR_PARAM: &str = "review_error";

/// The form's page has expired: its nonce is not this session's.
const EXPIRED: &str = "ferroshop_review_form_expired";
/// Something went wrong in the shop (logged).
const FAILED: &str = "ferroshop_review_failed";

/// What the product page says for a refusal's code; None for a code the shop never
/// sends, so a link cannot make a page say something of its choosing.
pub fn problem_message(code: &str) -> Option<String> {
    if let Some(p) = ReviewProblem::ALL.iter().find(|p| p.code() == code) {
        return Some(p.message());
    }
    if let Some(p) = ParentProblem::ALL.iter().find(|p| p.code() == code) {
        return Some(p.message());
    }
    if let Some(r) = Refusal::ALL.iter().find(|r| r.code() == code) {
        return Some(r.message().to_string());
    }
    Some(
        match code {
            "woocommerce_rest_comment_flood" => service::FLOOD_MESSAGE,
            "ferroshop_too_many_attempts" => {
                "Too many reviews were posted. Please try again later."
            }
            EXPIRED => "This page has expired: your review was not posted. Please try again.",
            FAILED => "Your review could not be posted. Please try again.",
            _ => return None,
        }
        .to_string(),
    )
}

fn see_other(location: &str) -> Response {
    let mut res = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res
}

/// The product page's address on this shop (a path: the browser keeps the host).
fn product_path(p: &Product) -> String {
    format!("/product/{}/", p.slug)
}

/// `POST /wp-comments-post.php`.
pub async fn post_form(State(state): State<SharedState>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let ctx = match StoreCtx::from_parts(&state, &parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let mut res = take(&state, &ctx, &parts, body).await;
    // A guest's first post starts their session, so their review shows to them.
    ctx.keep_session(&state, res.headers_mut());
    res
}

async fn take(
    state: &AppState,
    ctx: &StoreCtx,
    parts: &axum::http::request::Parts,
    body: Body,
) -> Response {
    let surface = Surface::of(&parts.uri);
    let params = match Params::read(&parts.headers, body, state.config.max_body_bytes).await {
        Ok(params) => params,
        Err(e) => return surface.refuse(e.status, &e.code, &e.message),
    };
    let catalog = state.catalog.get();
    let product = params
        .int("comment_post_ID")
        .ok()
        .flatten()
        .and_then(|id| service::reviewed_product(&catalog, ProductId(id)));
    let Some(product) = product else {
        return surface.refuse(
            StatusCode::NOT_FOUND,
            "woocommerce_rest_product_invalid_id",
            "The product you are reviewing does not exist.",
        );
    };
    let back = |code: &str| {
        see_other(&format!(
            "{}?{ERROR_PARAM}={code}#reviews",
            product_path(product)
        ))
    };
    let nonce = params.string(NONCE_FIELD).ok().flatten();
    if !ctx.nonce_matches(state, STORE_API_NONCE, nonce.as_deref()) {
        return back(EXPIRED);
    }
    let text = params.string("comment").ok().flatten();
    let name = params.string("author").ok().flatten();
    let email = params.string("email").ok().flatten();
    let honeypot = params.string(HONEYPOT_FIELD).ok().flatten();
    let parent = match parent_field(&params, "comment_parent") {
        Ok(parent) => parent,
        Err(_) => return back(ParentProblem::Missing.code()),
    };
    let request = Post {
        product: product.id,
        parent,
        sent: Submission {
            text: text.as_deref(),
            rating: Some(rating_field(params.get("rating"))),
            is_reply: parent.is_some(),
            name: name.as_deref(),
            email: email.as_deref(),
            honeypot: honeypot.as_deref(),
        },
    };
    let author = match Author::of(state, &ctx.session).await {
        Ok(author) => author,
        Err(e) => {
            tracing::error!(error = %e, "a review form could not find its author");
            return back(FAILED);
        }
    };
    match service::post(state, ctx, &author, &request).await {
        Ok(review) => see_other(&format!("{}#comment-{}", product_path(product), review.id)),
        Err(PostError::Store(e)) => {
            tracing::error!(error = %e, "a review from the form could not be stored");
            back(FAILED)
        }
        Err(e) => back(e.code()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_the_form_sends_back_has_words_and_no_other_does() {
        for p in ReviewProblem::ALL {
            assert_eq!(problem_message(p.code()), Some(p.message()));
        }
        for code in [
            "woocommerce_rest_comment_flood",
            "ferroshop_too_many_attempts",
            "ferroshop_review_exists",
            "ferroshop_reviews_closed",
            "ferroshop_review_parent_not_shown",
            EXPIRED,
            FAILED,
        ] {
            assert!(problem_message(code).is_some(), "{code}");
        }
        assert_eq!(problem_message("<script>alert(1)</script>"), None);
        assert_eq!(problem_message(""), None);
    }
}
