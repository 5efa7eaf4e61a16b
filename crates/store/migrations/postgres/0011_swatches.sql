-- Variation swatches: how a product page offers an attribute's terms (a drop-down,
-- or swatches of colours, images or names), and each term's colour and picture.
ALTER TABLE attributes ADD COLUMN swatch_type TEXT NOT NULL DEFAULT 'select';
ALTER TABLE attribute_terms ADD COLUMN swatch_color TEXT NOT NULL DEFAULT '';
ALTER TABLE attribute_terms ADD COLUMN swatch_image_id BIGINT;
