-- Product reviews and the replies to them, one table as the original keeps its
-- comments. A review (no parent) may carry a rating; a reply never does. The
-- product's `review_count` and `rating_average_x100` are recomputed from this table
-- in the transaction of every change that moves them.
CREATE TABLE product_reviews (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id   INTEGER NOT NULL REFERENCES products (id),
    parent_id    INTEGER REFERENCES product_reviews (id),
    -- 1 for a review, 2 for a reply to it, … (at most 5).
    depth        INTEGER NOT NULL CHECK (depth BETWEEN 1 AND 5),
    -- The account that wrote it; NULL for a guest (or what staff entered by key).
    customer_id  INTEGER,
    author_name  TEXT NOT NULL,
    author_email TEXT NOT NULL,
    -- Whose review it is for "one per customer per product": 'customer:ID' or
    -- 'email:ADDRESS' (lowercased).
    author_key   TEXT NOT NULL,
    -- SHA-256 of a guest's session, so the guest sees their own review while it waits.
    session_key  TEXT,
    content      TEXT NOT NULL,
    rating       INTEGER CHECK (rating BETWEEN 1 AND 5),
    status       TEXT NOT NULL CHECK (status IN ('approved', 'hold', 'spam', 'trash')),
    verified     INTEGER NOT NULL DEFAULT 0,
    is_staff     INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    CHECK (rating IS NULL OR parent_id IS NULL)
);

-- One review (not reply) per customer, or per e-mail address for guests, per product.
CREATE UNIQUE INDEX product_reviews_one_per_author ON product_reviews (product_id, author_key)
    WHERE parent_id IS NULL;
-- A product's reviews by status, newest first: its page, its figures, staff lists.
CREATE INDEX product_reviews_by_product ON product_reviews (product_id, status, created_at, id);
-- The replies to a review.
CREATE INDEX product_reviews_by_parent ON product_reviews (parent_id) WHERE parent_id IS NOT NULL;
-- An author's reviews, newest first: the flood rule, their own reviews waiting.
CREATE INDEX product_reviews_by_author ON product_reviews (author_key, created_at);
CREATE INDEX product_reviews_by_session ON product_reviews (session_key, created_at)
    WHERE session_key IS NOT NULL;
-- Reviews of one status, newest first (staff lists; the approved ones are also every
-- shown review by date, for the Store API's listing without a product), all of them,
-- and the shown ones by rating. One partial index per status rather than one on
-- (status, …): it serves each list and never looks better to the planner than the
-- index made for another.
CREATE INDEX product_reviews_approved ON product_reviews (created_at, id) WHERE status = 'approved';
CREATE INDEX product_reviews_held ON product_reviews (created_at, id) WHERE status = 'hold';
CREATE INDEX product_reviews_spam ON product_reviews (created_at, id) WHERE status = 'spam';
CREATE INDEX product_reviews_trashed ON product_reviews (created_at, id) WHERE status = 'trash';
CREATE INDEX product_reviews_by_date ON product_reviews (created_at, id);
CREATE INDEX product_reviews_shown_by_rating ON product_reviews (COALESCE(rating, 0), created_at, id)
    WHERE status = 'approved' AND parent_id IS NULL;

-- How many reviews each status holds (replies included), and 'shown': approved
-- reviews without a parent. Moved in the transaction of every change, so a listing's
-- total never counts rows.
CREATE TABLE review_counts (
    name    TEXT PRIMARY KEY,
    reviews INTEGER NOT NULL DEFAULT 0
);
INSERT INTO review_counts (name, reviews) VALUES
    ('shown', 0), ('approved', 0), ('hold', 0), ('spam', 0), ('trash', 0);

-- Whether a customer bought a product: their paid orders (processing or completed),
-- by account or by billing address, without reading anyone else's.
CREATE INDEX orders_paid_by_customer ON orders (customer_id)
    WHERE status IN ('processing', 'completed');
CREATE INDEX orders_paid_by_email ON orders (billing_email)
    WHERE status IN ('processing', 'completed');
-- Reviews of a category's products (the Store API's category_id).
CREATE INDEX product_categories_by_category ON product_categories (category_id, product_id);
-- The few products that are not published, whose reviews a listing leaves out.
CREATE INDEX products_not_published ON products (status) WHERE status <> 'publish';
