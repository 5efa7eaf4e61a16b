//! Reviews changing: posting one (from the page's call, the form without scripts or
//! the staff API), and staff moving, editing and deleting them. Each change runs in
//! one transaction that also recomputes the product's figures and stamps them for
//! every instance's live catalogue, so the Store API product shows them at once.

use axum::http::StatusCode;
use serde_json::json;

use crate::error::ApiError;
use crate::http::store_api::StoreCtx;
use crate::rate_limit::{self, Action, Limited};
use crate::session::{token_hash, Session};
use crate::state::AppState;
use rules::catalog::model::{Product, ProductId, ProductKind};
use rules::customers::CustomerId;
use rules::reviews::moderation::{self, Eligibility, PosterKind, Posting, Refusal};
use rules::reviews::posting::{self, ParentProblem, Poster, ReviewProblem, Submission};
use rules::reviews::{AuthorKey, Rating, Review, ReviewId, ReviewStatus};
use store::reviews::{NewReview, Stored};
use store::StoreError;

/// Two posts by one author closer than this are refused (the original's flood rule).
pub const FLOOD_SECS: i64 = 15;
pub const FLOOD_MESSAGE: &str = "You are posting comments too quickly. Slow down.";

/// Who is posting or looking, from the session.
#[derive(Debug, Clone)]
pub enum Author {
    Guest {
        /// The digest of the guest's session, so their reviews show to them while
        /// they wait.
        session_key: String,
    },
    Account {
        id: CustomerId,
        name: String,
        email: String,
        staff: bool,
    },
}

impl Author {
    /// The session's author: its signed-in account (as `session::identify` found it),
    /// or a guest.
    pub async fn of(state: &AppState, session: &Session) -> Result<Author, StoreError> {
        if session.user_id > 0 {
            let id = CustomerId(session.user_id);
            if let Some(c) = store::customers::find_customer(&state.db, id).await? {
                let name = [c.display_name.trim(), c.first_name.trim()]
                    .into_iter()
                    .find(|n| !n.is_empty())
                    .unwrap_or_else(|| c.email.split('@').next().unwrap_or(""))
                    .to_string();
                return Ok(Author::Account {
                    id,
                    name,
                    email: c.email,
                    staff: session.role.is_staff(),
                });
            }
        }
        Ok(Author::Guest {
            session_key: token_hash(session.id.as_str()),
        })
    }

    pub fn kind(&self) -> PosterKind {
        match self {
            Author::Guest { .. } => PosterKind::Guest,
            Author::Account { staff: true, .. } => PosterKind::Staff,
            Author::Account { .. } => PosterKind::Customer,
        }
    }

    /// The account's key; a guest has one only once they give an address.
    pub fn account_key(&self) -> Option<AuthorKey> {
        match self {
            Author::Account { id, .. } => Some(AuthorKey::customer(*id)),
            Author::Guest { .. } => None,
        }
    }
}

/// Why a review was not stored.
#[derive(Debug)]
pub enum PostError {
    UnknownProduct,
    Problem(ReviewProblem),
    Parent(ParentProblem),
    Refused(Refusal),
    Flood { retry_after_secs: i64 },
    Limited(Limited),
    Store(StoreError),
}

impl From<StoreError> for PostError {
    fn from(e: StoreError) -> Self {
        PostError::Store(e)
    }
}

impl PostError {
    /// The stable code of the refusal (the form without scripts sends it back to
    /// the page, which says what it means).
    pub fn code(&self) -> &'static str {
        match self {
            PostError::UnknownProduct => "woocommerce_rest_product_invalid_id",
            PostError::Problem(p) => p.code(),
            PostError::Parent(p) => p.code(),
            PostError::Refused(r) => r.code(),
            PostError::Flood { .. } => "woocommerce_rest_comment_flood",
            PostError::Limited(_) => "ferroshop_too_many_attempts",
            PostError::Store(_) => "internal_server_error",
        }
    }
}

impl From<PostError> for ApiError {
    fn from(e: PostError) -> Self {
        let code = e.code();
        match e {
            PostError::UnknownProduct => unknown_product(),
            PostError::Problem(p) => ApiError::new(StatusCode::BAD_REQUEST, code, p.message())
                .with_data("param", json!(p.field())),
            PostError::Parent(p) => ApiError::new(StatusCode::BAD_REQUEST, code, p.message())
                .with_data("param", json!("parent")),
            PostError::Refused(r) => ApiError::new(
                StatusCode::from_u16(r.status()).unwrap_or(StatusCode::FORBIDDEN),
                code,
                r.message(),
            )
            .with_data("reason", json!(r.reason())),
            PostError::Flood { retry_after_secs } => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, code, FLOOD_MESSAGE)
                    .retry_after(retry_after_secs)
            }
            PostError::Limited(l) => l.to_api(),
            PostError::Store(e) => e.into(),
        }
    }
}

pub fn unknown_product() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "woocommerce_rest_product_invalid_id",
        "Invalid product ID.",
    )
}

/// A product that takes reviews: published, and not a variation (reviews belong to
/// the product a variation is of).
pub fn reviewed_product(
    catalog: &rules::catalog::index::Catalog,
    id: ProductId,
) -> Option<&Product> {
    catalog
        .shown(id)
        .filter(|p| p.kind != ProductKind::Variation)
}

/// Whether the shop takes reviews of this product at all.
pub fn is_open(state: &AppState, product: &Product) -> bool {
    state.config.reviews.enabled && product.reviews_allowed
}

/// A review or reply posted by a shopper.
pub struct Post<'a> {
    pub product: ProductId,
    pub parent: Option<ReviewId>,
    pub sent: Submission<'a>,
}

/// Whether the author bought the product: by account (and the account's address), or
/// by a guest's address.
async fn bought(
    state: &AppState,
    customer: Option<CustomerId>,
    email: &str,
    product: ProductId,
) -> Result<bool, StoreError> {
    let emails = vec![rules::customers::email_key(email)];
    store::reviews::bought(&state.db, customer, &emails, product).await
}

/// Whether the viewer may post a review, and a reply, now, as far as it can be known
/// before they fill in the form (a guest's address is not known yet).
pub async fn eligibility(
    state: &AppState,
    author: &Author,
    product: &Product,
) -> Result<(Result<(), Refusal>, Result<(), Refusal>), StoreError> {
    let settings = &state.config.reviews;
    let (verified_owner, already_reviewed) = match author {
        Author::Guest { .. } => (false, false),
        Author::Account { id, email, .. } => {
            let verified = if settings.verified_only {
                bought(state, Some(*id), email, product.id).await?
            } else {
                false
            };
            let reviewed =
                store::reviews::has_reviewed(&state.db, product.id, &AuthorKey::customer(*id))
                    .await?;
            (verified, reviewed)
        }
    };
    let facts = |reply| Eligibility {
        open: is_open(state, product),
        poster: author.kind(),
        verified_owner,
        already_reviewed,
        reply,
    };
    Ok((
        moderation::may_post(&facts(false), settings),
        moderation::may_post(&facts(true), settings),
    ))
}

/// Posts a review or reply: checks what was sent, counts the attempt against the rate
/// limits, checks the parent and who may post, and stores it with the product's
/// figures in one transaction (refusing a second review by the same author, or a post
/// too soon after their last).
pub async fn post(
    state: &AppState,
    ctx: &StoreCtx,
    author: &Author,
    request: &Post<'_>,
) -> Result<Review, PostError> {
    let catalog = state.catalog.get();
    let product = reviewed_product(&catalog, request.product).ok_or(PostError::UnknownProduct)?;
    let settings = &state.config.reviews;
    let poster = match author {
        Author::Guest { .. } => Poster::Guest,
        Author::Account { .. } => Poster::Account,
    };
    let parsed = posting::parse(&request.sent, poster, settings).map_err(PostError::Problem)?;
    let (customer, name, email, key, session_key) = match (author, &parsed.guest) {
        (
            Author::Account {
                id, name, email, ..
            },
            _,
        ) => (
            Some(*id),
            name.clone(),
            email.clone(),
            AuthorKey::customer(*id),
            None,
        ),
        (Author::Guest { session_key }, Some(guest)) => (
            None,
            guest.name.clone(),
            guest.email.as_str().to_string(),
            AuthorKey::guest(&guest.email),
            Some(session_key.clone()),
        ),
        (Author::Guest { .. }, None) => return Err(PostError::Problem(ReviewProblem::NameMissing)),
    };
    // Counted before anything is looked up or written.
    let limits = rate_limit::limits(Action::Review, Some(key.as_str()), ctx.client);
    if let Err(limited) = rate_limit::attempt(&state.db, Action::Review, &limits, ctx.now).await? {
        return Err(PostError::Limited(limited));
    }
    let depth = match request.parent {
        None => 1,
        Some(parent) => {
            let found = store::reviews::find(&state.db, parent).await?;
            posting::reply_depth(found.as_ref(), product.id).map_err(PostError::Parent)?
        }
    };
    let reply = request.parent.is_some();
    let verified = bought(state, customer, &email, product.id).await?;
    let already_reviewed =
        !reply && store::reviews::has_reviewed(&state.db, product.id, &key).await?;
    moderation::may_post(
        &Eligibility {
            open: is_open(state, product),
            poster: author.kind(),
            verified_owner: verified,
            already_reviewed,
            reply,
        },
        settings,
    )
    .map_err(PostError::Refused)?;
    let status = moderation::initial_status(
        &Posting {
            poster: author.kind(),
            honeypot_filled: parsed.honeypot_filled,
            text: parsed.text.as_str(),
            author_name: &name,
        },
        settings,
    );
    let new = NewReview {
        product_id: product.id,
        parent_id: request.parent,
        depth,
        customer_id: customer,
        author_name: &name,
        author_email: &email,
        author_key: &key,
        session_key: session_key.as_deref(),
        content: parsed.text.as_str(),
        rating: parsed.rating,
        status,
        verified,
        is_staff: author.kind() == PosterKind::Staff,
        created_at: ctx.now,
    };
    let mut tx = store::reviews::begin_change(&state.db, product.id).await?;
    if author.kind() != PosterKind::Staff {
        store::reviews::hold_author(&mut tx, &state.db, &key).await?;
        if let Some(last) = store::reviews::last_post_at(&mut tx, &key).await? {
            let wait = last + FLOOD_SECS - ctx.now;
            if wait > 0 {
                return Err(PostError::Flood {
                    retry_after_secs: wait,
                });
            }
        }
    }
    let id = match store::reviews::insert(&mut tx, &new).await? {
        Stored::Review(id) => id,
        Stored::AlreadyReviewed => return Err(PostError::Refused(Refusal::AlreadyReviewed)),
    };
    if status == ReviewStatus::Approved && !reply {
        store::reviews::recompute(&mut tx, product.id).await?;
    }
    tx.commit().await.map_err(StoreError::from)?;
    let is_staff = new.is_staff;
    Ok(Review {
        id,
        product_id: product.id,
        parent_id: request.parent,
        depth,
        customer_id: customer,
        author_name: name,
        author_email: email,
        content: parsed.text.as_str().to_string(),
        rating: parsed.rating,
        status,
        verified,
        is_staff,
        created_at: ctx.now,
    })
}

/// Why a staff change to a review was not made.
#[derive(Debug)]
pub enum StaffError {
    NotFound,
    UnknownProduct,
    Problem(ReviewProblem),
    Parent(ParentProblem),
    AlreadyReviewed,
    /// `DELETE` without `force` on a review already in the trash.
    AlreadyTrashed,
    Store(StoreError),
}

impl From<StoreError> for StaffError {
    fn from(e: StoreError) -> Self {
        StaffError::Store(e)
    }
}

impl From<StaffError> for ApiError {
    fn from(e: StaffError) -> Self {
        match e {
            StaffError::NotFound => ApiError::new(
                StatusCode::NOT_FOUND,
                "woocommerce_rest_review_invalid_id",
                "Invalid review ID.",
            ),
            StaffError::UnknownProduct => unknown_product(),
            StaffError::Problem(ReviewProblem::TextMissing) => ApiError::new(
                StatusCode::BAD_REQUEST,
                "woocommerce_rest_review_content_invalid",
                "Invalid review content.",
            ),
            StaffError::Problem(p) => ApiError::new(StatusCode::BAD_REQUEST, p.code(), p.message())
                .with_data("param", json!(p.field())),
            StaffError::Parent(p) => ApiError::new(StatusCode::BAD_REQUEST, p.code(), p.message())
                .with_data("param", json!("parent")),
            StaffError::AlreadyReviewed => ApiError::new(
                StatusCode::CONFLICT,
                "ferroshop_review_exists",
                "This reviewer has already reviewed this product.",
            ),
            StaffError::AlreadyTrashed => ApiError::new(
                StatusCode::GONE,
                "woocommerce_rest_already_trashed",
                "The object has already been trashed.",
            ),
            StaffError::Store(e) => e.into(),
        }
    }
}

/// A review staff enter by API key (a review, or with `parent` a reply).
pub struct StaffPost {
    pub product: ProductId,
    pub parent: Option<ReviewId>,
    pub text: String,
    pub reviewer: String,
    pub reviewer_email: String,
    pub rating: Option<Rating>,
    pub status: ReviewStatus,
    pub now: i64,
}

/// Stores a review staff entered: no sign-in, bought-it or flood rules, but one review
/// per reviewer and product, and a reply's parent as for anyone.
pub async fn staff_create(state: &AppState, p: &StaffPost) -> Result<Review, StaffError> {
    let catalog = state.catalog.get();
    let product = catalog
        .product(p.product)
        .filter(|x| x.kind != ProductKind::Variation)
        .ok_or(StaffError::UnknownProduct)?;
    let text = posting::ReviewText::parse(&p.text).map_err(StaffError::Problem)?;
    let guest = posting::guest_author(Some(&p.reviewer), Some(&p.reviewer_email))
        .map_err(StaffError::Problem)?;
    let depth = match p.parent {
        None => 1,
        Some(parent) => {
            let found = store::reviews::find(&state.db, parent).await?;
            posting::reply_depth(found.as_ref(), product.id).map_err(StaffError::Parent)?
        }
    };
    let rating = if p.parent.is_some() { None } else { p.rating };
    let key = AuthorKey::guest(&guest.email);
    let email = guest.email.as_str().to_string();
    let verified = bought(state, None, &email, product.id).await?;
    let new = NewReview {
        product_id: product.id,
        parent_id: p.parent,
        depth,
        customer_id: None,
        author_name: &guest.name,
        author_email: &email,
        author_key: &key,
        session_key: None,
        content: text.as_str(),
        rating,
        status: p.status,
        verified,
        is_staff: true,
        created_at: p.now,
    };
    let mut tx = store::reviews::begin_change(&state.db, product.id).await?;
    let id = match store::reviews::insert(&mut tx, &new).await? {
        Stored::Review(id) => id,
        Stored::AlreadyReviewed => return Err(StaffError::AlreadyReviewed),
    };
    if p.parent.is_none() {
        store::reviews::recompute(&mut tx, product.id).await?;
    }
    tx.commit().await.map_err(StoreError::from)?;
    store::reviews::find(&state.db, id)
        .await?
        .ok_or(StaffError::NotFound)
}

/// What staff change on a review (`None`: left as it is).
#[derive(Debug, Default)]
pub struct StaffEdit {
    pub status: Option<ReviewStatus>,
    pub text: Option<String>,
    pub rating: Option<Rating>,
    pub reviewer: Option<String>,
    pub reviewer_email: Option<String>,
}

/// Changes a review's status, text, rating or author, and the product's figures with
/// them.
pub async fn staff_edit(
    state: &AppState,
    id: ReviewId,
    edit: &StaffEdit,
) -> Result<Review, StaffError> {
    let found = store::reviews::find(&state.db, id)
        .await?
        .ok_or(StaffError::NotFound)?;
    let text = edit
        .text
        .as_deref()
        .map(posting::ReviewText::parse)
        .transpose()
        .map_err(StaffError::Problem)?;
    let author = match (&edit.reviewer, &edit.reviewer_email) {
        (None, None) => None,
        (name, email) => Some(
            posting::guest_author(
                Some(name.as_deref().unwrap_or(&found.author_name)),
                Some(email.as_deref().unwrap_or(&found.author_email)),
            )
            .map_err(StaffError::Problem)?,
        ),
    };
    if edit.rating.is_some() && !found.is_top_level() {
        return Err(StaffError::Problem(ReviewProblem::RatingOnReply));
    }
    let mut tx = store::reviews::begin_change(&state.db, found.product_id).await?;
    let review = store::reviews::find_in(&mut tx, id)
        .await?
        .ok_or(StaffError::NotFound)?;
    if text.is_some() || edit.rating.is_some() {
        let content = text
            .as_ref()
            .map_or(review.content.as_str(), |t| t.as_str());
        store::reviews::edit(&mut tx, id, content, edit.rating.or(review.rating)).await?;
    }
    if let Some(author) = &author {
        store::reviews::rename(&mut tx, id, &author.name, author.email.as_str()).await?;
    }
    if let Some(to) = edit.status {
        store::reviews::set_status(&mut tx, &review, to).await?;
    }
    if review.is_top_level() {
        store::reviews::recompute(&mut tx, review.product_id).await?;
    }
    tx.commit().await.map_err(StoreError::from)?;
    store::reviews::find(&state.db, id)
        .await?
        .ok_or(StaffError::NotFound)
}

/// `DELETE`: moves a review to the trash, or with `force` deletes it for good with
/// the replies under it. Returns the review as it was before.
pub async fn staff_delete(
    state: &AppState,
    id: ReviewId,
    force: bool,
) -> Result<Review, StaffError> {
    let found = store::reviews::find(&state.db, id)
        .await?
        .ok_or(StaffError::NotFound)?;
    let mut tx = store::reviews::begin_change(&state.db, found.product_id).await?;
    let review = store::reviews::find_in(&mut tx, id)
        .await?
        .ok_or(StaffError::NotFound)?;
    if force {
        let gone = store::reviews::with_replies(&mut tx, id).await?;
        store::reviews::delete(&mut tx, &gone).await?;
    } else {
        if review.status == ReviewStatus::Trash {
            return Err(StaffError::AlreadyTrashed);
        }
        store::reviews::set_status(&mut tx, &review, ReviewStatus::Trash).await?;
    }
    if review.is_top_level() {
        store::reviews::recompute(&mut tx, review.product_id).await?;
    }
    tx.commit().await.map_err(StoreError::from)?;
    Ok(review)
}
