//! The demo shop's contact form: the original's "Contact form 1" with a consent box,
//! added once to a shop that has no form.

use store::{Db, StoreResult};

/// Adds the demo form when the shop has none; its id either way.
pub async fn seed(db: &Db) -> StoreResult<i64> {
    if let Some(first) = store::contact::forms(db).await?.first() {
        return Ok(first.id);
    }
    let form = rules::contact::form::demo_form();
    let definition = serde_json::to_string(&form).unwrap_or_default();
    store::contact::create_form(db, &form.title, &definition, rules::clock::now()).await
}
