//! Wishlists over HTTP, speaking the original plugin's calls: adding from a product
//! page or card (a POST to the page's own address, `add`), the list table's actions
//! (`/?wc-ajax=tinvwl`, `ajax`), the storefront's JSON reads (`api`), and what signing
//! in and out does to a guest's lists. Whose lists they are comes from the request's
//! identity (`session::identify`) or, for a guest, the `tinv_wishlistkey` cookie's
//! token, kept in the database only as its digest. The rules are `rules::wishlist`.

pub mod add;
pub mod ajax;
pub mod api;
mod fields;
mod view;

use axum::http::HeaderMap;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use serde_json::{json, Value};

use crate::cookies;
use crate::http::store_api::StoreCtx;
use crate::session::token_hash;
use crate::state::AppState;
use rules::wishlist::{self as rules_wl, ListRef, ShareKey, DEFAULT_TITLE, MAX_ITEMS, MAX_LISTS};
use store::wishlists::{self as lists, Owner, Wishlist};
use store::StoreResult;

/// The guest's token (random, 32 bytes, base64url): whoever holds it owns the lists.
pub const OWNER_COOKIE: &str = "tinv_wishlistkey";
/// The item count of a signed-in shopper's default list, for the storefront's cache.
pub const COUNTER_COOKIE: &str = "tinvwl_wishlists_data_counter";
/// Tells the storefront to drop its cached `wishlists_data` (after login and logout).
pub const UPDATE_COOKIE: &str = "tinvwl_update_data";
/// The table's classic call name (`/?wc-ajax=tinvwl`).
pub const AJAX_NAME: &str = "tinvwl";
/// The most a wishlist call's body may be.
pub const MAX_BODY: usize = 64 * 1024;

/// The guest token in a request's cookie, when it has the token's shape.
pub fn guest_token(headers: &HeaderMap) -> Option<String> {
    cookies::read(headers, OWNER_COOKIE).filter(|t| {
        t.len() == 43
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A fresh share key from the operating system's CSPRNG.
pub fn new_share_key() -> ShareKey {
    let mut bytes = [0u8; 6];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    ShareKey::from_bytes(bytes)
}

/// Who is asking, as the wishlists see it: a signed-in customer, or a guest with the
/// token of their cookie (a new one once they first keep something).
pub struct Shopper {
    customer: Option<i64>,
    /// The guest's token and its digest.
    guest: Option<(String, String)>,
    /// The token was made by this request: the answer sets the cookie.
    new_guest: bool,
}

impl Shopper {
    pub fn of(ctx: &StoreCtx) -> Self {
        let customer = (ctx.session.user_id > 0).then_some(ctx.session.user_id);
        let guest = match customer {
            Some(_) => None,
            None => ctx.wishlist_token.clone().map(|t| {
                let hash = token_hash(&t);
                (t, hash)
            }),
        };
        Self {
            customer,
            guest,
            new_guest: false,
        }
    }

    /// The owner whose lists this shopper sees, if they have any identity yet.
    pub fn owner(&self) -> Option<Owner<'_>> {
        match (&self.customer, &self.guest) {
            (Some(id), _) => Some(Owner::Customer(*id)),
            (None, Some((_, hash))) => Some(Owner::Guest(hash)),
            (None, None) => None,
        }
    }

    /// The owner to keep something for: a guest without a token gets one.
    pub fn owner_for_write(&mut self) -> Owner<'_> {
        if self.customer.is_none() && self.guest.is_none() {
            let token = new_token();
            self.guest = Some((token.clone(), token_hash(&token)));
            self.new_guest = true;
        }
        self.owner().expect("an owner")
    }

    pub fn is_customer(&self) -> bool {
        self.customer.is_some()
    }

    /// The cookies of an answer to a wishlist call: the guest's token (set when new,
    /// its life renewed when used), and a customer's item counter.
    pub async fn cookies(
        &self,
        state: &AppState,
        ctx: &StoreCtx,
        headers: &mut HeaderMap,
        counter: i64,
        used: bool,
    ) {
        if let Some((token, hash)) = &self.guest {
            if self.new_guest || used {
                cookies::set(
                    headers,
                    &ctx.base_url,
                    OWNER_COOKIE,
                    token.clone(),
                    Some(rules_wl::GUEST_TTL_SECS),
                );
            }
            if used && !self.new_guest {
                if let Err(e) = lists::touch_guest(&state.db, hash, ctx.now).await {
                    tracing::warn!(error = %e, "could not mark a guest's wishlists used");
                }
            }
        }
        if self.customer.is_some() {
            set_counter(ctx, headers, counter);
        }
    }
}

/// An owner's default list, created when they have none (a share key that happens to
/// be taken is drawn again).
pub async fn ensure_default(db: &store::Db, owner: Owner<'_>, now: i64) -> StoreResult<Wishlist> {
    for _ in 0..5 {
        let key = new_share_key();
        if let Some(list) =
            lists::ensure_default(db, owner, key.as_str(), DEFAULT_TITLE, now).await?
        {
            return Ok(list);
        }
    }
    Err(store::StoreError::Corrupt(
        "no free share key for a new wishlist".into(),
    ))
}

/// A new named list for an owner (whose default list is `default_id`): the list, or
/// None when they already have as many as they may. A share key that happens to be
/// taken is drawn again.
pub async fn create_named(
    db: &store::Db,
    owner: Owner<'_>,
    default_id: i64,
    title: &str,
    now: i64,
) -> StoreResult<Option<Wishlist>> {
    for _ in 0..5 {
        let key = new_share_key();
        match lists::create_list(db, owner, default_id, key.as_str(), title, now, MAX_LISTS).await?
        {
            lists::Created::Created(list) => return Ok(Some(list)),
            lists::Created::TooMany => return Ok(None),
            lists::Created::KeyTaken => continue,
        }
    }
    Err(store::StoreError::Corrupt(
        "no free share key for a new wishlist".into(),
    ))
}

/// The list's page: `/wishlist/<share_key>/`, from the shop's configured address.
pub fn list_url(ctx: &StoreCtx, list: &Wishlist) -> String {
    ctx.base_url.link(&format!("/wishlist/{}/", list.share_key))
}

/// `{ID, title, status, share_key, is_owner}`.
pub fn list_json(list: &Wishlist, is_owner: bool) -> Value {
    json!({
        "ID": list.id,
        "title": list.title,
        "status": "share",
        "share_key": list.share_key,
        "is_owner": is_owner,
    })
}

/// `wishlists_data` over the owner's default list, with stats over `stats_for` (and
/// the products of the list) when asked; and the list's item count.
pub async fn wishlists_data(
    state: &AppState,
    owner: Option<Owner<'_>>,
    stats_for: Option<&[i64]>,
) -> StoreResult<(Value, i64)> {
    let default = match owner {
        Some(owner) => lists::default_of(&state.db, owner).await?,
        None => None,
    };
    let items = match &default {
        Some(list) => lists::items_page(&state.db, list.id, 0, MAX_ITEMS).await?,
        None => Vec::new(),
    };
    let pairs: Vec<(i64, i64)> = items
        .iter()
        .map(|i| (i.product_id, i.variation_id))
        .collect();
    let stats = match stats_for {
        Some(extra) => {
            let mut products: Vec<i64> = pairs
                .iter()
                .map(|(p, _)| *p)
                .chain(extra.iter().copied())
                .collect();
            products.sort_unstable();
            products.dedup();
            products.truncate(MAX_ITEMS as usize + 1);
            Some(lists::stats(&state.db, &products).await?)
        }
        None => None,
    };
    let list_ref = default.as_ref().map(|l| ListRef {
        id: l.id,
        title: &l.title,
        share_key: &l.share_key,
    });
    let data = rules_wl::wishlists_data(list_ref.as_ref(), &pairs, stats.as_deref());
    Ok((data, pairs.len() as i64))
}

/// The title of the list `key` names, for its page: "Wishlist" for its owner, the
/// list's own title for anyone it is shared with; None for no such list.
pub async fn page_title(state: &AppState, ctx: &StoreCtx, key: &str) -> Option<String> {
    let key = ShareKey::parse(key)?;
    match lists::by_share_key(&state.db, key.as_str()).await {
        Ok(found) => found.map(|l| {
            if l.owned_by(Shopper::of(ctx).owner()) {
                "Wishlist".into()
            } else {
                l.title
            }
        }),
        Err(e) => {
            tracing::warn!(error = %e, "a wishlist page's list could not be read");
            Some("Wishlist".into())
        }
    }
}

/// The `wishlist` key of the page settings.
pub fn page_settings(state: &AppState, ctx: &StoreCtx) -> Value {
    let s = &state.config.wishlist;
    json!({
        "wc_ajax_url": format!("/?wc-ajax={AJAX_NAME}"),
        "nonce": ctx.nonce(state, crate::http::store_api::WP_REST_NONCE),
        "simple_flow": s.simple_flow,
        "allow_parent_variable": s.allow_parent_variable,
        "redirect": s.redirect,
        "show_notice": s.show_notice,
        "popup_timer": s.popup_timer_ms,
        "hash_key": rules_wl::hash_key(ctx.base_url.as_str()),
        "page_url": "/wishlist/",
        "i18n_make_a_selection_text": rules_wl::MAKE_A_SELECTION,
        "tinvwl_break_submit": rules_wl::BREAK_SUBMIT,
        "tinvwl_clipboard": rules_wl::CLIPBOARD,
        "text_create": rules_wl::TEXT_CREATE,
        "text_already_in": rules_wl::TEXT_ALREADY_IN,
    })
}

/// Signing in: the guest's lists (from the request's cookie) merge into the account,
/// the guest cookie ends, and the storefront is told to drop its cache and given the
/// account's counter. A failure to merge is logged; the login stands.
pub async fn on_login(state: &AppState, ctx: &StoreCtx, customer_id: i64, headers: &mut HeaderMap) {
    if let Some(token) = &ctx.wishlist_token {
        let key = new_share_key();
        let merge = lists::GuestMerge {
            owner_hash: &token_hash(token),
            customer_id,
            share_key: key.as_str(),
            title: DEFAULT_TITLE,
            now: ctx.now,
        };
        if let Err(e) = lists::merge_guest(&state.db, &merge).await {
            tracing::error!(error = %e, "a guest's wishlists could not be merged at login");
        }
        cookies::expire(headers, &ctx.base_url, OWNER_COOKIE);
    }
    let counter = match lists::default_of(&state.db, Owner::Customer(customer_id)).await {
        Ok(list) => list.map_or(0, |l| l.item_count),
        Err(e) => {
            tracing::warn!(error = %e, "could not count the wishlist at login");
            0
        }
    };
    set_counter(ctx, headers, counter);
    drop_cached_lists(ctx, headers);
}

/// Signing out: the storefront drops its cached lists and the counter ends.
pub fn on_logout(ctx: &StoreCtx, headers: &mut HeaderMap) {
    cookies::expire(headers, &ctx.base_url, COUNTER_COOKIE);
    drop_cached_lists(ctx, headers);
}

/// A signed-in shopper's default list's item count, for the storefront's cache checks.
fn set_counter(ctx: &StoreCtx, headers: &mut HeaderMap, counter: i64) {
    cookies::set_for_scripts(
        headers,
        &ctx.base_url,
        COUNTER_COOKIE,
        counter.to_string(),
        None,
    );
}

/// Tells the storefront (for an hour) to drop the lists it cached for whoever was here.
fn drop_cached_lists(ctx: &StoreCtx, headers: &mut HeaderMap) {
    cookies::set_for_scripts(
        headers,
        &ctx.base_url,
        UPDATE_COOKIE,
        "1".into(),
        Some(3600),
    );
}

/// Deletes guest lists idle for longer than a guest's cookie lives, in batches.
pub async fn delete_idle_guest_lists(db: &store::Db, now: i64) -> StoreResult<u64> {
    const BATCH: i64 = 100;
    const BATCHES: usize = 50;
    let before = now - rules_wl::GUEST_TTL_SECS;
    let mut total = 0;
    for _ in 0..BATCHES {
        let n = lists::delete_idle_guest_lists(db, before, BATCH).await?;
        total += n;
        if (n as i64) < BATCH {
            break;
        }
        tokio::task::yield_now().await;
    }
    Ok(total)
}
