//! The demo shop's reviews: as many as each demo product's review count says, by
//! made-up customers (some of whom bought the product), with stars that lean as each
//! product's reviews would, some answered by the shop's staff and a few by other
//! customers. Deterministic: the same catalogue always gets the same reviews, so the
//! catalogue's figures can be made from them before it is stored (`agree`) and the
//! reviews stored after it (`seed`).

use rules::catalog::model::{CatalogData, Product, ProductId, ProductKind};
use rules::reviews::figures::Tally;
use rules::reviews::{AuthorKey, Rating, ReviewId, ReviewStatus};
use store::reviews::NewReview;
use store::{Db, StoreResult};

/// The moment the demo's products are dated against.
const NOW: i64 = 1_795_000_000;
const DAY: i64 = 86_400;

/// The staff who answer in the demo.
const STAFF_NAME: &str = "Ferroshop team";
const STAFF_EMAIL: &str = "team@ferroshop.example";

const FIRST_NAMES: [&str; 24] = [
    "Maya", "Jonas", "Priya", "Tom", "Elena", "Kwame", "Sofia", "Liam", "Aiko", "Mateo", "Hannah",
    "Omar", "Chloe", "Ravi", "Ingrid", "Diego", "Nora", "Felix", "Leila", "Sam", "Grace", "Yusuf",
    "Clara", "Ben",
];
const LAST_INITIALS: [&str; 12] = ["A", "B", "C", "D", "F", "G", "H", "K", "L", "M", "R", "S"];

const PRAISE: [&str; 12] = [
    "Exactly as described and beautifully made.",
    "Really happy with this one.",
    "Lovely quality for the price.",
    "This has quickly become a favourite.",
    "Arrived well packed and looks even better in person.",
    "Great value and it feels built to last.",
    "I bought one for myself and another as a gift.",
    "The finish is lovely and the colour is true to the photos.",
    "Comfortable, practical and good looking.",
    "Does exactly what I wanted it to.",
    "Better than I expected from the pictures.",
    "Solid, well designed and a pleasure to use.",
];
const DETAILS: [&str; 12] = [
    "Delivery was quicker than promised.",
    "I have used it every day for a few weeks now and it still looks new.",
    "The materials feel much nicer than the cheaper versions I have tried.",
    "Sizing was spot on.",
    "It washes well too.",
    "Friends have already asked where I got it.",
    "Small details like the stitching show real care.",
    "It fits in nicely with everything else I own.",
    "Packaging was plastic-free, which I appreciated.",
    "Instructions were clear and set-up took minutes.",
    "The weight feels just right.",
    "I was unsure at first but it won me over.",
];
const MIXED: [&str; 6] = [
    "Nice enough, but not quite what I pictured.",
    "Good quality, though a little pricey.",
    "It does the job, nothing more.",
    "Decent, but the colour is a shade darker than shown.",
    "I like it, although delivery took a while.",
    "Fine for everyday use, if not special.",
];
const COMPLAINTS: [&str; 6] = [
    "Disappointed: it did not last as long as I hoped.",
    "Smaller than I expected from the photos.",
    "Arrived with a scuff on one side.",
    "Not for me, the fit was wrong.",
    "The quality does not match the price.",
    "It stopped working properly after a month.",
];
const STAFF_REPLIES: [&str; 4] = [
    "Thank you for taking the time to write this, {name}! We are so glad you like it.",
    "Thanks, {name}. It is lovely to hear how you are using it.",
    "We are sorry this fell short, {name}. Please get in touch and we will put it right.",
    "Thank you for the honest feedback, {name}. We have passed it on to the maker.",
];
const CUSTOMER_REPLIES: [&str; 4] = [
    "Agreed, mine has held up just as well.",
    "Thanks for this, it helped me decide.",
    "Same experience here, very happy.",
    "Good to know, I was wondering about the sizing.",
];

/// SplitMix64 seeded from a string: the same text always gives the same numbers.
struct Rng(u64);

impl Rng {
    fn seeded(key: &str) -> Self {
        Self(key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        }))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1).max(1) as u64) as i64
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.range(0, items.len() as i64 - 1) as usize]
    }
}

/// One demo review or reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoReview {
    pub id: ReviewId,
    pub product: ProductId,
    pub parent: Option<ReviewId>,
    pub depth: u8,
    pub author_name: String,
    pub author_email: String,
    pub content: String,
    pub rating: Option<Rating>,
    pub verified: bool,
    pub is_staff: bool,
    pub created_at: i64,
}

/// Stars drawn from how well a product's reviews lean (0: mixed … 3: glowing), in
/// percent of five, four, three, two and one star.
fn stars(rng: &mut Rng, lean: i64) -> i64 {
    let weights: [i64; 5] = match lean {
        0 => [40, 35, 15, 7, 3],
        1 => [55, 30, 10, 3, 2],
        2 => [70, 22, 5, 2, 1],
        _ => [85, 12, 3, 0, 0],
    };
    let mut roll = rng.range(1, 100);
    for (i, w) in weights.iter().enumerate() {
        if roll <= *w {
            return 5 - i as i64;
        }
        roll -= w;
    }
    5
}

fn text(rng: &mut Rng, stars: i64) -> String {
    match stars {
        5 | 4 => {
            let mut t = rng.pick(&PRAISE).to_string();
            if rng.range(0, 2) > 0 {
                t.push(' ');
                t.push_str(rng.pick(&DETAILS));
            }
            if stars == 5 && rng.range(0, 5) == 0 {
                t.push_str("\n\nWould recommend.");
            }
            t
        }
        3 => format!("{} {}", rng.pick(&MIXED), rng.pick(&DETAILS)),
        _ => rng.pick(&COMPLAINTS).to_string(),
    }
}

/// The demo product's reviews and their replies, ids from `next_id`.
fn product_reviews(p: &Product, next_id: &mut i64) -> Vec<DemoReview> {
    let mut rng = Rng::seeded(&format!("reviews:{}", p.slug));
    let lean = rng.range(0, 3);
    let first_day = p.created_at + DAY;
    let mut out = Vec::new();
    for i in 0..p.review_count.max(0) {
        let first = rng.pick(&FIRST_NAMES);
        let initial = rng.pick(&LAST_INITIALS);
        let stars = stars(&mut rng, lean);
        let id = ReviewId(*next_id);
        *next_id += 1;
        let created_at = rng.range(first_day.min(NOW - DAY), NOW - DAY / 2);
        out.push(DemoReview {
            id,
            product: p.id,
            parent: None,
            depth: 1,
            author_name: format!("{first} {initial}."),
            author_email: format!(
                "{}.{}{}@example.test",
                first.to_lowercase(),
                initial.to_lowercase(),
                i
            ),
            content: text(&mut rng, stars),
            rating: Rating::new(stars),
            verified: rng.range(0, 9) < 6,
            is_staff: false,
            created_at,
        });
        // The shop answers every low rating and some of the rest; now and then
        // another customer chimes in, and the shop thanks them in turn.
        if stars <= 3 || rng.range(0, 11) == 0 {
            let reply = if stars <= 3 {
                STAFF_REPLIES[2 + rng.range(0, 1) as usize]
            } else {
                STAFF_REPLIES[rng.range(0, 1) as usize]
            };
            out.push(DemoReview {
                id: ReviewId(*next_id),
                product: p.id,
                parent: Some(id),
                depth: 2,
                author_name: STAFF_NAME.into(),
                author_email: STAFF_EMAIL.into(),
                content: reply.replace("{name}", first),
                rating: None,
                verified: false,
                is_staff: true,
                created_at: (created_at + rng.range(3_600, 2 * DAY)).min(NOW),
            });
            *next_id += 1;
        } else if rng.range(0, 14) == 0 {
            let other = rng.pick(&FIRST_NAMES);
            let reply_id = ReviewId(*next_id);
            let replied_at = (created_at + rng.range(DAY, 5 * DAY)).min(NOW);
            out.push(DemoReview {
                id: reply_id,
                product: p.id,
                parent: Some(id),
                depth: 2,
                author_name: format!("{other} {}.", rng.pick(&LAST_INITIALS)),
                author_email: format!("{}.reply{i}@example.test", other.to_lowercase()),
                content: rng.pick(&CUSTOMER_REPLIES).to_string(),
                rating: None,
                verified: false,
                is_staff: false,
                created_at: replied_at,
            });
            *next_id += 1;
            out.push(DemoReview {
                id: ReviewId(*next_id),
                product: p.id,
                parent: Some(reply_id),
                depth: 3,
                author_name: STAFF_NAME.into(),
                author_email: STAFF_EMAIL.into(),
                content: format!("Thanks for adding to this, {other}!"),
                rating: None,
                verified: false,
                is_staff: true,
                created_at: (replied_at + rng.range(3_600, DAY)).min(NOW),
            });
            *next_id += 1;
        }
    }
    out
}

/// Every demo review, product by product in id order, parents before their replies.
pub fn demo_reviews(data: &CatalogData) -> Vec<DemoReview> {
    let mut next_id = 1;
    let mut products: Vec<&Product> = data
        .products
        .iter()
        .filter(|p| p.kind != ProductKind::Variation && p.review_count > 0)
        .collect();
    products.sort_by_key(|p| p.id);
    products
        .into_iter()
        .flat_map(|p| product_reviews(p, &mut next_id))
        .collect()
}

/// Sets each demo product's figures to what its reviews add up to.
pub fn agree(data: &mut CatalogData) {
    let reviews = demo_reviews(data);
    for p in data.products.iter_mut() {
        let mut tally = Tally::default();
        for r in reviews
            .iter()
            .filter(|r| r.product == p.id && r.parent.is_none())
        {
            tally.reviews += 1;
            if let Some(stars) = r.rating {
                tally.rated += 1;
                tally.stars += i64::from(stars.stars());
            }
        }
        p.review_count = tally.reviews;
        p.rating_average_x100 = tally.average_x100();
    }
}

/// Stores the demo catalogue's reviews (and the products' figures from them).
pub async fn seed(db: &Db, data: &CatalogData) -> StoreResult<()> {
    let reviews = demo_reviews(data);
    let keys: Vec<AuthorKey> = reviews
        .iter()
        .map(|r| {
            // Every demo address is valid; the key is the lowercased address.
            AuthorKey::from_stored(format!("email:{}", r.author_email.to_lowercase()))
        })
        .collect();
    let rows: Vec<(ReviewId, NewReview<'_>)> = reviews
        .iter()
        .zip(&keys)
        .map(|(r, key)| {
            (
                r.id,
                NewReview {
                    product_id: r.product,
                    parent_id: r.parent,
                    depth: r.depth,
                    customer_id: None,
                    author_name: &r.author_name,
                    author_email: &r.author_email,
                    author_key: key,
                    session_key: None,
                    content: &r.content,
                    rating: r.rating,
                    status: ReviewStatus::Approved,
                    verified: r.verified,
                    is_staff: r.is_staff,
                    created_at: r.created_at,
                },
            )
        })
        .collect();
    store::reviews::insert_seeded(db, &rows).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_reviews_are_the_same_every_time_and_agree_with_the_figures() {
        let data = crate::catalog::demo::demo_catalog();
        let reviews = demo_reviews(&data);
        assert_eq!(reviews, demo_reviews(&data));
        for p in data
            .products
            .iter()
            .filter(|p| p.kind != ProductKind::Variation)
        {
            let mine: Vec<&DemoReview> = reviews
                .iter()
                .filter(|r| r.product == p.id && r.parent.is_none())
                .collect();
            assert_eq!(mine.len() as i64, p.review_count, "{}", p.name);
            let tally = Tally {
                reviews: mine.len() as i64,
                rated: mine.len() as i64,
                stars: mine
                    .iter()
                    .map(|r| i64::from(r.rating.unwrap().stars()))
                    .sum(),
            };
            assert_eq!(tally.average_x100(), p.rating_average_x100, "{}", p.name);
        }
    }

    #[test]
    fn the_demo_has_threads_staff_replies_and_verified_owners() {
        let reviews = demo_reviews(&crate::catalog::demo::demo_catalog());
        assert!(reviews.iter().any(|r| r.is_staff && r.depth == 2));
        assert!(reviews.iter().any(|r| r.depth == 3));
        assert!(reviews.iter().any(|r| !r.is_staff && r.depth == 2));
        assert!(reviews.iter().any(|r| r.verified));
        assert!(reviews.iter().any(|r| r.parent.is_none() && !r.verified));
        // Replies come after what they answer, and one address reviews a product once.
        let mut seen = std::collections::HashSet::new();
        for r in &reviews {
            if let Some(parent) = r.parent {
                assert!(reviews.iter().any(|p| p.id == parent && p.id < r.id));
                assert!(r.rating.is_none());
            } else {
                assert!(seen.insert((r.product, r.author_email.clone())), "{r:?}");
            }
            assert!(r.created_at <= NOW);
        }
    }
}
