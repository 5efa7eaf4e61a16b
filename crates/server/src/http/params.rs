//! Request parameters as the original shop reads them: a JSON object or a form body
//! (with PHP-style `a[0][b]=c` nesting). Writes never take fields from the query
//! string, so a link cannot stand in for a form. A body that cannot be read is an
//! error, never an empty form. Every value is untrusted; the typed getters turn a bad
//! one into the Store API's error shape.

use axum::body::{to_bytes, Body};
use axum::http::{header, HeaderMap};
use serde_json::{Map, Value};

use crate::error::ApiError;

pub struct Params(pub Map<String, Value>);

impl Params {
    /// Reads the body (at most `limit` bytes).
    pub async fn read(headers: &HeaderMap, body: Body, limit: usize) -> Result<Self, ApiError> {
        let bytes = to_bytes(body, limit).await.map_err(|_| too_large(limit))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(Map::new()));
        }
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if content_type.starts_with("application/x-www-form-urlencoded") {
            let text = std::str::from_utf8(&bytes).map_err(|_| invalid_form())?;
            return parse_form(text).map(Self).map_err(|_| invalid_form());
        }
        // The original treats any other body as JSON.
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(m)) => Ok(Self(m)),
            Ok(_) | Err(_) => Err(ApiError::invalid_json()),
        }
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    /// An integer parameter; JSON numbers and numeric strings are accepted, as WordPress does.
    pub fn int(&self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => as_int(v)
                .map(Some)
                .ok_or_else(|| ApiError::not_integer(name)),
        }
    }

    pub fn string(&self, name: &str) -> Result<Option<String>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(_) => Err(ApiError::invalid_param(
                name,
                format!("{name} is not of type string."),
                "rest_invalid_type",
            )),
        }
    }
}

pub fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::PAYLOAD_TOO_LARGE,
        "rest_request_too_large",
        format!("The request body is larger than {limit} bytes."),
    )
}

fn invalid_form() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::BAD_REQUEST,
        "ferroshop_invalid_form",
        "The form could not be read: names and values must be UTF-8 text once decoded, and there may be at most 1000 of them.",
    )
}

/// The most fields one form may carry (PHP's `max_input_vars`, which the original
/// shop's clients stay within).
const MAX_FORM_FIELDS: usize = 1000;

/// Why a form body could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadForm;

/// Parses `a=1&b[x]=2&c[0][d]=3` into nested JSON; objects whose keys are all
/// indexes become arrays. Names and values must decode to UTF-8: nothing is replaced
/// or dropped silently.
pub fn parse_form(text: &str) -> Result<Map<String, Value>, BadForm> {
    let mut root = Map::new();
    for (n, pair) in text.split('&').filter(|p| !p.is_empty()).enumerate() {
        if n >= MAX_FORM_FIELDS {
            return Err(BadForm);
        }
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (key, value) = (decode(key)?, decode(value)?);
        let (head, path) = split_key(&key);
        if head.is_empty() {
            continue;
        }
        insert_path(&mut root, head, &path, Value::String(value));
    }
    Ok(root
        .into_iter()
        .map(|(k, v)| (k, arrays_from_indexes(v)))
        .collect())
}

/// One form-encoded name or value: `+` is a space, `%XX` a byte.
fn decode(raw: &str) -> Result<String, BadForm> {
    let spaced = raw.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| BadForm)
}

fn split_key(key: &str) -> (&str, Vec<&str>) {
    let Some(open) = key.find('[') else {
        return (key, Vec::new());
    };
    let head = &key[..open];
    let mut rest = &key[open..];
    let mut path = Vec::new();
    while let Some(stripped) = rest.strip_prefix('[') {
        let Some(close) = stripped.find(']') else {
            break;
        };
        path.push(&stripped[..close]);
        rest = &stripped[close + 1..];
    }
    (head, path)
}

fn insert_path(map: &mut Map<String, Value>, head: &str, path: &[&str], value: Value) {
    // Bound the nesting a hostile key can ask for.
    if path.len() > 8 {
        return;
    }
    match path.split_first() {
        None => {
            map.insert(head.to_string(), value);
        }
        Some((next, rest)) => {
            let entry = map
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            let child = entry.as_object_mut().expect("made an object above");
            let next = if next.is_empty() {
                child.len().to_string()
            } else {
                next.to_string()
            };
            insert_path(child, &next, rest, value);
        }
    }
}

fn arrays_from_indexes(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let all_indexes = !m.is_empty() && m.keys().all(|k| k.parse::<usize>().is_ok());
            if all_indexes {
                let mut items: Vec<(usize, Value)> = m
                    .into_iter()
                    .map(|(k, v)| (k.parse().unwrap_or(0), arrays_from_indexes(v)))
                    .collect();
                items.sort_by_key(|(i, _)| *i);
                Value::Array(items.into_iter().map(|(_, v)| v).collect())
            } else {
                Value::Object(
                    m.into_iter()
                        .map(|(k, v)| (k, arrays_from_indexes(v)))
                        .collect(),
                )
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn forms_nest_like_php() {
        let m = parse_form("id=15&variation[0][attribute]=pa_color&variation[0][value]=blue&variation[1][attribute]=pa_size&variation[1][value]=m&x[]=a&x[]=b").unwrap();
        assert_eq!(m["id"], json!("15"));
        assert_eq!(
            m["variation"],
            json!([{"attribute":"pa_color","value":"blue"},{"attribute":"pa_size","value":"m"}])
        );
        assert_eq!(m["x"], json!(["a", "b"]));
    }

    #[test]
    fn forms_decode_exactly_or_not_at_all() {
        let m = parse_form("name=Ada+L%C3%B6we&empty=&flag").unwrap();
        assert_eq!(m["name"], json!("Ada Löwe"));
        assert_eq!(m["empty"], json!(""));
        assert_eq!(m["flag"], json!(""));
        assert_eq!(parse_form("name=%FF%FE"), Err(BadForm));
        let many = vec!["a=1"; MAX_FORM_FIELDS + 1].join("&");
        assert_eq!(parse_form(&many), Err(BadForm));
    }

    #[test]
    fn integers_come_from_numbers_and_numeric_strings() {
        assert_eq!(as_int(&json!(3)), Some(3));
        assert_eq!(as_int(&json!("12")), Some(12));
        assert_eq!(as_int(&json!(2.0)), Some(2));
        assert_eq!(as_int(&json!(2.5)), None);
        assert_eq!(as_int(&json!("abc")), None);
        assert_eq!(as_int(&json!([1])), None);
    }
}
