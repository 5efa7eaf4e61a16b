//! Wishlists' rules: the share key's format, list titles, the limits, the messages the
//! original plugin words (with their placeholders), its dialog's HTML, the pages of a
//! list, and `wishlists_data`, the summary the storefront marks its hearts from.

use serde_json::{json, Map, Value};

use crate::html::{escape, strip_tags};

/// The most lists one owner keeps (the default list included).
pub const MAX_LISTS: i64 = 20;
/// The most items one list holds.
pub const MAX_ITEMS: i64 = 500;
/// The longest a list's title may be, in characters, after trimming.
pub const MAX_TITLE_CHARS: usize = 100;
/// A table page's size when none is asked for, and the largest one may ask for.
pub const DEFAULT_PER_PAGE: i64 = 10;
pub const MAX_PER_PAGE: i64 = 50;
/// How long a guest's lists live after their last use, and the guest's cookie with them.
pub const GUEST_TTL_SECS: i64 = 31 * 24 * 3600;
/// The title of every owner's first list.
pub const DEFAULT_TITLE: &str = "Default wishlist";

pub const TEXT_ADDED_TO: &str = "{product_name} added to {wishlist_title}";
pub const TEXT_ALREADY_IN: &str = "{product_name} already in {wishlist_title}";
pub const TEXT_REMOVED_FROM: &str = "Product removed from Wishlist";
pub const MAKE_A_SELECTION: &str =
    "Please select some product options before adding this product to your wishlist.";
pub const SOMETHING_WENT_WRONG: &str = "Something went wrong";
pub const LIST_FULL: &str = "Your wishlist is full.";
pub const TOO_MANY_LISTS: &str = "You cannot create more wishlists.";
pub const NOT_FOUND: &str = "Wishlist is not found!";
pub const BREAK_SUBMIT: &str = "No items or actions are selected.";
pub const CLIPBOARD: &str = "Copied!";
pub const TEXT_CREATE: &str = "Create New";
pub const VIEW_WISHLIST: &str = "View Wishlist";

/// The shop's wishlist options, as the original plugin's settings name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WishlistSettings {
    /// A listed product's heart removes it again (`product_action=remove`).
    pub simple_flow: bool,
    /// A variable product may be listed without choosing its options.
    pub allow_parent_variable: bool,
    /// After a successful add the shopper goes to the list (after the dialog).
    pub redirect: bool,
    /// The dialog is shown after an add.
    pub show_notice: bool,
    /// How long the dialog stays, in milliseconds.
    pub popup_timer_ms: i64,
}

impl Default for WishlistSettings {
    fn default() -> Self {
        Self {
            simple_flow: false,
            allow_parent_variable: false,
            redirect: true,
            show_notice: true,
            popup_timer_ms: 6000,
        }
    }
}

/// A list's public key: 12 lowercase hexadecimal characters. It opens the read-only
/// share page; it never makes its holder the list's owner.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShareKey(String);

impl ShareKey {
    pub const LEN: usize = 12;

    /// A key as given in an address or a field, when well formed.
    pub fn parse(s: &str) -> Option<Self> {
        (s.len() == Self::LEN && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| Self(s.to_string()))
    }

    /// The key made of six random bytes (the caller draws them from a CSPRNG).
    pub fn from_bytes(bytes: [u8; 6]) -> Self {
        Self(hex::encode(bytes))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A list's title as kept: tags stripped, whitespace trimmed and collapsed; None when
/// nothing is left or it is longer than `MAX_TITLE_CHARS`.
pub fn normalize_title(raw: &str) -> Option<String> {
    let text = strip_tags(raw);
    let title = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars = title.chars().count();
    (1..=MAX_TITLE_CHARS).contains(&chars).then_some(title)
}

/// A message template with its placeholders filled, as HTML: the template and every
/// value escaped.
pub fn fill(template: &str, product_name: &str, product_sku: &str, wishlist_title: &str) -> String {
    let title = if wishlist_title.is_empty() {
        DEFAULT_TITLE
    } else {
        wishlist_title
    };
    escape(template)
        .replace("{product_name}", &escape(product_name))
        .replace("{product_sku}", &escape(product_sku))
        .replace("{wishlist_title}", &escape(title))
}

/// `&ldquo;Name&rdquo;`, as the table's messages quote a product.
pub fn quoted(name: &str) -> String {
    format!("&ldquo;{}&rdquo;", escape(name))
}

/// "“A” and “B”", as the platform lists items (`wc_format_list_of_items`).
pub fn list_of_items(quoted_names: &[String]) -> String {
    match quoted_names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The table's message after removing items (HTML).
pub fn removed_message(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| quoted(n)).collect();
    match quoted.as_slice() {
        [one] => format!("{one} has been removed from the wishlist."),
        _ => format!(
            "{} have been successfully removed from the wishlist.",
            list_of_items(&quoted)
        ),
    }
}

/// The table's message after moving items into the cart (HTML).
pub fn added_to_cart_message(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| quoted(n)).collect();
    let verb = if quoted.len() == 1 { "has" } else { "have" };
    format!("{} {verb} been added to your cart.", list_of_items(&quoted))
}

/// A variable product's parent cannot go into the cart without its options (HTML).
pub fn choose_options_message(name: &str) -> String {
    format!(
        "Please choose product options for &quot;{}&quot;.",
        escape(name)
    )
}

/// The icon the plugin's dialog shows for an outcome.
pub fn icon(status: bool) -> &'static str {
    if status {
        "icon_big_heart_check"
    } else {
        "icon_big_times"
    }
}

/// The plugin's dialog (`ti-addedtowishlist-dialogbox.php`): the messages (HTML,
/// already escaped) joined by `<br>`, a "View Wishlist" button to `view_url` when
/// given, and a "Close" button.
pub fn dialog_html(status: bool, messages_html: &[String], view_url: Option<&str>) -> String {
    let view = view_url
        .map(|url| {
            format!(
                "<button class=\"button tinvwl_button_view tinvwl-btn-onclick\" data-url=\"{}\" type=\"button\"><i class=\"ftinvwl ftinvwl-heart-o\"></i>{VIEW_WISHLIST}</button>",
                escape(url)
            )
        })
        .unwrap_or_default();
    format!(
        "<div class=\"tinvwl_added_to_wishlist tinv-modal tinv-modal-open\"><div class=\"tinv-overlay\"></div><div class=\"tinv-table\"><div class=\"tinv-cell\"><div class=\"tinv-modal-inner\"><i class=\"{icon}\"></i><div class=\"tinv-txt\">{text}</div><div class=\"tinvwl-buttons-group tinv-wishlist-clear\">{view}<button class=\"button tinvwl_button_close\" type=\"button\"><i class=\"ftinvwl ftinvwl-times\"></i>Close</button></div><div class=\"tinv-wishlist-clear\"></div></div></div></div></div>",
        icon = icon(status),
        text = messages_html.join("<br>"),
    )
}

/// One page of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// 1-based, at most `pages`.
    pub page: i64,
    pub per_page: i64,
    /// At least 1, even for an empty list.
    pub pages: i64,
    pub offset: i64,
}

impl Paging {
    /// The page `requested` (1 when absent or below 1; the last one when beyond it)
    /// of a list of `total` items, `per_page` to a page (kept within 1..=MAX_PER_PAGE).
    pub fn of(total: i64, requested: i64, per_page: i64) -> Self {
        let per_page = per_page.clamp(1, MAX_PER_PAGE);
        let pages = ((total.max(0) + per_page - 1) / per_page).max(1);
        let page = requested.clamp(1, pages);
        Self {
            page,
            per_page,
            pages,
            offset: (page - 1) * per_page,
        }
    }
}

/// A list as `wishlists_data` and the answers name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListRef<'a> {
    pub id: i64,
    pub title: &'a str,
    pub share_key: &'a str,
}

impl ListRef<'_> {
    /// `{ID, title, status, share_key}`: every list is shared by its key.
    pub fn summary(&self) -> Value {
        json!({
            "ID": self.id,
            "title": self.title,
            "status": "share",
            "share_key": self.share_key,
        })
    }
}

/// `wishlists_data` over the shopper's default list: each product's entry keyed by the
/// list's ID with the variations in it (`0` for the product itself), the item count,
/// and, when asked for, how many lists hold each product (`stats`: product → variation
/// → lists) with their sum. `products` is always an object, never `[]`.
pub fn wishlists_data(
    list: Option<&ListRef<'_>>,
    items: &[(i64, i64)],
    stats: Option<&[(i64, i64, i64)]>,
) -> Value {
    let mut products = Map::new();
    if let Some(list) = list {
        for (product, variation) in items {
            let entry = products
                .entry(product.to_string())
                .or_insert_with(|| json!({}));
            let on_list = entry
                .as_object_mut()
                .expect("an object")
                .entry(list.id.to_string())
                .or_insert_with(|| {
                    let mut v = list.summary();
                    v["in"] = json!([]);
                    v
                });
            if let Some(ins) = on_list["in"].as_array_mut() {
                if !ins.contains(&json!(variation)) {
                    ins.push(json!(variation));
                }
            }
        }
    }
    let mut data = json!({
        "products": Value::Object(products),
        "counter": if list.is_some() { items.len() } else { 0 },
    });
    if let Some(stats) = stats {
        let mut by_product = Map::new();
        let mut sum = 0;
        for (product, variation, count) in stats {
            let entry = by_product
                .entry(product.to_string())
                .or_insert_with(|| json!({}));
            entry[variation.to_string()] = json!(count);
            sum += count;
        }
        data["stats"] = Value::Object(by_product);
        data["stats_count"] = json!(sum);
    }
    data
}

/// `ti_wishlist_data_<32 hex>`: the storefront's cache key, the first half of the
/// SHA-256 of the shop's base address.
pub fn hash_key(base_url: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(base_url.as_bytes());
    format!("ti_wishlist_data_{}", hex::encode(&digest[..16]))
}

/// Whether a form field asks for stats ("stats", non-empty and not "0").
pub fn truthy(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_keys_are_twelve_lowercase_hex_characters() {
        assert!(ShareKey::parse("0a1b2c3d4e5f").is_some());
        assert!(ShareKey::parse("0A1B2C3D4E5F").is_none());
        assert!(ShareKey::parse("0a1b2c3d4e5").is_none());
        assert!(ShareKey::parse("0a1b2c3d4e5f0").is_none());
        assert!(ShareKey::parse("0a1b2c3d4e5g").is_none());
        assert!(ShareKey::parse("").is_none());
        assert!(ShareKey::parse("default").is_none());
        let k = ShareKey::from_bytes([0, 1, 0xab, 0xcd, 0xef, 0xff]);
        assert_eq!(k.as_str(), "0001abcdefff");
        assert_eq!(ShareKey::parse(k.as_str()), Some(k));
    }

    #[test]
    fn titles_are_trimmed_stripped_and_bounded() {
        assert_eq!(
            normalize_title("  Birthday  ideas "),
            Some("Birthday ideas".into())
        );
        assert_eq!(normalize_title("<b>Gifts</b>"), Some("Gifts".into()));
        assert_eq!(normalize_title("   "), None);
        assert_eq!(normalize_title("<i></i>"), None);
        assert_eq!(
            normalize_title(&"é".repeat(100)).map(|t| t.chars().count()),
            Some(100)
        );
        assert_eq!(normalize_title(&"a".repeat(101)), None);
    }

    #[test]
    fn messages_fill_their_placeholders_escaped() {
        assert_eq!(
            fill(TEXT_ADDED_TO, "Hoodie <b>", "H1", "Gifts & more"),
            "Hoodie &lt;b&gt; added to Gifts &amp; more"
        );
        assert_eq!(
            fill(TEXT_ALREADY_IN, "Cap", "", ""),
            "Cap already in Default wishlist"
        );
        assert_eq!(fill("{product_sku}!", "x", "S&1", "t"), "S&amp;1!");
        assert_eq!(
            removed_message(&["Cap".into()]),
            "&ldquo;Cap&rdquo; has been removed from the wishlist."
        );
        assert_eq!(
            removed_message(&["Cap".into(), "Mug".into(), "A<b".into()]),
            "&ldquo;Cap&rdquo;, &ldquo;Mug&rdquo; and &ldquo;A&lt;b&rdquo; have been successfully removed from the wishlist."
        );
        assert_eq!(
            added_to_cart_message(&["Cap".into()]),
            "&ldquo;Cap&rdquo; has been added to your cart."
        );
        assert_eq!(
            added_to_cart_message(&["Cap".into(), "Mug".into()]),
            "&ldquo;Cap&rdquo; and &ldquo;Mug&rdquo; have been added to your cart."
        );
        assert_eq!(
            choose_options_message("Hoodie\""),
            "Please choose product options for &quot;Hoodie&quot;&quot;."
        );
    }

    #[test]
    fn the_dialog_escapes_its_link_and_joins_its_messages() {
        let html = dialog_html(
            true,
            &["one".into(), "two".into()],
            Some("https://shop.example/wishlist/0a1b2c3d4e5f/?\"x"),
        );
        assert!(
            html.starts_with("<div class=\"tinvwl_added_to_wishlist tinv-modal tinv-modal-open\">")
        );
        assert!(html.contains(
            "<i class=\"icon_big_heart_check\"></i><div class=\"tinv-txt\">one<br>two</div>"
        ));
        assert!(html.contains("data-url=\"https://shop.example/wishlist/0a1b2c3d4e5f/?&quot;x\""));
        assert!(html.contains(">View Wishlist</button>") && html.contains(">Close</button>"));
        let bare = dialog_html(false, &["no".into()], None);
        assert!(bare.contains("icon_big_times") && !bare.contains("View Wishlist"));
    }

    #[test]
    fn pages_are_clamped_to_the_list() {
        assert_eq!(
            Paging::of(0, 1, 10),
            Paging {
                page: 1,
                per_page: 10,
                pages: 1,
                offset: 0
            }
        );
        assert_eq!(
            Paging::of(25, 3, 10),
            Paging {
                page: 3,
                per_page: 10,
                pages: 3,
                offset: 20
            }
        );
        assert_eq!(Paging::of(25, 9, 10).page, 3);
        assert_eq!(Paging::of(25, -4, 10).page, 1);
        assert_eq!(Paging::of(500, 1, 1000).per_page, MAX_PER_PAGE);
        assert_eq!(Paging::of(5, 1, 0).per_page, 1);
        assert_eq!(Paging::of(20, 2, 10).pages, 2);
    }

    #[test]
    fn wishlists_data_keys_products_by_list() {
        let list = ListRef {
            id: 7,
            title: "Default wishlist",
            share_key: "0a1b2c3d4e5f",
        };
        let data = wishlists_data(Some(&list), &[(15, 0), (12, 35), (12, 36)], None);
        assert_eq!(
            data,
            json!({
                "products": {
                    "15": {"7": {"ID": 7, "title": "Default wishlist", "status": "share", "share_key": "0a1b2c3d4e5f", "in": [0]}},
                    "12": {"7": {"ID": 7, "title": "Default wishlist", "status": "share", "share_key": "0a1b2c3d4e5f", "in": [35, 36]}},
                },
                "counter": 3,
            })
        );
        let empty = wishlists_data(None, &[], None);
        assert_eq!(empty, json!({"products": {}, "counter": 0}));
        let with_stats = wishlists_data(None, &[], Some(&[(15, 0, 2), (12, 35, 1)]));
        assert_eq!(
            with_stats["stats"],
            json!({"15": {"0": 2}, "12": {"35": 1}})
        );
        assert_eq!(with_stats["stats_count"], json!(3));
    }

    #[test]
    fn the_cache_key_is_half_a_sha256_of_the_base_address() {
        let key = hash_key("https://shop.example");
        assert!(key.starts_with("ti_wishlist_data_"));
        assert_eq!(key.len(), "ti_wishlist_data_".len() + 32);
        assert_ne!(key, hash_key("https://other.example"));
        assert!(truthy(Some("1")) && !truthy(Some("0")) && !truthy(Some("")) && !truthy(None));
    }
}
