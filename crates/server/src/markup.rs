//! How the server writes markup: askama templates (`templates/`) that escape what they
//! are given as the original shop does (see `rules::html`). `trusted` is the one place
//! markup is let through unescaped.

use askama::filters::Safe;
use askama::Template;

/// Markup a template writes as it is. Only for what the shop writes itself: the price
/// HTML `CurrencyFormat` produces (it escapes the symbol and digits), the notices the
/// rules word (they escape what they quote) and JSON `script_json` made safe inside a
/// script element.
/// Never for anything a shopper typed.
pub type Markup = Safe<String>;

pub fn trusted(html: String) -> Markup {
    Safe(html)
}

/// The templates write only strings and numbers, which cannot fail to render.
pub fn rendered(template: &impl Template) -> String {
    template.render().unwrap_or_default()
}
