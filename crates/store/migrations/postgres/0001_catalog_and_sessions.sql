-- Catalogue, sessions and shop settings. Integers are 64-bit everywhere so the same
-- queries decode alike on SQLite and PostgreSQL; money is integer minor units.

-- Shop-wide values: the signing secret for nonces, cookies and cart tokens, and the
-- catalogue version that tells every server instance to reload its catalogue cache.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE media (
    id        BIGINT PRIMARY KEY,
    file_name TEXT NOT NULL UNIQUE,
    mime_type TEXT NOT NULL,
    width     BIGINT NOT NULL,
    height    BIGINT NOT NULL,
    alt       TEXT NOT NULL DEFAULT '',
    caption   TEXT NOT NULL DEFAULT '',
    body      BYTEA NOT NULL
);

CREATE TABLE categories (
    id          BIGINT PRIMARY KEY,
    parent_id   BIGINT REFERENCES categories (id),
    name        TEXT NOT NULL,
    slug        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    menu_order  BIGINT NOT NULL DEFAULT 0,
    image_id    BIGINT REFERENCES media (id)
);

CREATE TABLE brands (
    id          BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    slug        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    image_id    BIGINT REFERENCES media (id)
);

CREATE TABLE tags (
    id   BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE
);

CREATE TABLE attributes (
    id       BIGINT PRIMARY KEY,
    name     TEXT NOT NULL,
    taxonomy TEXT NOT NULL UNIQUE
);

CREATE TABLE attribute_terms (
    id           BIGINT PRIMARY KEY,
    attribute_id BIGINT NOT NULL REFERENCES attributes (id),
    name         TEXT NOT NULL,
    slug         TEXT NOT NULL,
    position     BIGINT NOT NULL,
    UNIQUE (attribute_id, slug)
);

-- Products and the variations of variable products share one id space, as in the
-- original shop, so a variation id can be added to the cart like any product id.
CREATE TABLE products (
    id                  BIGINT PRIMARY KEY,
    parent_id           BIGINT REFERENCES products (id),
    kind                TEXT NOT NULL CHECK (kind IN ('simple', 'variable', 'external', 'variation')),
    name                TEXT NOT NULL,
    slug                TEXT NOT NULL UNIQUE,
    sku                 TEXT NOT NULL DEFAULT '',
    short_description   TEXT NOT NULL DEFAULT '',
    description         TEXT NOT NULL DEFAULT '',
    menu_order          BIGINT NOT NULL DEFAULT 0,
    created_at          BIGINT NOT NULL,
    featured            BIGINT NOT NULL DEFAULT 0,
    regular_price       BIGINT,
    sale_price          BIGINT,
    manage_stock        BIGINT NOT NULL DEFAULT 0,
    stock_quantity      BIGINT,
    stock_status        TEXT NOT NULL DEFAULT 'instock' CHECK (stock_status IN ('instock', 'outofstock', 'onbackorder')),
    backorders          TEXT NOT NULL DEFAULT 'no' CHECK (backorders IN ('no', 'notify', 'yes')),
    low_stock_amount    BIGINT,
    min_quantity        BIGINT NOT NULL DEFAULT 1 CHECK (min_quantity >= 1),
    max_quantity        BIGINT,
    sold_individually   BIGINT NOT NULL DEFAULT 0,
    weight_grams        BIGINT,
    length_mm           BIGINT,
    width_mm            BIGINT,
    height_mm           BIGINT,
    external_url        TEXT NOT NULL DEFAULT '',
    button_text         TEXT NOT NULL DEFAULT '',
    rating_average_x100 BIGINT NOT NULL DEFAULT 0,
    review_count        BIGINT NOT NULL DEFAULT 0,
    total_sales         BIGINT NOT NULL DEFAULT 0,
    -- A variation's chosen attribute values, JSON [{"attribute":"pa_color","value":"navy"}].
    variation           TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX products_parent ON products (parent_id);
-- SKUs are optional, but two products may not share one.
CREATE UNIQUE INDEX products_sku ON products (sku) WHERE sku <> '';

CREATE TABLE product_images (
    product_id BIGINT NOT NULL REFERENCES products (id),
    media_id   BIGINT NOT NULL REFERENCES media (id),
    position   BIGINT NOT NULL,
    PRIMARY KEY (product_id, position)
);

CREATE TABLE product_categories (
    product_id  BIGINT NOT NULL REFERENCES products (id),
    category_id BIGINT NOT NULL REFERENCES categories (id),
    position    BIGINT NOT NULL,
    PRIMARY KEY (product_id, category_id)
);

CREATE TABLE product_brands (
    product_id BIGINT NOT NULL REFERENCES products (id),
    brand_id   BIGINT NOT NULL REFERENCES brands (id),
    position   BIGINT NOT NULL,
    PRIMARY KEY (product_id, brand_id)
);

CREATE TABLE product_tags (
    product_id BIGINT NOT NULL REFERENCES products (id),
    tag_id     BIGINT NOT NULL REFERENCES tags (id),
    position   BIGINT NOT NULL,
    PRIMARY KEY (product_id, tag_id)
);

CREATE TABLE product_attributes (
    product_id          BIGINT NOT NULL REFERENCES products (id),
    position            BIGINT NOT NULL,
    attribute_id        BIGINT REFERENCES attributes (id),
    name                TEXT NOT NULL,
    -- JSON list of term slugs (global attribute) or values (custom attribute).
    attr_values         TEXT NOT NULL,
    visible             BIGINT NOT NULL DEFAULT 1,
    used_for_variations BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (product_id, position)
);

-- A shopper's session: the cart and, later, addresses and the logged-in customer.
-- `version` increases with every write so concurrent updates never overwrite each other.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    customer_id BIGINT,
    cart        TEXT NOT NULL,
    version     BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX sessions_expires ON sessions (expires_at);
