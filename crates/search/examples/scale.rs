//! How product search behaves at 100,000 products: build time, memory and
//! latency of the searches the storefront sends.
//!
//! `cargo run --release -p ferroshop-search --example scale [products]`
//!
//! The catalogue is generated from word lists with a fixed seed, so every
//! run searches the same products with the same queries.

use std::time::{Duration, Instant};

use cpu_time::{ProcessTime, ThreadTime};

use search::{SearchDoc, SearchIndex};

const ADJECTIVES: &[&str] = &[
    "Classic",
    "Vintage",
    "Modern",
    "Rustic",
    "Elegant",
    "Cozy",
    "Sturdy",
    "Lightweight",
    "Handmade",
    "Organic",
    "Premium",
    "Compact",
    "Deluxe",
    "Essential",
    "Everyday",
    "Minimal",
    "Oversized",
    "Slim",
    "Soft",
    "Waterproof",
    "Reversible",
    "Foldable",
    "Portable",
    "Padded",
];
const MATERIALS: &[&str] = &[
    "Cotton",
    "Wool",
    "Linen",
    "Leather",
    "Denim",
    "Silk",
    "Bamboo",
    "Ceramic",
    "Porcelain",
    "Glass",
    "Steel",
    "Copper",
    "Brass",
    "Oak",
    "Walnut",
    "Canvas",
    "Cashmere",
    "Merino",
    "Suede",
    "Velvet",
    "Stoneware",
    "Marble",
    "Rattan",
    "Jute",
];
/// Product nouns and the category each belongs to.
const NOUNS: &[(&str, &str)] = &[
    ("Hoodie", "Clothing"),
    ("T-Shirt", "Clothing"),
    ("Sweater", "Clothing"),
    ("Jacket", "Clothing"),
    ("Scarf", "Accessories"),
    ("Beanie", "Accessories"),
    ("Gloves", "Accessories"),
    ("Belt", "Accessories"),
    ("Wallet", "Accessories"),
    ("Backpack", "Bags"),
    ("Tote", "Bags"),
    ("Duffel", "Bags"),
    ("Satchel", "Bags"),
    ("Mug", "Kitchen"),
    ("Teapot", "Kitchen"),
    ("Bowl", "Kitchen"),
    ("Plate", "Kitchen"),
    ("Skillet", "Kitchen"),
    ("Cutting Board", "Kitchen"),
    ("Vase", "Home"),
    ("Candle", "Home"),
    ("Cushion", "Home"),
    ("Blanket", "Home"),
    ("Lamp", "Home"),
    ("Planter", "Garden"),
    ("Watering Can", "Garden"),
    ("Notebook", "Stationery"),
    ("Pen", "Stationery"),
    ("Sneakers", "Shoes"),
    ("Boots", "Shoes"),
    ("Sandals", "Shoes"),
];
const BRANDS: &[&str] = &[
    "Northwind",
    "Fjällräven",
    "Acme",
    "Hearth & Home",
    "Blue Harbor",
    "Tidewater",
    "Oakridge",
    "Lumen",
    "Café Atelier",
    "Kestrel",
    "Marigold",
    "Ironbark",
];
const COLORS: &[&str] = &[
    "Black", "White", "Grey", "Navy", "Blue", "Red", "Green", "Olive", "Mustard", "Rust", "Cream",
    "Pink",
];
const SIZES: &[&str] = &["XS", "S", "M", "L", "XL", "XXL"];
const TAGS: &[&str] = &[
    "gift",
    "bestseller",
    "new",
    "sale",
    "eco",
    "limited",
    "summer",
    "winter",
    "fair trade",
];
const SENTENCES: &[&str] = &[
    "Crafted with care by independent makers who take pride in every detail.",
    "Designed to last for years of <strong>everyday</strong> use.",
    "Machine washable at low temperature; dry flat to keep its shape.",
    "A thoughtful gift for friends, family or yourself.",
    "Made from responsibly sourced materials and packed without plastic.",
    "Each piece is unique: small variations in colour are part of its charm.",
    "Pairs beautifully with the rest of our seasonal collection.",
    "Ships in recycled packaging within two working days.",
    "Backed by our <em>lifetime</em> repair promise.",
    "Tested in the workshop and loved by our customers since the first batch.",
];

/// Words from SENTENCES and TAGS, each in a large part of the catalogue.
const COMMON: &[&str] = &[
    "gift",
    "made",
    "everyday",
    "packaging",
    "with",
    "the",
    "sale",
];

/// splitmix64: deterministic and good enough to pick words.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn product(id: i64, rng: &mut Seeded) -> SearchDoc {
    let adjective = rng.pick(ADJECTIVES);
    let material = rng.pick(MATERIALS);
    let (noun, category) = *rng.pick(NOUNS);
    let color = rng.pick(COLORS);
    let brand = rng.pick(BRANDS);
    let mut attributes = vec![color.to_string()];
    if matches!(category, "Clothing" | "Shoes") {
        attributes.push(rng.pick(SIZES).to_string());
    }
    let description = (0..3 + rng.below(3))
        .map(|_| format!("<p>{}</p>", rng.pick(SENTENCES)))
        .collect::<String>();
    SearchDoc {
        id,
        name: format!("{adjective} {material} {noun}"),
        sku: format!("{}-{id:06}", &noun[..3].to_uppercase()),
        short_description: format!(
            "<p>A {} {} {} by {brand}.</p>",
            adjective.to_lowercase(),
            color.to_lowercase(),
            noun.to_lowercase()
        ),
        description,
        categories: vec![category.to_string()],
        brands: vec![brand.to_string()],
        tags: vec![rng.pick(TAGS).to_string()],
        attributes,
    }
}

/// Made as the index takes them, so that the memory figures are the
/// index's and not a copy of the catalogue's.
fn catalogue(products: usize) -> impl Iterator<Item = SearchDoc> {
    let mut rng = Seeded(42);
    (1..=products as i64).map(move |id| product(id, &mut rng))
}

/// The searches a storefront sends, by kind.
fn queries(skus: &[String], per_kind: usize) -> Vec<(&'static str, String)> {
    let mut rng = Seeded(7);
    let mut all = Vec::new();
    let word = |rng: &mut Seeded| -> String {
        match rng.below(4) {
            0 => rng.pick(ADJECTIVES).to_string(),
            1 => rng.pick(MATERIALS).to_string(),
            2 => rng.pick(COLORS).to_string(),
            _ => rng.pick(NOUNS).0.to_string(),
        }
    };
    for _ in 0..per_kind {
        all.push(("one word", word(&mut rng).to_lowercase()));
        // Words of the descriptions that half the catalogue or all of it has.
        all.push(("common", rng.pick(COMMON).to_string()));
        let pair = format!("{} {}", rng.pick(MATERIALS), rng.pick(NOUNS).0);
        all.push(("two words", pair.to_lowercase()));
        all.push(("typo", typo(&word(&mut rng).to_lowercase(), &mut rng)));
        let noun = rng.pick(NOUNS).0.to_lowercase();
        let cut = 3 + rng.below(noun.len().saturating_sub(3).max(1));
        all.push(("prefix", noun[..cut.min(noun.len())].to_string()));
        let sku = rng.pick(skus);
        all.push(("sku", sku.to_lowercase()));
    }
    all
}

/// Drops, doubles or swaps one letter.
fn typo(word: &str, rng: &mut Seeded) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    if chars.len() < 4 {
        return word.to_string();
    }
    let at = 1 + rng.below(chars.len() - 2);
    match rng.below(3) {
        0 => {
            chars.remove(at);
        }
        1 => chars.insert(at, chars[at]),
        _ => chars.swap(at, at + 1),
    }
    chars.into_iter().collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Wall-clock time, and the time the measuring thread spent on a core.
#[derive(Clone, Copy)]
struct Took {
    wall: Duration,
    cpu: Duration,
}

fn report(kind: &str, times: Vec<Took>, hits: usize) {
    let sorted = |pick: fn(&Took) -> Duration| {
        let mut all: Vec<Duration> = times.iter().map(pick).collect();
        all.sort();
        all
    };
    let line = |all: &[Duration]| {
        format!(
            "p50 {:>8}  p99 {:>8}  max {:>8}",
            ms(percentile(all, 0.5)),
            ms(percentile(all, 0.99)),
            ms(*all.last().unwrap_or(&Duration::ZERO)),
        )
    };
    println!(
        "  {kind:<9} n={:<5} wall {} | cpu {} | mean hits {}",
        times.len(),
        line(&sorted(|t| t.wall)),
        line(&sorted(|t| t.cpu)),
        hits / times.len().max(1),
    );
}

/// Resident memory now and at its peak, from the kernel's view.
fn rss() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|line| line.starts_with(name))
            .map_or("?".to_string(), |line| {
                line[name.len()..].trim().to_string()
            })
    };
    format!("RSS {} (peak {})", field("VmRSS:"), field("VmHWM:"))
}

fn main() -> Result<(), search::SearchError> {
    let products: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    const LIMIT: usize = 10_000;

    println!("before indexing: {}", rss());
    let index = SearchIndex::new()?;
    let start = Instant::now();
    let cpu = ProcessTime::now();
    let mut skus = Vec::new();
    index.rebuild(catalogue(products).inspect(|doc| {
        if doc.id % 97 == 0 {
            skus.push(doc.sku.clone());
        }
    }))?;
    let built = start.elapsed();
    let built_cpu = cpu.elapsed();
    let stats = index.stats()?;
    println!(
        "rebuild, generating the products included: {} (CPU {}; {} products, {} segment(s), index {:.1} MB); {}",
        ms(built),
        ms(built_cpu),
        stats.products,
        stats.segments,
        stats.bytes as f64 / 1e6,
        rss()
    );

    let queries = queries(&skus, 1_000);
    // One pass to warm caches and the allocator, as a running server would be.
    for (_, text) in queries.iter().take(200) {
        index.search(text, LIMIT)?;
    }
    let mut by_kind: Vec<(&str, Vec<Took>, usize)> = Vec::new();
    let mut all = Vec::new();
    for (kind, text) in &queries {
        let start = Instant::now();
        let cpu = ThreadTime::now();
        let hits = index.search(text, LIMIT)?;
        let took = Took {
            wall: start.elapsed(),
            cpu: cpu.elapsed(),
        };
        all.push(took);
        match by_kind.iter_mut().find(|(k, _, _)| k == kind) {
            Some((_, times, count)) => {
                times.push(took);
                *count += hits.len();
            }
            None => by_kind.push((kind, vec![took], hits.len())),
        }
    }
    println!("search, limit {LIMIT}:");
    for (kind, times, hits) in by_kind {
        report(kind, times, hits);
    }
    report("all", all, 0);

    let mut rng = Seeded(99);
    let mut upserts = Vec::new();
    for _ in 0..200 {
        let id = 1 + rng.below(products) as i64;
        let doc = product(id, &mut rng);
        let start = Instant::now();
        // The commit runs on the writer's own threads: count them all.
        let cpu = ProcessTime::now();
        index.upsert(&[doc])?;
        upserts.push(Took {
            wall: start.elapsed(),
            cpu: cpu.elapsed(),
        });
    }
    println!("upsert of one product, until searchable:");
    report("upsert", upserts, 0);
    let stats = index.stats()?;
    println!(
        "after upserts: {} products, {} segment(s), index {:.1} MB; {}",
        stats.products,
        stats.segments,
        stats.bytes as f64 / 1e6,
        rss()
    );
    Ok(())
}
