//! Product reviews (`reviews::api`, `reviews::forms`, `reviews::staff`): the Store
//! API's listing, a product page's threaded list and posting, the form without
//! scripts at the original's address, and the staff API's reviews.

use serde_json::{json, Map, Value};

use super::operation::Op;
use super::shapes::{array, boolean, input, integer, nullable, one_of, record, shape, string};
use super::staff_api::{links, staff, staff_write};
use crate::http::{FERROSHOP_API_ROOT, STAFF_API_ROOT, STORE_API_ROOT};

const REVIEWS: &str = "Reviews";

fn date() -> Value {
    json!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$"})
}

fn stars() -> Value {
    json!({"type": "integer", "minimum": 1, "maximum": 5})
}

fn avatars() -> Value {
    record(&[("24", string()), ("48", string()), ("96", string())])
}

fn page_review_members() -> Vec<(&'static str, Value)> {
    vec![
        ("id", integer()),
        ("parent", json!({"type": "integer", "minimum": 0})),
        (
            "depth",
            json!({"type": "integer", "minimum": 1, "maximum": 5}),
        ),
        ("author", string()),
        ("date", date()),
        ("formatted_date", string()),
        ("content", string()),
        ("rating", nullable(stars())),
        ("verified", boolean()),
        ("is_staff", boolean()),
    ]
}

/// The reviews' shapes, under `components/schemas`.
pub fn components() -> Map<String, Value> {
    let mut c = Map::new();
    c.insert(
        "StoreReview".into(),
        record(&[
            ("id", integer()),
            ("date_created", date()),
            ("formatted_date_created", string()),
            ("date_created_gmt", date()),
            ("product_id", integer()),
            ("product_name", string()),
            ("product_permalink", string()),
            ("product_image", nullable(shape("Image"))),
            ("reviewer", string()),
            ("review", string()),
            ("rating", nullable(stars())),
            ("verified", boolean()),
            ("reviewer_avatar_urls", avatars()),
        ]),
    );
    c.insert("PageReview".into(), record(&page_review_members()));
    let mut thread = page_review_members();
    thread.push(("replies", array(shape("ThreadReview"))));
    c.insert("ThreadReview".into(), record(&thread));
    let mut posted = page_review_members();
    posted.push(("product_id", integer()));
    posted.push(("status", one_of(&["approved", "hold"])));
    c.insert("PostedReview".into(), record(&posted));
    let reason = nullable(one_of(&[
        "closed",
        "must_log_in",
        "not_verified_owner",
        "already_reviewed",
    ]));
    let form = record(&[
        ("open", boolean()),
        ("ratings_enabled", boolean()),
        ("rating_required", boolean()),
        ("rating_required_text", string()),
        ("login_required", boolean()),
        ("verified_only", boolean()),
        ("show_verified_label", boolean()),
        ("max_depth", integer()),
        ("max_length", integer()),
        ("can_review", boolean()),
        ("cannot_review_reason", reason.clone()),
        ("cannot_review_message", nullable(string())),
        ("can_reply", boolean()),
        ("cannot_reply_reason", reason),
        ("cannot_reply_message", nullable(string())),
        ("signed_in_as", nullable(string())),
        ("nonce", string()),
        ("nonce_field", string()),
        ("honeypot_field", string()),
        ("form_action", string()),
    ]);
    c.insert(
        "ProductReviews".into(),
        record(&[
            ("product_id", integer()),
            ("enabled", boolean()),
            (
                "average_rating",
                json!({"type": "string", "pattern": "^(0|[0-5]\\.[0-9]{2})$"}),
            ),
            ("review_count", json!({"type": "integer", "minimum": 0})),
            ("rating_count", json!({"type": "integer", "minimum": 0})),
            (
                "rating_counts",
                array(record(&[
                    ("rating", stars()),
                    ("count", json!({"type": "integer", "minimum": 0})),
                ])),
            ),
            ("page", json!({"type": "integer", "minimum": 1})),
            ("total_pages", json!({"type": "integer", "minimum": 0})),
            ("per_page", json!({"type": "integer", "minimum": 1})),
            ("reviews", array(shape("ThreadReview"))),
            ("awaiting_moderation", array(shape("PageReview"))),
            ("form", form),
        ]),
    );
    c.insert(
        "V3Review".into(),
        record(&[
            ("id", integer()),
            ("date_created", date()),
            ("date_created_gmt", date()),
            ("product_id", integer()),
            ("product_name", string()),
            ("product_permalink", string()),
            ("status", one_of(&["approved", "hold", "spam", "trash"])),
            ("reviewer", string()),
            ("reviewer_email", string()),
            ("review", string()),
            (
                "rating",
                json!({"type": "integer", "minimum": 0, "maximum": 5}),
            ),
            ("verified", boolean()),
            ("reviewer_avatar_urls", avatars()),
            ("parent", json!({"type": "integer", "minimum": 0})),
            ("_links", links()),
        ]),
    );
    c
}

const PRODUCT_404: &str = "No published product (not a variation) has this id (`woocommerce_rest_product_invalid_id`), or the id is not a number (`rest_no_route`).";

pub fn operations() -> Vec<Op> {
    let mut ops = vec![store_list(), product_list(), post(), form()];
    ops.extend(staff_ops());
    ops
}

fn store_list() -> Op {
    Op::get(&format!("{STORE_API_ROOT}/products/reviews"), REVIEWS, "List product reviews")
        .describe("Approved reviews (not replies) of published products, as the original's Store API lists them: all of them, or those of `product_id` and of the products in `category_id` (with its subcategories). `review` is the text as HTML (escaped; paragraphs and line breaks only); `rating` is null for a review without one. `offset`, when given, takes the place of `page`.")
        .store_read()
        .query("product_id", string(), "Product ids, comma-separated or repeated as `product_id[]=` (at most 100).")
        .query("category_id", string(), "Category ids, comma-separated or repeated as `category_id[]=` (at most 100).")
        .query("page", json!({"type": "integer", "minimum": 1}), "Page number, from 1.")
        .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 100}), "Reviews per page (default 10).")
        .query("offset", json!({"type": "integer", "minimum": 0}), "Reviews to skip.")
        .query("order", one_of(&["asc", "desc"]), "Sort direction (default `desc`).")
        .query("orderby", one_of(&["date", "date_gmt", "id", "rating", "product"]), "Sort key (default `date`).")
        .query("context", one_of(&["view", "edit"]), "Accepted as the original takes it; the answer is the same.")
        .json(200, "The page of reviews.", array(shape("StoreReview")))
        .header(200, "X-WP-Total", true)
        .header(200, "X-WP-TotalPages", true)
        .header(200, "Link", false)
        .error(400, "A parameter is not of its type or range (`rest_invalid_param`, naming it in `data.params`).")
}

fn id_param(op: Op) -> Op {
    op.path_param(
        "id",
        json!({"type": "integer", "minimum": 1}),
        "The product.",
    )
}

fn product_list() -> Op {
    id_param(Op::get(&format!("{FERROSHOP_API_ROOT}/products/{{id}}/reviews"), REVIEWS, "Get a product page's reviews"))
        .describe("A page of the product's approved reviews (not replies), newest first (`per_page` from the shop's settings), each with its approved replies nested at any depth, oldest first; the figures (`average_rating` as the Store API writes it, `review_count`, `rating_count`, reviews per star from 5 down to 1); the viewer's own reviews and replies still waiting for staff; and what the review form needs: the shop's settings, whether this viewer may review or reply and why not (`closed`, `must_log_in`, `not_verified_owner`, `already_reviewed`), and the session's nonce. With reviews off (`enabled: false`) no reviews are listed.")
        .store_read()
        .query("cpage", json!({"type": "integer", "minimum": 1}), "The page of reviews, from 1 (newest first).")
        .json(200, "The product's reviews.", shape("ProductReviews"))
        .error(400, "`cpage` is not a whole number from 1 (`rest_invalid_param`).")
        .error(404, PRODUCT_404)
}

fn post() -> Op {
    id_param(Op::post(&format!("{FERROSHOP_API_ROOT}/products/{{id}}/reviews"), REVIEWS, "Post a review or a reply"))
        .describe("`review` (the text, at most 5,000 characters), `rating` (1 to 5 stars; required on a review when the shop requires ratings, never on a reply), `parent` (the id of a shown review of this product to reply to; 0 or absent for a review), and for a guest `reviewer` (name) and `reviewer_email`; a signed-in customer writes under their account. `website` is a field people never see: a form sends it empty. A customer has one review (not reply) per product; replies nest at most 5 levels. Guests' reviews, and any with two links or more, wait for staff (`status: hold`); reviews by signed-in staff are shown at once. Posts are counted per client address and per author (10 an hour per author, 20 per address), and one author may not post twice within 15 seconds.")
        .store_write()
        .body_with_example(
            input(&[
                ("review", string()),
                ("rating", json!({"type": ["integer", "string", "null"]})),
                ("parent", json!({"type": ["integer", "string"]})),
                ("reviewer", string()),
                ("reviewer_email", string()),
                ("website", string()),
            ], &[]),
            json!({"review": "Warm and soft.", "rating": 5, "reviewer": "Ada", "reviewer_email": "ada@example.com"}),
        )
        .json(201, "The review, and whether it is shown (`approved`) or waits for staff (`hold`).", shape("PostedReview"))
        .error(400, "A problem with what was sent, naming the field in `data.param`: `ferroshop_review_text_missing`, `_text_too_long`, `_name_missing`, `_name_too_long`, `_email_missing`, `_email_too_long`, `_email_invalid`, `_rating_missing`, `_rating_invalid`, `_rating_on_reply`; or with `parent`: `ferroshop_review_parent_missing`, `_parent_other_product`, `_parent_not_shown`, `_parent_too_deep`; or a field of the wrong type (`rest_invalid_param`).")
        .error(403, "Reviews are closed (`ferroshop_reviews_closed`), guests must sign in (`ferroshop_review_login_required`), or only customers who bought the product may post (`ferroshop_review_verified_owners_only`); `data.reason` says which (`closed`, `must_log_in`, `not_verified_owner`).")
        .error(404, PRODUCT_404)
        .error(409, "The author already reviewed this product (`ferroshop_review_exists`).")
        .rate_limited("The author posted less than 15 seconds ago (`woocommerce_rest_comment_flood`: \"You are posting comments too quickly. Slow down.\"), or too many posts came from this author or address (`ferroshop_too_many_attempts`).")
}

fn form() -> Op {
    Op::post("/wp-comments-post.php", REVIEWS, "Post a review from the form without scripts")
        .describe("The original's address and fields: `comment_post_ID` (the product), `comment`, `rating`, `author` and `email` (a guest's), `comment_parent` (0 or the review replied to), `website` (left empty), and `ferroshop-review-nonce`: the session's Store API nonce (the page settings' `store_api_nonce`). The same rules as the call. Answers 303 to the product page: at the review (`/product/SLUG/#comment-ID`; one that waits for staff is listed to its author as awaiting approval), or back with the problem's code (`/product/SLUG/?review_error=CODE#reviews`, the codes of the call, plus `ferroshop_review_form_expired` for a nonce that is not this session's), which the page shows as a notice. A browser's cross-site post is refused.")
        .form(input(&[
            ("comment_post_ID", json!({"type": ["integer", "string"]})),
            ("comment", string()),
            ("rating", json!({"type": ["integer", "string"]})),
            ("author", string()),
            ("email", string()),
            ("comment_parent", json!({"type": ["integer", "string"]})),
            ("website", string()),
            ("ferroshop-review-nonce", string()),
        ], &[]))
        .empty(303, "Back to the product page: at the review, or with `review_error`.")
        .header(303, "Location", true)
        .html(400, "The form could not be read, or the request names a host the shop does not answer for.")
        .html(403, "A browser said the form came from another site (`ferroshop_cross_site_request`).")
        .html(404, "No published product has the id in `comment_post_ID`.")
        .html(413, "The form is larger than the shop takes.")
}

const NO_REVIEW: &str = "No review has this id (`woocommerce_rest_review_invalid_id`), or the id is not a number (`rest_no_route`).";

fn staff_path(p: &str) -> String {
    format!("{STAFF_API_ROOT}{p}")
}

fn review_id(op: Op) -> Op {
    op.path_param(
        "id",
        json!({"type": "integer", "minimum": 1}),
        "The review's id.",
    )
}

fn staff_ops() -> Vec<Op> {
    let context = one_of(&["view", "edit"]);
    let status = one_of(&["approved", "hold", "spam", "trash", "unspam", "untrash"]);
    let edit = input(
        &[
            ("status", status),
            ("review", string()),
            ("rating", json!({"type": ["integer", "string"]})),
            ("reviewer", string()),
            ("reviewer_email", string()),
            ("id", json!({"type": ["integer", "string"]})),
        ],
        &[],
    );
    let mut ops = vec![
        staff(Op::get(&staff_path("/products/reviews"), REVIEWS, "List reviews (staff)"))
            .describe("Reviews and replies of a status (`approved` by default; `all` is approved and held, `any` every status), of some products, newest first. `review` is HTML in the `view` context and the stored text in `edit`; `parent` (this shop's addition) is the review a reply answers, 0 for a review.")
            .query("page", json!({"type": "integer", "minimum": 1}), "Page number, from 1.")
            .query("per_page", json!({"type": "integer", "minimum": 1, "maximum": 100}), "Reviews per page (default 10).")
            .query("offset", json!({"type": "integer", "minimum": 0}), "Reviews to skip (instead of `page`).")
            .query("status", one_of(&["all", "any", "approved", "hold", "spam", "trash"]), "Which reviews (default `approved`).")
            .query("product", string(), "Product ids, comma-separated or `product[]=` (at most 100).")
            .query("order", one_of(&["asc", "desc"]), "Oldest or newest first (default `desc`).")
            .query("orderby", one_of(&["date", "date_gmt", "id", "product"]), "What the order follows (default `date_gmt`).")
            .query("context", context.clone(), "`view` (default) or `edit`.")
            .json(200, "A page of reviews.", array(shape("V3Review")))
            .header(200, "X-WP-Total", true)
            .header(200, "X-WP-TotalPages", true),
        review_id(staff(Op::get(&staff_path("/products/reviews/{id}"), REVIEWS, "Get a review (staff)")))
            .query("context", context, "`view` (default) or `edit`.")
            .json(200, "The review.", shape("V3Review"))
            .error(404, NO_REVIEW),
        staff_write(
            Op::post(&staff_path("/products/reviews"), REVIEWS, "Enter a review (staff)"),
            input(
                &[
                    ("product_id", json!({"type": ["integer", "string"]})),
                    ("review", string()),
                    ("reviewer", string()),
                    ("reviewer_email", string()),
                    ("rating", json!({"type": ["integer", "string"]})),
                    ("status", one_of(&["approved", "hold", "spam", "trash"])),
                    ("parent", json!({"type": ["integer", "string"]})),
                ],
                &["product_id", "review", "reviewer", "reviewer_email"],
            ),
        )
        .describe("A review (or, with `parent`, a reply: this shop's addition) by `reviewer` <`reviewer_email`>, marked as the staff's; `status` defaults to `approved`, `rating` 0 (none) to 5. One review per reviewer address and product.")
        .json(201, "The review (`edit` context).", shape("V3Review"))
        .header(201, "Cache-Control", true)
        .header(201, "Location", false)
        .error(400, "A required field is missing (`rest_missing_callback_param`), the text is empty (`woocommerce_rest_review_content_invalid`), the reviewer's name or address is not valid, `parent` cannot be answered, or `id` was sent (`woocommerce_rest_review_exists`).")
        .error(404, "No product has `product_id` (`woocommerce_rest_product_invalid_id`).")
        .error(409, "This reviewer already reviewed this product (`ferroshop_review_exists`)."),
        review_id(staff_write(
            Op::new("delete", &staff_path("/products/reviews/{id}"), REVIEWS, "Trash or delete a review (staff)"),
            input(&[("force", json!({"type": ["boolean", "string", "integer"]}))], &[]),
        ))
        .query("force", json!({"type": ["boolean", "string"]}), "`true` deletes the review, and the replies under it, for good.")
        .describe("Moves the review to the trash (it can come back with `status: untrash`), or with `force=true` deletes it and the replies under it for good. The product's figures follow.")
        .json(200, "The review in the trash, or `{deleted: true, previous}` (`edit` context).", json!({"anyOf": [shape("V3Review"), record(&[("deleted", json!({"const": true})), ("previous", shape("V3Review"))])]}))
        .error(404, NO_REVIEW)
        .error(410, "The review is already in the trash (`woocommerce_rest_already_trashed`)."),
    ];
    for method in ["put", "post", "patch"] {
        ops.push(
            review_id(staff_write(
                Op::new(method, &staff_path("/products/reviews/{id}"), REVIEWS, "Change a review (staff)"),
                edit.clone(),
            ))
            .describe("Moderates (`status`: `approved`, `hold`, `spam`, `trash`; `unspam` and `untrash` bring it back to wait for staff) and edits (`review`, `rating` 0 to 5 on a review, `reviewer`, `reviewer_email`) a review; the product's figures follow. Any other field is refused with a 400 naming it.")
            .json(200, "The review as it now is (`edit` context).", shape("V3Review"))
            .error(400, "A field this call does not take, a value out of range, an empty text (`woocommerce_rest_review_content_invalid`), or a rating on a reply.")
            .error(404, NO_REVIEW),
        );
    }
    ops
}
