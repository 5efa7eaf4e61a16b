-- Catalogue, sessions and shop settings. Integers are 64-bit everywhere so the same
-- queries decode alike on SQLite and PostgreSQL; money is integer minor units.

-- Shop-wide values: the signing secret for nonces, cookies and cart tokens, and the
-- catalogue version that tells every server instance to reload its catalogue cache.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE media (
    id        INTEGER PRIMARY KEY,
    file_name TEXT NOT NULL UNIQUE,
    mime_type TEXT NOT NULL,
    width     INTEGER NOT NULL,
    height    INTEGER NOT NULL,
    alt       TEXT NOT NULL DEFAULT '',
    caption   TEXT NOT NULL DEFAULT '',
    body      BLOB NOT NULL
);

CREATE TABLE categories (
    id          INTEGER PRIMARY KEY,
    parent_id   INTEGER REFERENCES categories (id),
    name        TEXT NOT NULL,
    slug        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    menu_order  INTEGER NOT NULL DEFAULT 0,
    image_id    INTEGER REFERENCES media (id)
);

CREATE TABLE brands (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    slug        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    image_id    INTEGER REFERENCES media (id)
);

CREATE TABLE tags (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE
);

CREATE TABLE attributes (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    taxonomy TEXT NOT NULL UNIQUE
);

CREATE TABLE attribute_terms (
    id           INTEGER PRIMARY KEY,
    attribute_id INTEGER NOT NULL REFERENCES attributes (id),
    name         TEXT NOT NULL,
    slug         TEXT NOT NULL,
    position     INTEGER NOT NULL,
    UNIQUE (attribute_id, slug)
);

-- Products and the variations of variable products share one id space, as in the
-- original shop, so a variation id can be added to the cart like any product id.
CREATE TABLE products (
    id                  INTEGER PRIMARY KEY,
    parent_id           INTEGER REFERENCES products (id),
    kind                TEXT NOT NULL CHECK (kind IN ('simple', 'variable', 'external', 'variation')),
    name                TEXT NOT NULL,
    slug                TEXT NOT NULL UNIQUE,
    sku                 TEXT NOT NULL DEFAULT '',
    short_description   TEXT NOT NULL DEFAULT '',
    description         TEXT NOT NULL DEFAULT '',
    menu_order          INTEGER NOT NULL DEFAULT 0,
    created_at          INTEGER NOT NULL,
    featured            INTEGER NOT NULL DEFAULT 0,
    regular_price       INTEGER,
    sale_price          INTEGER,
    manage_stock        INTEGER NOT NULL DEFAULT 0,
    stock_quantity      INTEGER,
    stock_status        TEXT NOT NULL DEFAULT 'instock' CHECK (stock_status IN ('instock', 'outofstock', 'onbackorder')),
    backorders          TEXT NOT NULL DEFAULT 'no' CHECK (backorders IN ('no', 'notify', 'yes')),
    low_stock_amount    INTEGER,
    min_quantity        INTEGER NOT NULL DEFAULT 1 CHECK (min_quantity >= 1),
    max_quantity        INTEGER,
    sold_individually   INTEGER NOT NULL DEFAULT 0,
    weight_grams        INTEGER,
    length_mm           INTEGER,
    width_mm            INTEGER,
    height_mm           INTEGER,
    external_url        TEXT NOT NULL DEFAULT '',
    button_text         TEXT NOT NULL DEFAULT '',
    rating_average_x100 INTEGER NOT NULL DEFAULT 0,
    review_count        INTEGER NOT NULL DEFAULT 0,
    total_sales         INTEGER NOT NULL DEFAULT 0,
    -- A variation's chosen attribute values, JSON [{"attribute":"pa_color","value":"navy"}].
    variation           TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX products_parent ON products (parent_id);
-- SKUs are optional, but two products may not share one.
CREATE UNIQUE INDEX products_sku ON products (sku) WHERE sku <> '';

CREATE TABLE product_images (
    product_id INTEGER NOT NULL REFERENCES products (id),
    media_id   INTEGER NOT NULL REFERENCES media (id),
    position   INTEGER NOT NULL,
    PRIMARY KEY (product_id, position)
);

CREATE TABLE product_categories (
    product_id  INTEGER NOT NULL REFERENCES products (id),
    category_id INTEGER NOT NULL REFERENCES categories (id),
    position    INTEGER NOT NULL,
    PRIMARY KEY (product_id, category_id)
);

CREATE TABLE product_brands (
    product_id INTEGER NOT NULL REFERENCES products (id),
    brand_id   INTEGER NOT NULL REFERENCES brands (id),
    position   INTEGER NOT NULL,
    PRIMARY KEY (product_id, brand_id)
);

CREATE TABLE product_tags (
    product_id INTEGER NOT NULL REFERENCES products (id),
    tag_id     INTEGER NOT NULL REFERENCES tags (id),
    position   INTEGER NOT NULL,
    PRIMARY KEY (product_id, tag_id)
);

CREATE TABLE product_attributes (
    product_id          INTEGER NOT NULL REFERENCES products (id),
    position            INTEGER NOT NULL,
    attribute_id        INTEGER REFERENCES attributes (id),
    name                TEXT NOT NULL,
    -- JSON list of term slugs (global attribute) or values (custom attribute).
    attr_values         TEXT NOT NULL,
    visible             INTEGER NOT NULL DEFAULT 1,
    used_for_variations INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (product_id, position)
);

-- A shopper's session: the cart and, later, addresses and the logged-in customer.
-- `version` increases with every write so concurrent updates never overwrite each other.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    customer_id INTEGER,
    cart        TEXT NOT NULL,
    version     INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);
CREATE INDEX sessions_expires ON sessions (expires_at);
