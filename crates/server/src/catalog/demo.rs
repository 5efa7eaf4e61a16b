//! The demo catalogue loaded by `ferroshop serve --demo`: a lifestyle shop selling
//! clothing, footwear, bags, homeware, stationery and audio. Built deterministically,
//! so every run sees the same products, ids, prices, stock and artwork.

use super::art::{Artwork, Rgb, Silhouette, Swatch, View};
use rules::catalog::model::{
    Attribute, AttributeId, Backorders, Brand, BrandId, CatalogData, CatalogVisibility, Category,
    CategoryId, Dimensions, Media, MediaId, Product, ProductAttribute, ProductId, ProductKind,
    ProductStatus, StockStatus, SwatchType, Tag, TagId, TaxStatus, Term, TermId, VariationValue,
};

/// Products were created over the half year before this moment.
const NOW: i64 = 1_795_000_000;
const DAY: i64 = 86_400;
/// Products and their variations share one id space, numbered from here in catalogue order.
const FIRST_PRODUCT_ID: i64 = 100;
const COLOR: AttributeId = AttributeId(1);
const SIZE: AttributeId = AttributeId(2);
/// "Only N left" shows for simple products at or below this.
const LOW_STOCK: i64 = 5;
const VARIATION_LOW_STOCK: i64 = 3;

struct Colour {
    name: &'static str,
    slug: &'static str,
    hex: &'static str,
}

const COLOURS: [Colour; 14] = [
    Colour {
        name: "Black",
        slug: "black",
        hex: "#2f3237",
    },
    Colour {
        name: "White",
        slug: "white",
        hex: "#f2f0eb",
    },
    Colour {
        name: "Navy",
        slug: "navy",
        hex: "#2d3f63",
    },
    Colour {
        name: "Forest",
        slug: "forest",
        hex: "#2f5e47",
    },
    Colour {
        name: "Sand",
        slug: "sand",
        hex: "#d8c3a0",
    },
    Colour {
        name: "Rust",
        slug: "rust",
        hex: "#b4532f",
    },
    Colour {
        name: "Berry",
        slug: "berry",
        hex: "#8c3358",
    },
    Colour {
        name: "Sage",
        slug: "sage",
        hex: "#9aae92",
    },
    Colour {
        name: "Ochre",
        slug: "ochre",
        hex: "#d29f3a",
    },
    Colour {
        name: "Sky",
        slug: "sky",
        hex: "#8db6d6",
    },
    Colour {
        name: "Charcoal",
        slug: "charcoal",
        hex: "#4b4f56",
    },
    Colour {
        name: "Cream",
        slug: "cream",
        hex: "#eee4cf",
    },
    Colour {
        name: "Clay",
        slug: "clay",
        hex: "#c7836a",
    },
    Colour {
        name: "Blush",
        slug: "blush",
        hex: "#e3b3a8",
    },
];

/// Size terms as (name, slug): letter sizes for clothing, EU sizes for shoes.
const SIZES: [(&str, &str); 12] = [
    ("XS", "xs"),
    ("S", "s"),
    ("M", "m"),
    ("L", "l"),
    ("XL", "xl"),
    ("38", "38"),
    ("39", "39"),
    ("40", "40"),
    ("41", "41"),
    ("42", "42"),
    ("43", "43"),
    ("44", "44"),
];

const XS_TO_XL: &[&str] = &["xs", "s", "m", "l", "xl"];
const S_TO_XL: &[&str] = &["s", "m", "l", "xl"];
const XS_TO_L: &[&str] = &["xs", "s", "m", "l"];
const S_TO_L: &[&str] = &["s", "m", "l"];
const EU_38_TO_43: &[&str] = &["38", "39", "40", "41", "42", "43"];
const EU_39_TO_44: &[&str] = &["39", "40", "41", "42", "43", "44"];

fn colour(slug: &str) -> &'static Colour {
    COLOURS
        .iter()
        .find(|c| c.slug == slug)
        .unwrap_or_else(|| panic!("unknown colour {slug}"))
}

fn size_name(slug: &str) -> &'static str {
    SIZES
        .iter()
        .find(|(_, s)| *s == slug)
        .map(|(name, _)| *name)
        .unwrap_or_else(|| panic!("unknown size {slug}"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cat {
    Clothing,
    Hoodies,
    Tees,
    Outerwear,
    Footwear,
    Accessories,
    Bags,
    Home,
    Kitchen,
    Decor,
    Stationery,
    Audio,
}

struct CategoryDef {
    cat: Cat,
    name: &'static str,
    slug: &'static str,
    parent: Option<Cat>,
    description: &'static str,
}

/// In `Cat` order, so a category's id is its position plus one.
const CATEGORIES: [CategoryDef; 12] = [
    CategoryDef {
        cat: Cat::Clothing,
        name: "Clothing",
        slug: "clothing",
        parent: None,
        description: "Everyday clothing in natural and recycled fabrics, cut to be worn for years.",
    },
    CategoryDef {
        cat: Cat::Hoodies,
        name: "Hoodies & Sweaters",
        slug: "hoodies-sweaters",
        parent: Some(Cat::Clothing),
        description:
            "Brushed-back fleece, merino and lambswool knits for cool mornings and long evenings.",
    },
    CategoryDef {
        cat: Cat::Tees,
        name: "T-Shirts",
        slug: "t-shirts",
        parent: Some(Cat::Clothing),
        description: "Organic cotton and linen tees in easy, relaxed shapes.",
    },
    CategoryDef {
        cat: Cat::Outerwear,
        name: "Outerwear",
        slug: "outerwear",
        parent: Some(Cat::Clothing),
        description: "Rain shells, chore jackets and insulated layers for every kind of weather.",
    },
    CategoryDef {
        cat: Cat::Footwear,
        name: "Footwear",
        slug: "footwear",
        parent: None,
        description: "Sneakers built to be resoled, and the socks to wear with them.",
    },
    CategoryDef {
        cat: Cat::Accessories,
        name: "Accessories",
        slug: "accessories",
        parent: None,
        description: "Caps, beanies, scarves, sunglasses and watches: the finishing touches.",
    },
    CategoryDef {
        cat: Cat::Bags,
        name: "Bags & Wallets",
        slug: "bags-wallets",
        parent: None,
        description:
            "Canvas totes, roll-top backpacks and slim leather wallets made to be carried daily.",
    },
    CategoryDef {
        cat: Cat::Home,
        name: "Home & Living",
        slug: "home-living",
        parent: None,
        description: "Ceramics, candles, textiles and lighting for a calm, lived-in home.",
    },
    CategoryDef {
        cat: Cat::Kitchen,
        name: "Kitchen & Dining",
        slug: "kitchen-dining",
        parent: Some(Cat::Home),
        description: "Hand-thrown mugs and bowls, insulated bottles and everyday tableware.",
    },
    CategoryDef {
        cat: Cat::Decor,
        name: "Decor",
        slug: "decor",
        parent: Some(Cat::Home),
        description: "Candles, planters, vases, cushions and throws to make a room feel finished.",
    },
    CategoryDef {
        cat: Cat::Stationery,
        name: "Stationery",
        slug: "stationery",
        parent: None,
        description: "Thread-sewn notebooks, journals and planners on fountain-pen-friendly paper.",
    },
    CategoryDef {
        cat: Cat::Audio,
        name: "Tech & Audio",
        slug: "tech-audio",
        parent: None,
        description:
            "Headphones, watches and lamps that pair good engineering with warm materials.",
    },
];

impl Cat {
    fn def(self) -> &'static CategoryDef {
        &CATEGORIES[self as usize]
    }

    fn id(self) -> CategoryId {
        CategoryId(self as i64 + 1)
    }

    fn family(self) -> Family {
        match self {
            Self::Clothing | Self::Hoodies | Self::Tees | Self::Outerwear => Family::Apparel,
            Self::Footwear => Family::Footwear,
            Self::Accessories => Family::Accessories,
            Self::Bags => Family::Bags,
            Self::Kitchen => Family::Kitchen,
            Self::Home | Self::Decor => Family::Decor,
            Self::Stationery => Family::Stationery,
            Self::Audio => Family::Tech,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Br {
    Northwind,
    Trailhead,
    LoomLantern,
    HarborPine,
    TerraStudio,
    Stillwater,
    Fieldwork,
    Solace,
    Meridian,
    StrideLab,
    Kindred,
    EmberOak,
}

/// In `Br` order: (name, slug, description).
const BRANDS: [(&str, &str, &str); 12] = [
    (
        "Northwind Apparel",
        "northwind-apparel",
        "Northwind Apparel makes heavyweight basics in Porto from organic and recycled cotton.",
    ),
    (
        "Trailhead Co.",
        "trailhead-co",
        "Trailhead Co. designs outdoor clothing and gear that is just as at home in town as on the trail.",
    ),
    (
        "Loom & Lantern",
        "loom-lantern",
        "Loom & Lantern works with family-run mills in Scotland and Portugal on knitwear and home textiles.",
    ),
    (
        "Harbor & Pine",
        "harbor-pine",
        "Harbor & Pine cuts and sews bags from waxed canvas and vegetable-tanned leather in small batches.",
    ),
    (
        "Terra Studio",
        "terra-studio",
        "Terra Studio is a ceramics workshop where every piece is thrown, glazed and fired by hand.",
    ),
    (
        "Stillwater Home",
        "stillwater-home",
        "Stillwater Home pours soy candles and sews soft furnishings for slow evenings at home.",
    ),
    (
        "Fieldwork Paper",
        "fieldwork-paper",
        "Fieldwork Paper binds notebooks and planners from recycled board and acid-free paper.",
    ),
    (
        "Solace Audio",
        "solace-audio",
        "Solace Audio builds repairable headphones, tuned by ear in a small studio.",
    ),
    (
        "Meridian",
        "meridian",
        "Meridian designs watches and eyewear with clean faces, sturdy cases and replaceable parts.",
    ),
    (
        "Stride Lab",
        "stride-lab",
        "Stride Lab makes sneakers with stitched soles, so a favourite pair can be resoled rather than replaced.",
    ),
    (
        "Kindred Goods",
        "kindred-goods",
        "Kindred Goods makes useful everyday things from recycled and low-impact materials.",
    ),
    (
        "Ember & Oak",
        "ember-oak",
        "Ember & Oak designs warm, dimmable lighting in solid brass, linen and oak.",
    ),
];

impl Br {
    fn id(self) -> BrandId {
        BrandId(self as i64 + 1)
    }

    fn description(self) -> &'static str {
        BRANDS[self as usize].2
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tg {
    Organic,
    Bestseller,
    New,
    GiftIdea,
    Recycled,
    Handmade,
    LimitedEdition,
}

/// In `Tg` order: (name, slug).
const TAGS: [(&str, &str); 7] = [
    ("organic", "organic"),
    ("bestseller", "bestseller"),
    ("new", "new"),
    ("gift idea", "gift-idea"),
    ("recycled", "recycled"),
    ("handmade", "handmade"),
    ("limited edition", "limited-edition"),
];

impl Tg {
    fn id(self) -> TagId {
        TagId(self as i64 + 1)
    }
}

/// How a simple product's stock is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stock {
    Unmanaged,
    Managed(i64),
    SoldOut,
    /// Managed, none left, but orders are still taken.
    Backorder,
}

/// One top-level product as written in the catalogue below; variations are derived from it.
struct Spec {
    name: &'static str,
    sku: &'static str,
    art: Silhouette,
    /// Cents; variations start from it.
    price: i64,
    brand: Br,
    category: Cat,
    also_in: Option<Cat>,
    blurb: &'static str,
    /// Colour slugs; more than one makes the product variable.
    colours: Vec<&'static str>,
    /// Size slugs; any makes the product variable.
    sizes: &'static [&'static str],
    /// (url, button text) for a product sold elsewhere.
    external: Option<(&'static str, &'static str)>,
    sale_price: Option<i64>,
    /// (colour slug, percent off) for variations on sale.
    colour_sale: Option<(&'static str, i64)>,
    stock: Stock,
    /// (colour slug, size slug or "", quantity) overriding a variation's stock.
    variation_stock: Vec<(&'static str, &'static str, i64)>,
    tags: &'static [Tg],
    featured: bool,
    menu_order: i64,
    material: Option<&'static str>,
    min_quantity: i64,
    max_quantity: Option<i64>,
    sold_individually: bool,
}

fn item(name: &'static str, sku: &'static str, art: Silhouette, price: i64) -> Spec {
    Spec {
        name,
        sku,
        art,
        price,
        brand: Br::Kindred,
        category: Cat::Accessories,
        also_in: None,
        blurb: "",
        colours: Vec::new(),
        sizes: &[],
        external: None,
        sale_price: None,
        colour_sale: None,
        stock: Stock::Unmanaged,
        variation_stock: Vec::new(),
        tags: &[],
        featured: false,
        menu_order: 0,
        material: None,
        min_quantity: 1,
        max_quantity: None,
        sold_individually: false,
    }
}

impl Spec {
    fn by(mut self, brand: Br, category: Cat) -> Self {
        self.brand = brand;
        self.category = category;
        self
    }

    fn also_in(mut self, category: Cat) -> Self {
        self.also_in = Some(category);
        self
    }

    fn colour(mut self, slug: &'static str) -> Self {
        self.colours = vec![slug];
        self
    }

    fn colours(mut self, slugs: &[&'static str]) -> Self {
        self.colours = slugs.to_vec();
        self
    }

    fn sizes(mut self, slugs: &'static [&'static str]) -> Self {
        self.sizes = slugs;
        self
    }

    fn blurb(mut self, text: &'static str) -> Self {
        self.blurb = text;
        self
    }

    fn material(mut self, material: &'static str) -> Self {
        self.material = Some(material);
        self
    }

    fn sale(mut self, price: i64) -> Self {
        self.sale_price = Some(price);
        self
    }

    fn colour_sale(mut self, colour: &'static str, percent_off: i64) -> Self {
        self.colour_sale = Some((colour, percent_off));
        self
    }

    fn stock(mut self, stock: Stock) -> Self {
        self.stock = stock;
        self
    }

    fn variation_stock(mut self, colour: &'static str, size: &'static str, quantity: i64) -> Self {
        self.variation_stock.push((colour, size, quantity));
        self
    }

    fn tags(mut self, tags: &'static [Tg]) -> Self {
        self.tags = tags;
        self
    }

    fn featured(mut self) -> Self {
        self.featured = true;
        self
    }

    fn menu_order(mut self, order: i64) -> Self {
        self.menu_order = order;
        self
    }

    fn external(mut self, url: &'static str, button_text: &'static str) -> Self {
        self.external = Some((url, button_text));
        self
    }

    fn min_quantity(mut self, quantity: i64) -> Self {
        self.min_quantity = quantity;
        self
    }

    fn max_quantity(mut self, quantity: i64) -> Self {
        self.max_quantity = Some(quantity);
        self
    }

    fn sold_individually(mut self) -> Self {
        self.sold_individually = true;
        self
    }

    fn kind(&self) -> ProductKind {
        if self.external.is_some() {
            ProductKind::External
        } else if self.colours.len() > 1 || !self.sizes.is_empty() {
            ProductKind::Variable
        } else {
            ProductKind::Simple
        }
    }

    fn has_tag(&self, tag: Tg) -> bool {
        self.tags.contains(&tag)
    }
}

/// The catalogue, in the order products were added to the shop.
fn products() -> Vec<Spec> {
    use Silhouette::*;
    use Tg::*;
    vec![
        // Hoodies & sweaters
        item("Aurora Hoodie", "FS-HOOD-AUR", Hoodie, 6_800)
            .by(Br::Northwind, Cat::Hoodies)
            .colours(&["navy", "forest", "sand", "black"])
            .sizes(S_TO_XL)
            .material("Organic cotton fleece")
            .tags(&[Organic, Bestseller])
            .featured()
            .menu_order(-2)
            .colour_sale("forest", 20)
            .variation_stock("navy", "xl", 0)
            .variation_stock("sand", "s", 2)
            .blurb("A heavyweight brushed-fleece hoodie with a roomy lined hood and a kangaroo pocket that keeps its shape."),
        item("Summit Zip Hoodie", "FS-HOOD-SUM", Hoodie, 7_800)
            .by(Br::Trailhead, Cat::Hoodies)
            .colours(&["charcoal", "rust", "sage"])
            .sizes(XS_TO_XL)
            .material("Recycled cotton and polyester")
            .tags(&[Recycled])
            .blurb("A mid-weight hoodie for cool mornings on the trail, with ribbed cuffs and a hood that stays up in the wind."),
        item("Bergen Crewneck Sweater", "FS-SWTR-BRG", Sweater, 8_900)
            .by(Br::LoomLantern, Cat::Hoodies)
            .colours(&["cream", "navy", "berry"])
            .sizes(S_TO_XL)
            .material("Lambswool")
            .tags(&[GiftIdea])
            .blurb("A cable-knit lambswool crewneck with a classic fit. Warm without the weight."),
        item("Cinder Merino Sweater", "FS-SWTR-CIN", Sweater, 11_800)
            .by(Br::Northwind, Cat::Hoodies)
            .colours(&["charcoal", "ochre"])
            .sizes(S_TO_L)
            .material("Extra-fine merino wool")
            .tags(&[New])
            .blurb("Fine-gauge merino that breathes, regulates temperature and packs down to nothing."),
        item("Drift Fleece Pullover", "FS-HOOD-DRF", Hoodie, 5_400)
            .by(Br::Trailhead, Cat::Hoodies)
            .colour("sage")
            .sale(4_200)
            .material("Recycled polyester fleece")
            .tags(&[Recycled])
            .blurb("A relaxed, one-size-fits-most fleece pullover made from recycled bottles. Made for campfires and lazy Sundays."),
        // T-shirts
        item("Essential Organic Tee", "FS-TEE-ESS", TShirt, 2_800)
            .by(Br::Northwind, Cat::Tees)
            .colours(&["white", "black", "navy", "sage"])
            .sizes(XS_TO_XL)
            .material("Organic cotton")
            .tags(&[Organic, Bestseller])
            .menu_order(-1)
            .blurb("The everyday tee, done properly: 180gsm organic cotton, a neckline that never sags and a chest pocket."),
        item("Meadow Pocket Tee", "FS-TEE-MDW", TShirt, 3_200)
            .by(Br::Kindred, Cat::Tees)
            .colours(&["forest", "clay", "sky"])
            .sizes(S_TO_XL)
            .material("Organic cotton")
            .tags(&[Organic])
            .blurb("A garment-dyed pocket tee with a lived-in feel from day one."),
        item("Horizon Heavyweight Tee", "FS-TEE-HRZ", TShirt, 3_600)
            .by(Br::Trailhead, Cat::Tees)
            .colours(&["sand", "white", "rust"])
            .sizes(S_TO_XL)
            .material("Heavyweight cotton jersey")
            .colour_sale("rust", 20)
            .blurb("A boxy 240gsm tee that holds its shape and softens beautifully over time."),
        item("Dune Linen Tee", "FS-TEE-DUN", TShirt, 4_600)
            .by(Br::LoomLantern, Cat::Tees)
            .colours(&["cream", "sky"])
            .sizes(XS_TO_L)
            .material("European linen")
            .tags(&[New])
            .blurb("Breezy stonewashed linen for the hottest days of the year."),
        // Outerwear
        item("Fjord Rain Jacket", "FS-JKT-FJD", Jacket, 16_800)
            .by(Br::Trailhead, Cat::Outerwear)
            .colours(&["navy", "rust", "forest"])
            .sizes(S_TO_XL)
            .material("Recycled nylon with a PFC-free coating")
            .tags(&[Recycled, Bestseller])
            .featured()
            .variation_stock("rust", "s", 2)
            .blurb("A fully seam-taped waterproof shell with pit zips and a peaked hood. Packs into its own pocket."),
        item("Cedar Chore Jacket", "FS-JKT-CED", Jacket, 13_800)
            .by(Br::Northwind, Cat::Outerwear)
            .colours(&["sand", "forest", "charcoal"])
            .sizes(S_TO_XL)
            .material("Organic cotton canvas")
            .tags(&[Organic])
            .blurb("A workwear classic in sturdy organic canvas, with four patch pockets and a corduroy collar."),
        item("Tundra Puffer Jacket", "FS-JKT-TUN", Jacket, 22_900)
            .by(Br::Trailhead, Cat::Outerwear)
            .colours(&["black", "berry"])
            .sizes(XS_TO_L)
            .material("Recycled down with a recycled nylon shell")
            .tags(&[Recycled])
            .variation_stock("black", "xs", 0)
            .blurb("Responsibly sourced down in a light, packable shell. Warm enough for real winters."),
        item("Breeze Packable Windbreaker", "FS-JKT-BRZ", Jacket, 8_900)
            .by(Br::Kindred, Cat::Outerwear)
            .colours(&["sky", "ochre"])
            .sizes(S_TO_XL)
            .material("Recycled ripstop nylon")
            .colour_sale("ochre", 25)
            .blurb("A featherweight windbreaker that stuffs into its chest pocket. Made for breezy coastal walks."),
        // Footwear
        item("Cloudstep Runner", "FS-SHOE-CLD", Sneaker, 12_800)
            .by(Br::StrideLab, Cat::Footwear)
            .colours(&["white", "black", "sage"])
            .sizes(EU_39_TO_44)
            .material("Recycled knit and natural rubber")
            .tags(&[Bestseller])
            .featured()
            .colour_sale("sage", 15)
            .variation_stock("sage", "44", 0)
            .variation_stock("white", "42", 2)
            .blurb("A light, cushioned everyday runner with a breathable knit upper and a sole you can have replaced."),
        item("Pebble Court Sneaker", "FS-SHOE-PBL", Sneaker, 9_800)
            .by(Br::StrideLab, Cat::Footwear)
            .colours(&["navy", "white"])
            .sizes(EU_38_TO_43)
            .material("Full-grain leather and natural rubber")
            .blurb("A minimal leather court shoe that goes with everything from jeans to linen trousers."),
        item("Ember Suede Sneaker", "FS-SHOE-EMB", Sneaker, 11_400)
            .by(Br::StrideLab, Cat::Footwear)
            .colours(&["sand", "rust"])
            .sizes(EU_39_TO_44)
            .material("Water-repellent suede")
            .tags(&[New])
            .blurb("Soft suede, a padded collar and a crepe-style sole for autumn walks."),
        item("Hiker Crew Socks", "FS-SOCK-HKR", Socks, 1_400)
            .by(Br::Trailhead, Cat::Footwear)
            .colour("forest")
            .min_quantity(2)
            .material("Merino wool blend")
            .blurb("Cushioned merino crew socks with a reinforced heel and toe. Sold in pairs of two."),
        item("Cabin Wool Socks", "FS-SOCK-CAB", Socks, 1_900)
            .by(Br::LoomLantern, Cat::Footwear)
            .colour("ochre")
            .sale(1_500)
            .material("Lambswool and nylon")
            .tags(&[GiftIdea])
            .blurb("Thick, cosy lambswool socks for cold floors and long evenings by the fire."),
        // Accessories
        item("Fernie Wool Beanie", "FS-BEAN-FRN", Beanie, 3_200)
            .by(Br::Northwind, Cat::Accessories)
            .colours(&["ochre", "forest", "berry", "charcoal"])
            .material("Merino wool")
            .tags(&[GiftIdea, Bestseller])
            .variation_stock("berry", "", 0)
            .blurb("A chunky rib-knit beanie with a deep turn-up and a generous pom-pom."),
        item("Lakeside Canvas Cap", "FS-CAP-LKS", Cap, 2_900)
            .by(Br::Kindred, Cat::Accessories)
            .colour("navy")
            .material("Washed cotton canvas")
            .blurb("A six-panel cap in washed canvas with an adjustable brass buckle."),
        item("Outpost Six-Panel Cap", "FS-CAP-OUT", Cap, 3_400)
            .by(Br::Trailhead, Cat::Accessories)
            .colour("forest")
            .stock(Stock::SoldOut)
            .material("Recycled nylon")
            .tags(&[Recycled])
            .blurb("A quick-dry trail cap with a soft brim that folds into a pocket."),
        item("Fold Cashmere Scarf", "FS-SCRF-FLD", Scarf, 14_500)
            .by(Br::LoomLantern, Cat::Accessories)
            .colour("berry")
            .sale(11_900)
            .material("Mongolian cashmere")
            .tags(&[GiftIdea])
            .blurb("Impossibly soft brushed cashmere, generously long and finished with a hand-knotted fringe."),
        item("Highland Check Scarf", "FS-SCRF-HIG", Scarf, 6_400)
            .by(Br::LoomLantern, Cat::Accessories)
            .colour("rust")
            .stock(Stock::Managed(5))
            .material("Lambswool")
            .tags(&[Handmade])
            .blurb("A warm lambswool scarf woven on traditional looms in the Scottish Borders."),
        item("Solstice Sunglasses", "FS-SUN-SOL", Sunglasses, 8_900)
            .by(Br::Kindred, Cat::Accessories)
            .colour("black")
            .material("Plant-based acetate")
            .blurb("Bold square frames in plant-based acetate with polarised, fully UV-protective lenses."),
        item("Coast Round Sunglasses", "FS-SUN-CST", Sunglasses, 7_400)
            .by(Br::Meridian, Cat::Accessories)
            .colour("clay")
            .material("Recycled acetate")
            .tags(&[Recycled])
            .blurb("Softly rounded frames with a keyhole bridge and warm-tinted lenses."),
        item("Meridian Field Watch", "FS-WTCH-FLD", Watch, 18_900)
            .by(Br::Meridian, Cat::Accessories)
            .colour("navy")
            .stock(Stock::Managed(3))
            .sold_individually()
            .material("Stainless steel and waxed canvas")
            .tags(&[LimitedEdition, GiftIdea])
            .blurb("A 38mm automatic field watch with a legible dial and a quick-change canvas strap. Numbered limited edition."),
        // Bags & wallets
        item("Harbor Canvas Tote", "FS-TOTE-HAR", Tote, 3_800)
            .by(Br::HarborPine, Cat::Bags)
            .colours(&["sand", "navy", "forest"])
            .material("Heavyweight cotton canvas")
            .tags(&[Bestseller])
            .blurb("A roomy canvas tote with long handles and a printed sun-over-sea motif."),
        item("Market Day Tote", "FS-TOTE-MKT", Tote, 1_800)
            .by(Br::Kindred, Cat::Bags)
            .colour("ochre")
            .material("Recycled cotton")
            .tags(&[Recycled])
            .blurb("A light, foldable tote for the weekly shop. Carries more than it looks."),
        item("Voyager Roll-Top Backpack", "FS-PACK-VOY", Backpack, 13_900)
            .by(Br::HarborPine, Cat::Bags)
            .colour("charcoal")
            .stock(Stock::Managed(3))
            .material("Waxed canvas and leather")
            .blurb("A weatherproof roll-top with a padded laptop sleeve and buckled straps."),
        item("Trail Day Pack", "FS-PACK-TRL", Backpack, 8_900)
            .by(Br::Trailhead, Cat::Bags)
            .colour("sage")
            .stock(Stock::SoldOut)
            .material("Recycled ripstop")
            .tags(&[Recycled])
            .blurb("A 20-litre day pack with a zipped front pocket and a ventilated back panel."),
        item("Slim Card Wallet", "FS-WLT-SLM", Wallet, 3_900)
            .by(Br::HarborPine, Cat::Bags)
            .colour("rust")
            .material("Vegetable-tanned leather")
            .tags(&[GiftIdea, Handmade])
            .blurb("Four card slots and a centre pocket in a wallet thin enough for a front pocket."),
        item("Heritage Bifold Wallet", "FS-WLT-HER", Wallet, 5_900)
            .by(Br::HarborPine, Cat::Bags)
            .colour("black")
            .sale(4_900)
            .material("Full-grain leather")
            .blurb("A classic bifold with room for cards, notes and receipts, hand-stitched with waxed thread."),
        // Kitchen & dining
        item("Terra Ceramic Mug", "FS-MUG-TER", Mug, 2_400)
            .by(Br::TerraStudio, Cat::Kitchen)
            .colour("clay")
            .stock(Stock::Managed(8))
            .material("Speckled stoneware")
            .tags(&[Handmade, Bestseller])
            .blurb("A generous 350ml mug with a speckled glaze and a raw clay foot."),
        item("Campfire Enamel Mug", "FS-MUG-CMP", Mug, 1_600)
            .by(Br::Trailhead, Cat::Kitchen)
            .colour("white")
            .material("Enamelled steel")
            .blurb("A tough enamel mug for camp coffee, garden tea and everything in between."),
        item("Ristretto Espresso Cup", "FS-MUG-RIS", Mug, 1_200)
            .by(Br::TerraStudio, Cat::Kitchen)
            .colour("charcoal")
            .material("Matte stoneware")
            .tags(&[Handmade])
            .blurb("A small, weighty espresso cup that keeps a double shot hot to the last sip."),
        item("Alpine Insulated Bottle", "FS-BTL-ALP", Bottle, 3_400)
            .by(Br::Kindred, Cat::Kitchen)
            .colours(&["sage", "navy", "berry", "white"])
            .material("Double-walled stainless steel")
            .tags(&[Bestseller])
            .blurb("Keeps drinks cold for 24 hours or hot for 12, with a leak-proof loop cap."),
        item("Tidal Glass Bottle", "FS-BTL-TDL", Bottle, 2_200)
            .by(Br::Kindred, Cat::Kitchen)
            .colour("sky")
            .sale(1_800)
            .material("Borosilicate glass with a silicone sleeve")
            .blurb("A light glass bottle with a grippy sleeve. No metallic taste, ever."),
        item("Speckle Breakfast Bowl", "FS-BOWL-SPK", Bowl, 2_000)
            .by(Br::TerraStudio, Cat::Kitchen)
            .colour("cream")
            .material("Speckled stoneware")
            .tags(&[Handmade])
            .blurb("A deep, wide bowl sized for porridge, ramen or a big salad."),
        item("Nest Serving Bowl", "FS-BOWL-NST", Bowl, 5_600)
            .by(Br::TerraStudio, Cat::Kitchen)
            .colour("sage")
            .stock(Stock::Managed(5))
            .material("Stoneware with a celadon glaze")
            .tags(&[Handmade])
            .blurb("A large serving bowl for fruit, salads and shared dinners."),
        // Decor
        item("Hearth Soy Candle", "FS-CNDL-HRT", Candle, 2_800)
            .by(Br::Stillwater, Cat::Decor)
            .colour("cream")
            .material("Soy wax with a cotton wick")
            .tags(&[Bestseller, GiftIdea])
            .featured()
            .menu_order(-1)
            .blurb("Notes of cedar, amber and smoked vanilla. Around 50 hours of slow, clean burn."),
        item("Smoke & Vetiver Candle", "FS-CNDL-SMK", Candle, 3_200)
            .by(Br::Stillwater, Cat::Decor)
            .colour("charcoal")
            .sale(2_400)
            .material("Soy wax in a reusable glass tumbler")
            .blurb("An earthy blend of vetiver, black pepper and birch tar for darker evenings."),
        item("Fig Leaf Travel Candle", "FS-CNDL-FIG", Candle, 1_400)
            .by(Br::Stillwater, Cat::Decor)
            .colour("sage")
            .material("Soy wax")
            .tags(&[New, GiftIdea])
            .blurb("Green fig and bergamot in a small tin made for weekends away."),
        item("Fern Terracotta Planter", "FS-POT-FRN", PlantPot, 3_600)
            .by(Br::TerraStudio, Cat::Decor)
            .colour("clay")
            .material("Unglazed terracotta")
            .tags(&[Handmade])
            .blurb("A breathable terracotta planter with a drainage hole, for happy roots."),
        item("Loft Ceramic Planter", "FS-POT-LFT", PlantPot, 5_200)
            .by(Br::TerraStudio, Cat::Decor)
            .colour("white")
            .stock(Stock::Backorder)
            .material("Glazed stoneware")
            .blurb("A clean, glazed planter for statement houseplants. Made to order; ships in about three weeks."),
        item("Ripple Bud Vase", "FS-VASE-RPL", Vase, 4_200)
            .by(Br::TerraStudio, Cat::Decor)
            .colour("sand")
            .material("Matte stoneware")
            .tags(&[Handmade])
            .blurb("A small ribbed vase for a single stem or a few dried grasses."),
        item("Kiln Statement Vase", "FS-VASE-KLN", Vase, 14_800)
            .by(Br::TerraStudio, Cat::Decor)
            .colour("ochre")
            .external("https://example.com/makers/terra-studio/kiln-statement-vase", "Buy from the maker")
            .material("Wood-fired stoneware")
            .tags(&[Handmade, LimitedEdition])
            .blurb("A one-off wood-fired vase, sold directly by the studio that made it."),
        item("Lumen Table Lamp", "FS-LAMP-LUM", Lamp, 12_900)
            .by(Br::EmberOak, Cat::Decor)
            .colour("sage")
            .material("Linen and solid brass")
            .featured()
            .blurb("A linen-shaded table lamp with a solid brass stem and a warm, dimmable glow."),
        item("Nimbus Linen Cushion", "FS-CUSH-NIM", Cushion, 4_800)
            .by(Br::LoomLantern, Cat::Decor)
            .colour("sand")
            .material("Organic linen with a feather insert")
            .tags(&[Organic])
            .blurb("A plump, stonewashed linen cushion with a woven roundel motif."),
        item("Moss Velvet Cushion", "FS-CUSH-MOS", Cushion, 5_400)
            .by(Br::Stillwater, Cat::Decor)
            .colour("forest")
            .sale(4_200)
            .material("Cotton velvet")
            .blurb("Deep green cotton velvet with piped edges. Soft to the touch and rich in colour."),
        item("Waffle Knit Throw", "FS-THRW-WFL", Throw, 11_900)
            .by(Br::LoomLantern, Cat::Decor)
            .colour("cream")
            .material("Organic cotton waffle knit")
            .tags(&[Organic, GiftIdea])
            .blurb("A generous waffle-knit throw for the sofa, the bed or a picnic in the park."),
        item("Heath Wool Throw", "FS-THRW-HTH", Throw, 16_500)
            .by(Br::LoomLantern, Cat::Decor)
            .colour("rust")
            .stock(Stock::SoldOut)
            .material("Pure new wool")
            .tags(&[Handmade])
            .blurb("A heavy woven wool throw with a fringed edge, made on a traditional loom."),
        // Stationery
        item("Margin Dot Grid Notebook", "FS-NOTE-MRG", Notebook, 1_800)
            .by(Br::Fieldwork, Cat::Stationery)
            .colour("navy")
            .material("Bookcloth over recycled board")
            .tags(&[Bestseller])
            .blurb("An A5 dot-grid notebook with 192 numbered pages that lie completely flat."),
        item("Linen Hardcover Journal", "FS-NOTE-LIN", Notebook, 3_200)
            .by(Br::Fieldwork, Cat::Stationery)
            .colour("berry")
            .material("Linen bookcloth")
            .tags(&[GiftIdea])
            .blurb("A linen-bound journal with cream pages, two ribbon markers and a back pocket."),
        item("Pocket Memo Notebook", "FS-NOTE-PKT", Notebook, 600)
            .by(Br::Fieldwork, Cat::Stationery)
            .colour("ochre")
            .max_quantity(10)
            .material("Recycled kraft card")
            .tags(&[Recycled])
            .blurb("A pocket-sized memo book for lists, numbers and sudden ideas."),
        item("Daybook Undated Planner", "FS-NOTE-DAY", Notebook, 3_800)
            .by(Br::Fieldwork, Cat::Stationery)
            .colour("forest")
            .sale(2_900)
            .material("Bookcloth over recycled board")
            .blurb("An undated weekly planner you can start any Monday of the year."),
        // Tech & audio
        item("Echo Wireless Headphones", "FS-AUD-ECH", Headphones, 18_900)
            .by(Br::Solace, Cat::Audio)
            .colour("black")
            .stock(Stock::Managed(8))
            .material("Recycled aluminium and protein leather")
            .featured()
            .blurb("Noise-cancelling wireless headphones with 40 hours of battery and replaceable ear pads."),
        item("Studio Over-Ear Headphones", "FS-AUD-STU", Headphones, 24_900)
            .by(Br::Solace, Cat::Audio)
            .colours(&["sand", "charcoal"])
            .material("Aluminium, wool felt and lambskin")
            .tags(&[New])
            .blurb("Open-back reference headphones tuned for long listening sessions at home."),
        item("Tempo Smart Watch", "FS-WTCH-TMP", Watch, 21_900)
            .by(Br::Meridian, Cat::Audio)
            .colour("sage")
            .sale(19_900)
            .material("Titanium and soft silicone")
            .blurb("A hybrid smart watch with real hands, a week of battery and quiet notifications."),
        item("Pathfinder Trail Watch", "FS-WTCH-PTH", Watch, 24_500)
            .by(Br::Meridian, Cat::Audio)
            .colour("charcoal")
            .external("https://example.com/meridian/pathfinder-trail-watch", "Buy from Meridian")
            .material("Titanium and recycled nylon")
            .blurb("A rugged GPS trail watch, available directly from Meridian."),
        item("Glow Bedside Lamp", "FS-LAMP-GLW", Lamp, 7_900)
            .by(Br::EmberOak, Cat::Audio)
            .also_in(Cat::Decor)
            .colour("blush")
            .material("Linen and powder-coated steel")
            .tags(&[New])
            .blurb("A touch-dimmable bedside lamp with a sunrise alarm and a soft fabric shade."),
    ]
}

/// Copy for a product's long description, by kind of product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Apparel,
    Footwear,
    Accessories,
    Bags,
    Kitchen,
    Decor,
    Stationery,
    Tech,
}

/// Sentence banks; `{name}` and `{material}` are filled in per product.
struct CopyBank {
    material: &'static str,
    intros: &'static [&'static str],
    details: &'static [&'static str],
    closings: &'static [&'static str],
}

impl Family {
    fn copy(self) -> CopyBank {
        match self {
            Self::Apparel => CopyBank {
                material: "soft cotton jersey",
                intros: &[
                    "The {name} is cut for everyday wear, with a relaxed fit through the body and enough length to layer over anything. It is the piece you reach for first and keep the longest.",
                    "We designed the {name} around the details that matter once the novelty wears off: seams that lie flat, cuffs that hold their shape and a colour that stays rich for years.",
                    "Soft from the first wear and sturdy enough for the hundredth, the {name} is made in small runs and finished by hand before it leaves the workshop.",
                    "The {name} takes a classic shape and refines it, with slightly dropped shoulders and a hem that sits right whether it is tucked in or worn loose.",
                ],
                details: &[
                    "It is made from {material} and pre-washed, so the size you order is the size you keep. Machine wash cold with similar colours and dry flat.",
                    "Made from {material}, it gets softer with every wash. Turn it inside out and wash at 30°C to keep the colour deep.",
                    "The fabric is {material}, dyed in small batches with low-impact dyes. Skip the tumble dryer and it will last for years.",
                ],
                closings: &[
                    "Free returns within 30 days if the fit is not quite right.",
                    "Not sure about sizing? Our fit guide lists every measurement, and exchanges are free.",
                    "Ships in plastic-free packaging within two working days.",
                ],
            },
            Self::Footwear => CopyBank {
                material: "full-grain leather and natural rubber",
                intros: &[
                    "The {name} is built for long days on your feet, with a cushioned footbed that moulds to you and a grippy sole that handles wet pavements.",
                    "Clean lines, a low profile and a sole that lasts: the {name} is the pair that goes with everything in your wardrobe.",
                    "We spent a year refining the {name}, from the heel counter to the toe spring, so it feels broken in from the first step.",
                ],
                details: &[
                    "It is made with {material}; the insole is removable and the outsole is stitched rather than glued, so it can be resoled.",
                    "Made with {material}. Brush off dirt once dry and let them air between wears; a little care keeps them looking new.",
                    "It is made from {material}. Sizes follow EU sizing; if you are between sizes, size up.",
                ],
                closings: &[
                    "Free returns within 30 days on unworn items.",
                    "Ships in a recycled box within two working days.",
                    "Exchanges for a different size are always free.",
                ],
            },
            Self::Accessories => CopyBank {
                material: "natural fibres",
                intros: &[
                    "Small things finish an outfit. The {name} is the detail you will reach for every morning.",
                    "The {name} is made to be worn daily and forgotten about, in the best way: no fuss, no fragile parts, just good materials.",
                    "Simple, well made and easy to love, the {name} makes a thoughtful gift or a small treat for yourself.",
                ],
                details: &[
                    "It is made from {material}, finished by hand and checked piece by piece.",
                    "The {material} develops character with wear and only gets better with age.",
                    "It is made from {material} and built to last for years of daily use.",
                ],
                closings: &[
                    "Arrives gift-ready in a recycled card box.",
                    "Free returns within 30 days.",
                    "Add a handwritten note at checkout and we will tuck it in.",
                ],
            },
            Self::Bags => CopyBank {
                material: "heavyweight cotton canvas",
                intros: &[
                    "The {name} carries the everyday essentials (laptop, lunch, a spare layer) without ever feeling bulky.",
                    "Sturdy enough for the weekly shop and neat enough for the office, the {name} is made for every day of the week.",
                    "Built around how you actually use it, the {name} has a place for everything and a shape that stays put when you set it down.",
                ],
                details: &[
                    "It is made from {material}, with reinforced stitching at every stress point and hardware that will not rust.",
                    "It is made from {material}; wipe it clean with a damp cloth and it will age beautifully.",
                    "Made from {material}, cut and sewn in small batches by a team of six.",
                ],
                closings: &[
                    "Covered by our two-year repair guarantee.",
                    "Ships in plastic-free packaging within two working days.",
                    "Free returns within 30 days if it is not the one.",
                ],
            },
            Self::Kitchen => CopyBank {
                material: "glazed stoneware",
                intros: &[
                    "The {name} makes everyday meals and morning coffees feel a little more considered. It feels good in the hand and looks good on an open shelf.",
                    "Everyday pieces should be used every day. The {name} is sturdy enough for daily life and pretty enough for guests.",
                    "The {name} is made in small batches, so every piece carries slight variations that make it one of a kind.",
                    "Made for the table, the picnic and the desk, the {name} is the kind of thing you will wonder how you managed without.",
                ],
                details: &[
                    "It is made from {material}, and is dishwasher safe.",
                    "Made from {material} with a food-safe, lead-free finish. Washing by hand keeps it at its best.",
                    "The body is {material}, tested for everyday knocks and years of use.",
                ],
                closings: &[
                    "Carefully packed in recycled paper so it arrives in one piece.",
                    "Anything broken in transit is replaced free of charge.",
                    "Pairs beautifully with the rest of the collection.",
                ],
            },
            Self::Decor => CopyBank {
                material: "natural materials",
                intros: &[
                    "The {name} brings a little warmth to a shelf, a bedside table or a quiet corner of the living room.",
                    "Good rooms are made of small, considered things. The {name} is one of them: simple in form and lovely up close.",
                    "The {name} sits comfortably in any room, from a minimal studio to a house full of books and plants.",
                    "Light, texture and colour change how a room feels, and the {name} is an easy way to add all three.",
                ],
                details: &[
                    "It is made from {material}, by hand, in a small workshop.",
                    "Made from {material}. Every piece is checked by hand before it is packed.",
                    "The {material} ages gracefully, and every piece is slightly different from the next.",
                ],
                closings: &[
                    "Carefully packed in recycled paper and card.",
                    "Free returns within 30 days.",
                    "A lovely housewarming gift.",
                ],
            },
            Self::Stationery => CopyBank {
                material: "bookcloth over recycled board",
                intros: &[
                    "The {name} lies flat when open and takes fountain pen ink without bleeding through.",
                    "Plans, lists, sketches and half-formed ideas: the {name} gives them all a good home.",
                    "The {name} is the notebook we kept wishing existed: sturdy, simple and a pleasure to write in.",
                ],
                details: &[
                    "The cover is {material}; inside are acid-free pages, thread-sewn so they never fall out.",
                    "Made from {material}, with a ribbon marker, an elastic closure and a pocket in the back cover.",
                    "It is made from {material} and printed with vegetable-based inks.",
                ],
                closings: &[
                    "Printed and bound in small runs.",
                    "Buy a few; they go quickly.",
                    "Ships flat in a recycled envelope.",
                ],
            },
            Self::Tech => CopyBank {
                material: "anodised aluminium",
                intros: &[
                    "The {name} is designed to disappear: light enough to forget you are wearing it, good enough to notice the difference.",
                    "Technology does not have to look like technology. The {name} pairs careful engineering with warm, tactile materials.",
                    "The {name} keeps up with a full day of commuting, working and winding down, and still looks good doing it.",
                ],
                details: &[
                    "It is made with {material} and comes with a two-year warranty.",
                    "Made with {material}; spare parts stay available for years after purchase.",
                    "Made with {material}. Every unit is tested by hand before it leaves the workshop.",
                ],
                closings: &[
                    "Free shipping and free returns within 30 days.",
                    "Covered by a two-year warranty.",
                    "Ships in recycled packaging.",
                ],
            },
        }
    }
}

/// Three paragraphs: an introduction, materials and care, and the brand with a
/// shipping note. Introductions rotate with the catalogue position so that neighbours
/// on a category page never open the same way.
fn description(spec: &Spec, position: usize, rng: &mut Rng) -> String {
    let copy = spec.category.family().copy();
    let material = spec
        .material
        .map_or(copy.material.to_owned(), lowercase_first);
    let fill = |template: &str| {
        template
            .replace("{name}", spec.name)
            .replace("{material}", &material)
    };
    format!(
        "<p>{}</p><p>{}</p><p>{} {}</p>",
        fill(copy.intros[position % copy.intros.len()]),
        fill(rng.pick(copy.details)),
        spec.brand.description(),
        rng.pick(copy.closings)
    )
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Shipping weight in grams and packed size, by product type.
fn physical(art: Silhouette) -> (i64, Dimensions) {
    let (grams, length_mm, width_mm, height_mm) = match art {
        Silhouette::TShirt => (180, 300, 250, 20),
        Silhouette::Hoodie => (620, 350, 300, 60),
        Silhouette::Sweater => (480, 340, 290, 50),
        Silhouette::Jacket => (700, 380, 320, 70),
        Silhouette::Cap => (110, 280, 190, 130),
        Silhouette::Beanie => (90, 240, 210, 30),
        Silhouette::Scarf => (220, 300, 200, 40),
        Silhouette::Socks => (80, 250, 100, 20),
        Silhouette::Sneaker => (820, 330, 210, 120),
        Silhouette::Tote => (260, 380, 60, 420),
        Silhouette::Backpack => (950, 300, 140, 460),
        Silhouette::Wallet => (70, 110, 90, 15),
        Silhouette::Mug => (380, 120, 90, 100),
        Silhouette::Bowl => (520, 180, 180, 80),
        Silhouette::Bottle => (340, 75, 75, 265),
        Silhouette::Candle => (420, 90, 90, 100),
        Silhouette::PlantPot => (900, 160, 160, 150),
        Silhouette::Vase => (650, 110, 110, 240),
        Silhouette::Lamp => (1_800, 260, 260, 420),
        Silhouette::Cushion => (550, 450, 450, 120),
        Silhouette::Throw => (1_300, 400, 300, 80),
        Silhouette::Notebook => (260, 210, 148, 15),
        Silhouette::Headphones => (280, 190, 170, 80),
        Silhouette::Watch => (85, 260, 40, 12),
        Silhouette::Sunglasses => (30, 145, 50, 45),
    };
    (
        grams,
        Dimensions {
            length_mm,
            width_mm,
            height_mm,
        },
    )
}

/// Variations in larger sizes cost a little more, as they use more fabric.
fn size_premium(size: &str, base_price: i64) -> i64 {
    match size {
        "xl" if base_price >= 10_000 => 500,
        "xl" => 200,
        _ => 0,
    }
}

/// A percentage off, rounded down to whole dollars so sale prices look deliberate.
fn discounted(price: i64, percent_off: i64) -> i64 {
    price * (100 - percent_off) / 100 / 100 * 100
}

fn slugify(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}

/// SplitMix64, seeded from a string: tiny and deterministic, enough to vary dates,
/// ratings, sales and stock without making them look generated.
struct Rng(u64);

impl Rng {
    fn seeded(key: &str) -> Self {
        // FNV-1a.
        let seed = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Self(seed)
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
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.range(0, items.len() as i64 - 1) as usize]
    }
}

/// Assembles the catalogue, handing out ids in order.
#[derive(Default)]
struct Shop {
    products: Vec<Product>,
    media: Vec<Media>,
}

/// Figures that make a product look lived-in: when it arrived, its reviews and sales.
struct Activity {
    created_at: i64,
    review_count: i64,
    rating_average_x100: i64,
    total_sales: i64,
}

impl Activity {
    fn new(spec: &Spec, rng: &mut Rng) -> Self {
        let is_new = spec.has_tag(Tg::New);
        let bestseller = spec.has_tag(Tg::Bestseller);
        let age_days = if is_new {
            rng.range(2, 13)
        } else {
            rng.range(15, 178)
        };
        let created_at = NOW - age_days * DAY - rng.range(0, DAY - 1);
        let review_count = if is_new || rng.range(0, 4) == 0 {
            0
        } else if bestseller {
            rng.range(60, 320)
        } else {
            rng.range(2, 90)
        };
        let rating_average_x100 = if review_count == 0 {
            0
        } else {
            rng.range(370, 500)
        };
        let total_sales = if is_new {
            rng.range(0, 40)
        } else if bestseller {
            rng.range(600, 1_500)
        } else {
            rng.range(5, 450)
        };
        Self {
            created_at,
            review_count,
            rating_average_x100,
            total_sales,
        }
    }
}

fn swatch(c: &Colour) -> Swatch<'static> {
    Swatch {
        name: c.name,
        rgb: Rgb::from_hex(c.hex).expect("colour hex"),
    }
}

/// The global Color and Size attributes, plus the custom Material one when known.
fn product_attributes(spec: &Spec) -> Vec<ProductAttribute> {
    let global = |id, name: &str, values: &[&str], used_for_variations| ProductAttribute {
        attribute_id: Some(id),
        name: name.to_owned(),
        values: values.iter().map(|v| v.to_string()).collect(),
        visible: true,
        used_for_variations,
        default_value: String::new(),
    };
    let mut attributes = vec![global(
        COLOR,
        "Color",
        &spec.colours,
        spec.kind() == ProductKind::Variable,
    )];
    if !spec.sizes.is_empty() {
        attributes.push(global(SIZE, "Size", spec.sizes, true));
    }
    if let Some(material) = spec.material {
        attributes.push(ProductAttribute {
            attribute_id: None,
            name: "Material".to_owned(),
            values: vec![material.to_owned()],
            visible: true,
            used_for_variations: false,
            default_value: String::new(),
        });
    }
    attributes
}

impl Shop {
    fn next_product_id(&self) -> ProductId {
        ProductId(FIRST_PRODUCT_ID + self.products.len() as i64)
    }

    /// Draws a product's images: one front shot per colour of a variable product (the
    /// variations show these), then staged shots. Returns every image id in order and
    /// the front shot of each colour.
    fn add_images(
        &mut self,
        index: usize,
        spec: &Spec,
        slug: &str,
    ) -> (Vec<MediaId>, Vec<MediaId>) {
        let colours: Vec<&Colour> = spec.colours.iter().map(|slug| colour(slug)).collect();
        let art = |view, first: &Colour, second: Option<&Colour>| Artwork {
            silhouette: spec.art,
            view,
            colour: swatch(first),
            second: second.map(swatch),
            variant: index,
        };
        let shots: Vec<Artwork<'_>> = if spec.kind() == ProductKind::Variable {
            let fronts = colours.iter().map(|c| art(View::Front, c, None));
            let staged = [
                art(View::Duo, colours[0], colours.get(1).copied()),
                art(View::Scene, colours[0], None),
                art(View::Detail, colours[colours.len() - 1], None),
            ];
            fronts.chain(staged).collect()
        } else {
            [View::Front, View::Scene, View::Detail]
                .map(|view| art(view, colours[0], None))
                .into()
        };
        let mut ids = Vec::with_capacity(shots.len());
        for (n, shot) in shots.into_iter().enumerate() {
            let id = MediaId(self.media.len() as i64 + 1);
            self.media
                .push(shot.to_media(id, format!("{slug}-{}.svg", n + 1), spec.name));
            ids.push(id);
        }
        let colour_fronts = if spec.kind() == ProductKind::Variable {
            ids[..colours.len()].to_vec()
        } else {
            Vec::new()
        };
        (ids, colour_fronts)
    }

    fn add(&mut self, index: usize, spec: &Spec) {
        let mut rng = Rng::seeded(spec.sku);
        let kind = spec.kind();
        let id = self.next_product_id();
        let slug = slugify(spec.name);
        let activity = Activity::new(spec, &mut rng);
        let (image_ids, colour_fronts) = self.add_images(index, spec, &slug);
        let (weight, dimensions) = physical(spec.art);
        let shipped_by_us = kind != ProductKind::External;
        let (external_url, button_text) = spec.external.unwrap_or_default();
        let mut product = Product {
            id,
            parent_id: None,
            kind,
            status: ProductStatus::Publish,
            visibility: CatalogVisibility::Visible,
            name: spec.name.to_owned(),
            slug,
            sku: spec.sku.to_owned(),
            short_description: format!("<p>{}</p>", spec.blurb),
            description: description(spec, index, &mut rng),
            menu_order: spec.menu_order,
            created_at: activity.created_at,
            updated_at: activity.created_at,
            featured: spec.featured,
            regular_price: Some(spec.price),
            sale_price: spec.sale_price,
            sale_from: None,
            sale_to: None,
            manage_stock: false,
            stock_quantity: None,
            stock_status: StockStatus::InStock,
            backorders: Backorders::No,
            low_stock_amount: None,
            min_quantity: spec.min_quantity,
            max_quantity: spec.max_quantity,
            sold_individually: spec.sold_individually,
            weight_grams: shipped_by_us.then_some(weight),
            dimensions: shipped_by_us.then_some(dimensions),
            external_url: external_url.to_owned(),
            button_text: button_text.to_owned(),
            rating_average_x100: activity.rating_average_x100,
            review_count: activity.review_count,
            total_sales: activity.total_sales,
            tax_status: TaxStatus::Taxable,
            tax_class: String::new(),
            is_virtual: false,
            reviews_allowed: true,
            purchase_note: String::new(),
            upsell_ids: Vec::new(),
            cross_sell_ids: Vec::new(),
            // Heavy goods travel as bulky parcels, which the demo's flat rate charges extra.
            shipping_class: if shipped_by_us && weight >= 1500 {
                "bulky".to_owned()
            } else {
                String::new()
            },
            image_ids,
            category_ids: [
                Some(spec.category),
                spec.category.def().parent,
                spec.also_in,
            ]
            .into_iter()
            .flatten()
            .map(Cat::id)
            .collect(),
            brand_ids: vec![spec.brand.id()],
            tag_ids: spec.tags.iter().map(|t| t.id()).collect(),
            attributes: product_attributes(spec),
            variation: Vec::new(),
        };
        match spec.stock {
            Stock::Unmanaged => {}
            Stock::Managed(quantity) => {
                product.manage_stock = true;
                product.stock_quantity = Some(quantity);
                product.low_stock_amount = Some(LOW_STOCK);
            }
            Stock::SoldOut => {
                product.manage_stock = true;
                product.stock_quantity = Some(0);
                product.low_stock_amount = Some(LOW_STOCK);
                product.stock_status = StockStatus::OutOfStock;
            }
            Stock::Backorder => {
                product.manage_stock = true;
                product.stock_quantity = Some(0);
                product.backorders = Backorders::Yes;
                product.stock_status = StockStatus::OnBackorder;
            }
        }
        if kind == ProductKind::Variable {
            // A variable product's prices, stock and sales are those of its variations.
            product.regular_price = None;
            product.sale_price = None;
            self.products.push(product);
            self.add_variations(spec, &colour_fronts, activity.total_sales, &mut rng);
        } else {
            self.products.push(product);
        }
    }

    /// Adds one variation per colour and size after the parent just added, then settles
    /// the parent's stock status and sales from them.
    fn add_variations(
        &mut self,
        spec: &Spec,
        colour_fronts: &[MediaId],
        sales: i64,
        rng: &mut Rng,
    ) {
        let parent_index = self.products.len() - 1;
        let (parent_id, parent_slug, created_at) = {
            let parent = &self.products[parent_index];
            (parent.id, parent.slug.clone(), parent.created_at)
        };
        let (weight, dimensions) = physical(spec.art);
        let sizes: Vec<Option<&str>> = if spec.sizes.is_empty() {
            vec![None]
        } else {
            spec.sizes.iter().copied().map(Some).collect()
        };
        let sales_each = sales / (spec.colours.len() * sizes.len()) as i64;
        for (&colour_slug, &image) in spec.colours.iter().zip(colour_fronts) {
            let c = colour(colour_slug);
            for &size in &sizes {
                let id = self.next_product_id();
                let regular = spec.price + size.map_or(0, |s| size_premium(s, spec.price));
                let sale = spec
                    .colour_sale
                    .filter(|(on_sale, _)| *on_sale == c.slug)
                    .map(|(_, percent_off)| discounted(regular, percent_off));
                let quantity = spec
                    .variation_stock
                    .iter()
                    .find(|(colour, s, _)| *colour == c.slug && *s == size.unwrap_or(""))
                    .map_or_else(|| rng.range(4, 30), |(_, _, quantity)| *quantity);

                let mut name = format!("{} - {}", spec.name, c.name);
                let mut sku = format!("{}-{}", spec.sku, c.slug.to_uppercase());
                let mut variation = vec![VariationValue {
                    attribute: "pa_color".to_owned(),
                    value: c.slug.to_owned(),
                }];
                if let Some(size) = size {
                    name = format!("{name}, {}", size_name(size));
                    sku = format!("{sku}-{}", size.to_uppercase());
                    variation.push(VariationValue {
                        attribute: "pa_size".to_owned(),
                        value: size.to_owned(),
                    });
                }
                self.products.push(Product {
                    id,
                    parent_id: Some(parent_id),
                    kind: ProductKind::Variation,
                    status: ProductStatus::Publish,
                    visibility: CatalogVisibility::Visible,
                    name,
                    slug: format!("{parent_slug}-{id}"),
                    sku,
                    short_description: String::new(),
                    description: String::new(),
                    menu_order: (self.products.len() - parent_index - 1) as i64,
                    created_at,
                    updated_at: created_at,
                    featured: false,
                    regular_price: Some(regular),
                    sale_price: sale,
                    sale_from: None,
                    sale_to: None,
                    manage_stock: true,
                    stock_quantity: Some(quantity),
                    stock_status: if quantity > 0 {
                        StockStatus::InStock
                    } else {
                        StockStatus::OutOfStock
                    },
                    backorders: Backorders::No,
                    low_stock_amount: Some(VARIATION_LOW_STOCK),
                    min_quantity: 1,
                    max_quantity: None,
                    sold_individually: false,
                    weight_grams: Some(weight),
                    dimensions: Some(dimensions),
                    external_url: String::new(),
                    button_text: String::new(),
                    rating_average_x100: 0,
                    review_count: 0,
                    total_sales: rng.range(0, 2 * sales_each),
                    tax_status: TaxStatus::Taxable,
                    tax_class: String::new(),
                    is_virtual: false,
                    reviews_allowed: true,
                    purchase_note: String::new(),
                    upsell_ids: Vec::new(),
                    cross_sell_ids: Vec::new(),
                    shipping_class: String::new(),
                    image_ids: vec![image],
                    category_ids: Vec::new(),
                    brand_ids: Vec::new(),
                    tag_ids: Vec::new(),
                    attributes: Vec::new(),
                    variation,
                });
            }
        }
        let variations = &self.products[parent_index + 1..];
        let any_in_stock = variations
            .iter()
            .any(|v| v.stock_status == StockStatus::InStock);
        let total_sales = variations.iter().map(|v| v.total_sales).sum();
        let parent = &mut self.products[parent_index];
        parent.total_sales = total_sales;
        parent.stock_status = if any_in_stock {
            StockStatus::InStock
        } else {
            StockStatus::OutOfStock
        };
    }

    fn finish(self) -> CatalogData {
        let mut products = self.products;
        link_upsells_and_cross_sells(&mut products);
        // A category shows the main image of its first product.
        let categories = CATEGORIES
            .iter()
            .enumerate()
            .map(|(position, def)| Category {
                id: def.cat.id(),
                parent_id: def.parent.map(Cat::id),
                name: def.name.to_owned(),
                slug: def.slug.to_owned(),
                description: def.description.to_owned(),
                menu_order: position as i64,
                image_id: products
                    .iter()
                    .find(|p| p.parent_id.is_none() && p.category_ids.contains(&def.cat.id()))
                    .and_then(|p| p.image_ids.first().copied()),
            })
            .collect();
        let brands = BRANDS
            .iter()
            .enumerate()
            .map(|(i, (name, slug, description))| Brand {
                id: BrandId(i as i64 + 1),
                name: (*name).to_owned(),
                slug: (*slug).to_owned(),
                description: (*description).to_owned(),
                image_id: None,
            })
            .collect();
        let tags = TAGS
            .iter()
            .enumerate()
            .map(|(i, (name, slug))| Tag {
                id: TagId(i as i64 + 1),
                name: (*name).to_owned(),
                slug: (*slug).to_owned(),
            })
            .collect();
        // Term ids run on from colours into sizes, so they are unique across attributes.
        // Colours are offered as colour swatches, sizes as labelled ones.
        let colour_terms = COLOURS.iter().map(|c| (c.name, c.slug, c.hex));
        let size_terms = SIZES.iter().map(|&(name, slug)| (name, slug, ""));
        let mut terms = colour_terms
            .chain(size_terms)
            .enumerate()
            .map(|(i, (name, slug, hex))| Term {
                id: TermId(i as i64 + 1),
                name: name.to_owned(),
                slug: slug.to_owned(),
                color: hex.to_owned(),
                image_id: None,
            });
        let attributes = vec![
            Attribute {
                id: COLOR,
                name: "Color".to_owned(),
                taxonomy: "pa_color".to_owned(),
                swatch: SwatchType::Color,
                terms: terms.by_ref().take(COLOURS.len()).collect(),
            },
            Attribute {
                id: SIZE,
                name: "Size".to_owned(),
                taxonomy: "pa_size".to_owned(),
                swatch: SwatchType::Label,
                terms: terms.collect(),
            },
        ];
        CatalogData {
            categories,
            brands,
            tags,
            attributes,
            media: self.media,
            products,
        }
    }
}

/// Upsells: the next dearer products of the same category (up to two). Cross-sells:
/// the two best-selling products of the small things one adds to an order
/// (accessories and stationery), from a category of their own.
fn link_upsells_and_cross_sells(products: &mut [Product]) {
    let top: Vec<(ProductId, CategoryId, i64, i64)> = products
        .iter()
        .filter(|p| p.parent_id.is_none() && p.kind != ProductKind::External)
        .filter_map(|p| {
            let category = *p.category_ids.first()?;
            Some((p.id, category, p.regular_price.unwrap_or(0), p.total_sales))
        })
        .collect();
    let small_things = [Cat::Accessories.id(), Cat::Stationery.id()];
    for p in products.iter_mut().filter(|p| p.parent_id.is_none()) {
        let Some(&category) = p.category_ids.first() else {
            continue;
        };
        let price = p.regular_price.unwrap_or(0);
        let mut dearer: Vec<_> = top
            .iter()
            .filter(|(id, c, pr, _)| *id != p.id && *c == category && *pr > price)
            .collect();
        dearer.sort_by_key(|(id, _, pr, _)| (*pr, *id));
        p.upsell_ids = dearer.iter().take(2).map(|(id, ..)| *id).collect();
        let mut extras: Vec<_> = top
            .iter()
            .filter(|(id, c, ..)| *id != p.id && small_things.contains(c) && *c != category)
            .collect();
        extras.sort_by_key(|(id, _, _, sales)| (std::cmp::Reverse(*sales), *id));
        p.cross_sell_ids = extras.iter().take(2).map(|(id, ..)| *id).collect();
    }
}

/// The full demo catalogue. Deterministic: every call returns identical data.
pub fn demo_catalog() -> CatalogData {
    let mut shop = Shop::default();
    for (index, spec) in products().iter().enumerate() {
        shop.add(index, spec);
    }
    let mut data = shop.finish();
    // Each product's figures are those of the reviews the demo shop is seeded with.
    crate::reviews::demo::agree(&mut data);
    data
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;

    fn top_level(data: &CatalogData) -> Vec<&Product> {
        data.products
            .iter()
            .filter(|p| p.parent_id.is_none())
            .collect()
    }

    fn assert_unique<T: Eq + std::hash::Hash + std::fmt::Debug>(
        what: &str,
        items: impl IntoIterator<Item = T>,
    ) {
        let mut seen = HashSet::new();
        for item in items {
            assert!(
                seen.insert(format!("{item:?}")),
                "duplicate {what}: {item:?}"
            );
        }
    }

    #[test]
    fn is_deterministic() {
        let (a, b) = (demo_catalog(), demo_catalog());
        assert_eq!(a, b);
        let bodies = |d: &CatalogData| d.media.iter().map(|m| m.body.clone()).collect::<Vec<_>>();
        assert_eq!(bodies(&a), bodies(&b));
    }

    #[test]
    fn lookup_tables_follow_their_enums() {
        for (i, def) in CATEGORIES.iter().enumerate() {
            assert_eq!(def.cat as usize, i, "{}", def.name);
        }
        assert_eq!(Br::EmberOak as usize + 1, BRANDS.len());
        assert_eq!(Tg::LimitedEdition as usize + 1, TAGS.len());
    }

    #[test]
    fn has_enough_products_categories_and_brands() {
        let data = demo_catalog();
        let products = top_level(&data);
        assert!(products.len() >= 48, "{} products", products.len());
        assert!(data.categories.len() >= 6);
        assert!(
            data.categories
                .iter()
                .filter(|c| c.parent_id.is_some())
                .count()
                >= 2
        );
        for category in &data.categories {
            let count = products
                .iter()
                .filter(|p| p.category_ids.contains(&category.id))
                .count();
            assert!(count >= 4, "{} has {count} products", category.name);
            assert!(!category.description.is_empty(), "{}", category.name);
        }
        assert!(data.brands.len() >= 10);
        for brand in &data.brands {
            let count = products
                .iter()
                .filter(|p| p.brand_ids == [brand.id])
                .count();
            assert!(count >= 2, "{} has {count} products", brand.name);
            assert!(!brand.description.is_empty(), "{}", brand.name);
        }
        for product in &products {
            assert_eq!(product.brand_ids.len(), 1, "{}", product.name);
            assert!(!product.category_ids.is_empty(), "{}", product.name);
        }
        assert!(data.tags.len() >= 5);
        assert!(products.iter().filter(|p| !p.tag_ids.is_empty()).count() >= 10);
    }

    #[test]
    fn global_attributes_have_unique_lowercase_terms() {
        let data = demo_catalog();
        let taxonomies: Vec<&str> = data
            .attributes
            .iter()
            .map(|a| a.taxonomy.as_str())
            .collect();
        assert_eq!(taxonomies, ["pa_color", "pa_size"]);
        let terms: Vec<&Term> = data.attributes.iter().flat_map(|a| &a.terms).collect();
        assert_unique("term id", terms.iter().map(|t| t.id));
        for attribute in &data.attributes {
            assert_unique("term slug", attribute.terms.iter().map(|t| &t.slug));
        }
        for term in terms {
            assert_eq!(term.slug, term.slug.to_lowercase());
            assert_eq!(term.slug, slugify(&term.name));
        }
        let sizes: Vec<&str> = data.attributes[1]
            .terms
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        assert!(["XS", "S", "M", "L", "XL"]
            .iter()
            .all(|s| sizes.contains(s)));
    }

    #[test]
    fn ids_slugs_skus_and_file_names_are_unique() {
        let data = demo_catalog();
        assert_unique("product id", data.products.iter().map(|p| p.id));
        assert_unique("product slug", data.products.iter().map(|p| &p.slug));
        assert_unique("sku", data.products.iter().map(|p| &p.sku));
        assert_unique("media id", data.media.iter().map(|m| m.id));
        assert_unique("file name", data.media.iter().map(|m| &m.file_name));
        assert_unique("category id", data.categories.iter().map(|c| c.id));
        assert_unique("category name", data.categories.iter().map(|c| &c.name));
        assert_unique("category slug", data.categories.iter().map(|c| &c.slug));
        assert_unique("brand id", data.brands.iter().map(|b| b.id));
        assert_unique("brand name", data.brands.iter().map(|b| &b.name));
        assert_unique("brand slug", data.brands.iter().map(|b| &b.slug));
        assert_unique("tag id", data.tags.iter().map(|t| t.id));
        assert_unique("tag slug", data.tags.iter().map(|t| &t.slug));
        for product in &data.products {
            assert!(product.id.0 > 0);
            assert!(!product.sku.is_empty(), "{}", product.name);
            assert_eq!(product.sku, product.sku.to_uppercase());
            let slug_ok = product
                .slug
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            assert!(
                slug_ok && !product.slug.starts_with('-') && !product.slug.contains("--"),
                "{}",
                product.slug
            );
        }
        for media in &data.media {
            assert!(media.id.0 > 0);
        }
    }

    #[test]
    fn references_resolve() {
        let data = demo_catalog();
        let media: HashSet<MediaId> = data.media.iter().map(|m| m.id).collect();
        let categories: HashSet<CategoryId> = data.categories.iter().map(|c| c.id).collect();
        let brands: HashSet<BrandId> = data.brands.iter().map(|b| b.id).collect();
        let tags: HashSet<TagId> = data.tags.iter().map(|t| t.id).collect();
        let attributes: HashSet<AttributeId> = data.attributes.iter().map(|a| a.id).collect();
        for p in &data.products {
            assert!(
                p.image_ids.iter().all(|id| media.contains(id)),
                "{}",
                p.name
            );
            assert!(
                p.category_ids.iter().all(|id| categories.contains(id)),
                "{}",
                p.name
            );
            assert!(
                p.brand_ids.iter().all(|id| brands.contains(id)),
                "{}",
                p.name
            );
            assert!(p.tag_ids.iter().all(|id| tags.contains(id)), "{}", p.name);
            let global = p.attributes.iter().filter_map(|a| a.attribute_id);
            assert!(
                global.clone().all(|id| attributes.contains(&id)),
                "{}",
                p.name
            );
        }
        for c in &data.categories {
            assert!(c.parent_id.is_none_or(|id| categories.contains(&id)));
            assert!(c.image_id.is_none_or(|id| media.contains(&id)));
        }
        // Every image belongs to some product.
        let used: HashSet<MediaId> = data
            .products
            .iter()
            .flat_map(|p| p.image_ids.iter().copied())
            .collect();
        assert_eq!(used, media);
    }

    #[test]
    fn variable_products_and_variations_are_consistent() {
        let data = demo_catalog();
        let by_id: HashMap<ProductId, &Product> = data.products.iter().map(|p| (p.id, p)).collect();
        let terms: HashMap<&str, HashSet<&str>> = data
            .attributes
            .iter()
            .map(|a| {
                (
                    a.taxonomy.as_str(),
                    a.terms.iter().map(|t| t.slug.as_str()).collect(),
                )
            })
            .collect();
        let variable: Vec<&Product> = top_level(&data)
            .into_iter()
            .filter(|p| p.kind == ProductKind::Variable)
            .collect();
        let with_both = variable
            .iter()
            .filter(|p| {
                p.attributes
                    .iter()
                    .filter(|a| a.used_for_variations)
                    .count()
                    == 2
            })
            .count();
        assert!(
            with_both >= 12,
            "{with_both} variable products use colour and size"
        );

        for parent in &variable {
            assert_eq!(parent.regular_price, None);
            assert_eq!(parent.sale_price, None);
            let children: Vec<&Product> = data
                .products
                .iter()
                .filter(|p| p.parent_id == Some(parent.id))
                .collect();
            assert!(!children.is_empty(), "{}", parent.name);
            let used: Vec<&ProductAttribute> = parent
                .attributes
                .iter()
                .filter(|a| a.used_for_variations)
                .collect();
            assert!(used.iter().all(|a| a.visible && a.attribute_id.is_some()));
            let colours = &used
                .iter()
                .find(|a| a.attribute_id == Some(COLOR))
                .unwrap()
                .values;
            assert!(
                parent.image_ids.len() > colours.len(),
                "{}: one image per colour plus more",
                parent.name
            );
            let any_in_stock = children
                .iter()
                .any(|c| c.stock_status == StockStatus::InStock);
            assert_eq!(
                parent.stock_status == StockStatus::InStock,
                any_in_stock,
                "{}",
                parent.name
            );
            assert_eq!(
                parent.total_sales,
                children.iter().map(|c| c.total_sales).sum::<i64>()
            );

            let mut colour_image: HashMap<&str, MediaId> = HashMap::new();
            for child in children {
                assert_eq!(child.kind, ProductKind::Variation);
                assert!(by_id[&child.parent_id.unwrap()].kind == ProductKind::Variable);
                assert_eq!(child.slug, format!("{}-{}", parent.slug, child.id));
                assert!(child.manage_stock && child.stock_quantity.is_some());
                let in_stock = child.stock_quantity.unwrap() > 0;
                assert_eq!(
                    child.stock_status == StockStatus::InStock,
                    in_stock,
                    "{}",
                    child.name
                );
                let regular = child.regular_price.expect("variation price");
                assert!(child.sale_price.is_none_or(|sale| sale < regular));
                assert_eq!(child.image_ids.len(), 1);
                assert!(parent.image_ids.contains(&child.image_ids[0]));

                assert_eq!(child.variation.len(), used.len(), "{}", child.name);
                let mut sku = parent.sku.clone();
                let mut name_parts = Vec::new();
                for value in &child.variation {
                    assert!(terms[value.attribute.as_str()].contains(value.value.as_str()));
                    let attribute = used
                        .iter()
                        .find(|a| {
                            value.attribute
                                == if a.attribute_id == Some(COLOR) {
                                    "pa_color"
                                } else {
                                    "pa_size"
                                }
                        })
                        .expect("variation attribute is one of the parent's");
                    assert!(
                        attribute.values.contains(&value.value),
                        "{}: {}",
                        child.name,
                        value.value
                    );
                    sku = format!("{sku}-{}", value.value.to_uppercase());
                    let term_name = data
                        .attributes
                        .iter()
                        .flat_map(|a| &a.terms)
                        .find(|t| t.slug == value.value)
                        .map(|t| t.name.clone())
                        .unwrap();
                    name_parts.push(term_name);
                }
                assert_eq!(child.sku, sku);
                assert_eq!(
                    child.name,
                    format!("{} - {}", parent.name, name_parts.join(", "))
                );
                let colour = child.variation[0].value.as_str();
                let image = *colour_image.entry(colour).or_insert(child.image_ids[0]);
                assert_eq!(
                    image, child.image_ids[0],
                    "{}: same colour, same image",
                    child.name
                );
            }
            assert_eq!(colour_image.len(), colours.len());
            let distinct: HashSet<MediaId> = colour_image.values().copied().collect();
            assert_eq!(
                distinct.len(),
                colours.len(),
                "{}: each colour has its own image",
                parent.name
            );
        }

        let variations: Vec<&Product> = data
            .products
            .iter()
            .filter(|p| p.kind == ProductKind::Variation)
            .collect();
        assert!(variations
            .iter()
            .any(|v| v.stock_quantity == Some(0) && v.stock_status == StockStatus::OutOfStock));
        assert!(variations.iter().any(|v| v.stock_quantity == Some(2)));
        assert!(variations.iter().any(|v| v.sale_price.is_some()));
        let premium = variations.iter().any(|v| {
            let parent = by_id[&v.parent_id.unwrap()];
            data.products.iter().any(|sibling| {
                sibling.parent_id == Some(parent.id) && sibling.regular_price < v.regular_price
            })
        });
        assert!(premium, "some sizes cost more");
    }

    #[test]
    fn externals_are_priced_links_without_stock() {
        let data = demo_catalog();
        let externals: Vec<&Product> = data
            .products
            .iter()
            .filter(|p| p.kind == ProductKind::External)
            .collect();
        assert_eq!(externals.len(), 2);
        for p in externals {
            assert!(
                p.external_url.starts_with("https://example.com/"),
                "{}",
                p.external_url
            );
            assert!(!p.button_text.is_empty());
            assert!(p.regular_price.is_some());
            assert!(!p.manage_stock && p.stock_quantity.is_none());
        }
    }

    #[test]
    fn simple_products_cover_pricing_and_stock_cases() {
        let data = demo_catalog();
        let simple: Vec<&Product> = data
            .products
            .iter()
            .filter(|p| p.kind == ProductKind::Simple)
            .collect();
        let prices: Vec<i64> = simple.iter().filter_map(|p| p.regular_price).collect();
        assert!(prices.iter().min().unwrap() <= &800 && prices.iter().max().unwrap() >= &18_000);
        assert_eq!(
            prices.len(),
            simple.len(),
            "every simple product has a price"
        );
        let on_sale = simple.iter().filter(|p| p.sale_price.is_some()).count();
        assert!(on_sale >= 5, "{on_sale} on sale");
        for p in &simple {
            if let Some(sale) = p.sale_price {
                assert!(sale < p.regular_price.unwrap(), "{}", p.name);
            }
        }
        let out = simple
            .iter()
            .filter(|p| {
                p.stock_status == StockStatus::OutOfStock
                    && p.manage_stock
                    && p.stock_quantity == Some(0)
            })
            .count();
        assert!(out >= 3, "{out} out of stock");
        assert!(simple.iter().any(|p| p.backorders == Backorders::Yes
            && p.stock_quantity == Some(0)
            && p.stock_status == StockStatus::OnBackorder));
        let low = simple
            .iter()
            .filter(|p| {
                p.manage_stock
                    && p.stock_quantity.is_some_and(|q| (1..=8).contains(&q))
                    && p.low_stock_amount == Some(5)
            })
            .count();
        assert!(low >= 3, "{low} with low stock");
        assert!(simple.iter().any(|p| p.sold_individually));
        assert!(simple.iter().any(|p| p.min_quantity == 2));
        assert!(simple.iter().any(|p| p.max_quantity == Some(10)));
        assert!(
            simple
                .iter()
                .filter(|p| !p.manage_stock && p.stock_status == StockStatus::InStock)
                .count()
                > simple.len() / 2
        );
        let custom = simple.iter().any(|p| {
            p.attributes
                .iter()
                .any(|a| a.attribute_id.is_none() && a.visible && !a.used_for_variations)
        });
        assert!(custom, "some simple products have a custom attribute");
    }

    #[test]
    fn products_read_like_a_real_shop() {
        let data = demo_catalog();
        let products = top_level(&data);
        let featured = products.iter().filter(|p| p.featured).count();
        assert!((5..=8).contains(&featured), "{featured} featured");
        assert!(products.iter().any(|p| p.menu_order < 0));
        assert!(products
            .iter()
            .any(|p| p.review_count == 0 && p.rating_average_x100 == 0));
        assert!(products.iter().filter(|p| p.review_count > 0).count() > products.len() / 2);
        let sales: HashSet<i64> = products.iter().map(|p| p.total_sales).collect();
        assert!(sales.len() > products.len() / 2, "sales figures vary");
        let descriptions: HashSet<&str> = products.iter().map(|p| p.description.as_str()).collect();
        assert_eq!(descriptions.len(), products.len());
        for p in &products {
            assert!((0..=500).contains(&p.rating_average_x100), "{}", p.name);
            assert_eq!(
                p.review_count == 0,
                p.rating_average_x100 == 0,
                "{}",
                p.name
            );
            assert!(
                p.created_at <= NOW && p.created_at > NOW - 181 * DAY,
                "{}",
                p.name
            );
            assert!(
                p.short_description.starts_with("<p>") && p.short_description.ends_with("</p>")
            );
            assert!(p.short_description.len() > 30, "{}", p.name);
            assert!(
                p.description.matches("<p>").count() >= 2 && !p.description.contains('{'),
                "{}",
                p.name
            );
            assert_eq!(p.slug, slugify(&p.name));
            if p.kind != ProductKind::External {
                assert!(
                    p.weight_grams.is_some() && p.dimensions.is_some(),
                    "{}",
                    p.name
                );
            }
        }
    }

    #[test]
    fn every_product_has_three_distinct_images() {
        let data = demo_catalog();
        for p in top_level(&data) {
            let distinct: HashSet<MediaId> = p.image_ids.iter().copied().collect();
            assert!(
                distinct.len() >= 3,
                "{} has {} images",
                p.name,
                distinct.len()
            );
            assert_eq!(distinct.len(), p.image_ids.len(), "{}", p.name);
            let media: HashMap<MediaId, &Media> = data.media.iter().map(|m| (m.id, m)).collect();
            let bodies: HashSet<&[u8]> = p
                .image_ids
                .iter()
                .map(|id| media[id].body.as_slice())
                .collect();
            assert_eq!(
                bodies.len(),
                p.image_ids.len(),
                "{}: images must look different",
                p.name
            );
            for (n, id) in p.image_ids.iter().enumerate() {
                assert_eq!(media[id].file_name, format!("{}-{}.svg", p.slug, n + 1));
            }
        }
    }

    #[test]
    fn media_are_small_svgs_with_alt_text() {
        let data = demo_catalog();
        for m in &data.media {
            assert_eq!(m.mime_type, "image/svg+xml");
            assert_eq!((m.width, m.height), (800, 800));
            assert!(!m.alt.is_empty(), "{}", m.file_name);
            let svg = std::str::from_utf8(&m.body).expect("utf-8");
            assert!(
                svg.starts_with("<svg") && svg.ends_with("</svg>"),
                "{}",
                m.file_name
            );
            assert!(
                m.body.len() < 8 * 1024,
                "{} is {} bytes",
                m.file_name,
                m.body.len()
            );
            assert_eq!(svg.matches("<svg").count(), 1);
        }
    }

    #[test]
    fn helpers_behave() {
        assert_eq!(slugify("Smoke & Vetiver Candle"), "smoke-vetiver-candle");
        assert_eq!(slugify("  Roll-Top!  "), "roll-top");
        assert_eq!(discounted(6_800, 20), 5_400);
        assert_eq!(lowercase_first("Organic cotton"), "organic cotton");
        let mut a = Rng::seeded("x");
        let mut b = Rng::seeded("x");
        assert_eq!((a.next(), a.range(3, 5)), (b.next(), b.range(3, 5)));
        assert!((0..1000).all(|_| (3..=5).contains(&a.range(3, 5))));
    }
}
