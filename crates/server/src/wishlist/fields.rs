//! A wishlist call's form fields, form-encoded or multipart, as (name, value) pairs in
//! their order, within `MAX_BODY` and `MAX_FIELDS`.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap};

use super::MAX_BODY;

/// The most fields one call may carry: a list's every item id and a product form.
const MAX_FIELDS: usize = rules::wishlist::MAX_ITEMS as usize + 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldsError {
    Unreadable,
    TooLarge,
}

pub struct Fields(pub Vec<(String, String)>);

impl Fields {
    pub fn one(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A trimmed field, empty when absent.
    pub fn text(&self, name: &str) -> &str {
        self.one(name).map(str::trim).unwrap_or_default()
    }

    /// Every value of `name[]` (and of `name`, which the plugin's client may send).
    pub fn all(&self, name: &str) -> Vec<&str> {
        let list = format!("{name}[]");
        self.0
            .iter()
            .filter(|(k, _)| *k == list || k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

pub fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

pub fn is_multipart(content_type: &str) -> bool {
    content_type.starts_with("multipart/form-data")
}

pub fn is_urlencoded(content_type: &str) -> bool {
    content_type.starts_with("application/x-www-form-urlencoded")
}

/// Reads a body of at most `MAX_BODY` bytes.
pub async fn read(headers: &HeaderMap, body: Body) -> Result<Fields, FieldsError> {
    let bytes = axum::body::to_bytes(body, MAX_BODY)
        .await
        .map_err(|_| FieldsError::TooLarge)?;
    parse(headers, bytes).await
}

/// The fields of a body already read.
pub async fn parse(headers: &HeaderMap, bytes: Bytes) -> Result<Fields, FieldsError> {
    if bytes.len() > MAX_BODY {
        return Err(FieldsError::TooLarge);
    }
    let raw_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if is_multipart(&raw_type.to_ascii_lowercase()) {
        let boundary = multer::parse_boundary(&raw_type).map_err(|_| FieldsError::Unreadable)?;
        let mut multipart = multer::Multipart::new(Body::from(bytes).into_data_stream(), boundary);
        let mut fields = Vec::new();
        while let Some(field) = multipart
            .next_field()
            .await
            .map_err(|_| FieldsError::Unreadable)?
        {
            let name = field.name().unwrap_or_default().to_string();
            let value = field.text().await.map_err(|_| FieldsError::Unreadable)?;
            fields.push((name, value));
            if fields.len() > MAX_FIELDS {
                return Err(FieldsError::TooLarge);
            }
        }
        return Ok(Fields(fields));
    }
    if bytes.iter().filter(|b| **b == b'&').count() >= MAX_FIELDS {
        return Err(FieldsError::TooLarge);
    }
    serde_urlencoded::from_bytes(&bytes)
        .map(Fields)
        .map_err(|_| FieldsError::Unreadable)
}

/// Whether a body (or its first `MAX_BODY` bytes) carries the add call's field
/// `tinv_wishlist_id`: a form-encoded pair of that name, or a multipart part of it.
pub fn names_wishlist_id(content_type: &str, head: &[u8]) -> bool {
    const NAME: &[u8] = b"tinv_wishlist_id";
    if is_multipart(content_type) {
        return contains(head, b"name=\"tinv_wishlist_id\"");
    }
    head.split(|b| *b == b'&').any(|pair| {
        pair.strip_prefix(NAME)
            .is_some_and(|rest| rest.is_empty() || rest[0] == b'=')
    })
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_add_call_is_told_by_its_field_alone() {
        let form = "application/x-www-form-urlencoded";
        assert!(names_wishlist_id(form, b"tinv_wishlist_id=&product_id=15"));
        assert!(names_wishlist_id(form, b"product_id=15&tinv_wishlist_id=7"));
        assert!(names_wishlist_id(form, b"tinv_wishlist_id"));
        assert!(!names_wishlist_id(
            form,
            b"tinv_wishlist_idx=1&add-to-cart=15"
        ));
        assert!(!names_wishlist_id(form, b"add-to-cart=15&quantity=1"));
        let multi = "multipart/form-data; boundary=x";
        assert!(names_wishlist_id(
            multi,
            b"--x\r\nContent-Disposition: form-data; name=\"tinv_wishlist_id\"\r\n\r\n\r\n--x--"
        ));
        assert!(!names_wishlist_id(
            multi,
            b"--x\r\nContent-Disposition: form-data; name=\"add-to-cart\"\r\n\r\n15\r\n--x--"
        ));
    }
}
