//! Product artwork drawn as SVG, so the demo shop has real images without downloads.
//! A [`Silhouette`] is a flat illustration of one product type in an 800×800 frame;
//! a [`View`] stages it: studio front shot, styled scene, close-up or two-colour flat lay.

use std::fmt::{self, Write};

use rules::catalog::model::{Media, MediaId};

/// Width and height of every generated image, in pixels.
pub const IMAGE_SIZE: i64 = 800;

/// Writes formatted SVG into a `String`; formatting into a `String` cannot fail.
macro_rules! svg {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Parses `#rrggbb`.
    pub fn from_hex(hex: &str) -> Option<Self> {
        let digits = hex.strip_prefix('#')?;
        if digits.len() != 6 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(digits, 16).ok()?;
        Some(Self((v >> 16) as u8, (v >> 8) as u8, v as u8))
    }

    /// Blends towards `other`: 0 keeps `self`, 1 gives `other`.
    pub fn mix(self, other: Self, t: f32) -> Self {
        let channel = |a: u8, b: u8| {
            (f32::from(a) + (f32::from(b) - f32::from(a)) * t)
                .round()
                .clamp(0.0, 255.0) as u8
        };
        Self(
            channel(self.0, other.0),
            channel(self.1, other.1),
            channel(self.2, other.2),
        )
    }

    pub fn darken(self, t: f32) -> Self {
        self.mix(Self(0, 0, 0), t)
    }

    pub fn lighten(self, t: f32) -> Self {
        self.mix(Self(255, 255, 255), t)
    }

    /// Perceived lightness, from 0 (black) to 1 (white).
    pub fn luma(self) -> f32 {
        (0.299 * f32::from(self.0) + 0.587 * f32::from(self.1) + 0.114 * f32::from(self.2)) / 255.0
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// A coordinate or factor printed with at most two decimals, to keep files small.
struct Num(f32);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = (self.0 * 100.0).round() / 100.0;
        if v.fract() == 0.0 {
            write!(f, "{}", v as i64)
        } else {
            write!(f, "{v}")
        }
    }
}

/// The product types the shop can illustrate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Silhouette {
    TShirt,
    Hoodie,
    Sweater,
    Jacket,
    Cap,
    Beanie,
    Scarf,
    Socks,
    Sneaker,
    Tote,
    Backpack,
    Wallet,
    Mug,
    Bowl,
    Bottle,
    Candle,
    PlantPot,
    Vase,
    Lamp,
    Cushion,
    Throw,
    Notebook,
    Headphones,
    Watch,
    Sunglasses,
}

/// The drawn extent of a silhouette in the 800×800 frame.
struct Bounds {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

impl Bounds {
    fn width(&self) -> f32 {
        self.x1 - self.x0
    }

    fn height(&self) -> f32 {
        self.y1 - self.y0
    }

    fn centre(&self) -> (f32, f32) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
}

impl Silhouette {
    pub const ALL: [Self; 25] = [
        Self::TShirt,
        Self::Hoodie,
        Self::Sweater,
        Self::Jacket,
        Self::Cap,
        Self::Beanie,
        Self::Scarf,
        Self::Socks,
        Self::Sneaker,
        Self::Tote,
        Self::Backpack,
        Self::Wallet,
        Self::Mug,
        Self::Bowl,
        Self::Bottle,
        Self::Candle,
        Self::PlantPot,
        Self::Vase,
        Self::Lamp,
        Self::Cushion,
        Self::Throw,
        Self::Notebook,
        Self::Headphones,
        Self::Watch,
        Self::Sunglasses,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::TShirt => "t-shirt",
            Self::Hoodie => "hoodie",
            Self::Sweater => "sweater",
            Self::Jacket => "jacket",
            Self::Cap => "cap",
            Self::Beanie => "beanie",
            Self::Scarf => "scarf",
            Self::Socks => "socks",
            Self::Sneaker => "sneaker",
            Self::Tote => "tote bag",
            Self::Backpack => "backpack",
            Self::Wallet => "wallet",
            Self::Mug => "mug",
            Self::Bowl => "bowl",
            Self::Bottle => "bottle",
            Self::Candle => "candle",
            Self::PlantPot => "plant pot",
            Self::Vase => "vase",
            Self::Lamp => "lamp",
            Self::Cushion => "cushion",
            Self::Throw => "throw",
            Self::Notebook => "notebook",
            Self::Headphones => "headphones",
            Self::Watch => "watch",
            Self::Sunglasses => "sunglasses",
        }
    }

    /// Garments hang from a rail in scene shots; everything else stands on a table.
    fn is_garment(self) -> bool {
        matches!(
            self,
            Self::TShirt | Self::Hoodie | Self::Sweater | Self::Jacket
        )
    }

    fn bounds(self) -> Bounds {
        let (x0, y0, x1, y1) = match self {
            Self::TShirt => (186.0, 204.0, 614.0, 612.0),
            Self::Hoodie | Self::Sweater | Self::Jacket => (152.0, 152.0, 648.0, 622.0),
            Self::Cap => (190.0, 188.0, 610.0, 526.0),
            Self::Beanie => (240.0, 120.0, 560.0, 530.0),
            Self::Scarf => (248.0, 172.0, 552.0, 630.0),
            Self::Socks => (286.0, 152.0, 620.0, 642.0),
            Self::Sneaker => (158.0, 300.0, 662.0, 588.0),
            Self::Tote => (222.0, 156.0, 578.0, 648.0),
            Self::Backpack => (236.0, 178.0, 564.0, 628.0),
            Self::Wallet => (222.0, 292.0, 578.0, 568.0),
            Self::Mug => (262.0, 282.0, 600.0, 600.0),
            Self::Bowl => (210.0, 312.0, 590.0, 606.0),
            Self::Bottle => (310.0, 142.0, 490.0, 642.0),
            Self::Candle => (284.0, 214.0, 516.0, 600.0),
            Self::PlantPot => (264.0, 186.0, 536.0, 642.0),
            Self::Vase => (272.0, 56.0, 528.0, 636.0),
            Self::Lamp => (236.0, 186.0, 564.0, 616.0),
            Self::Cushion => (222.0, 244.0, 578.0, 586.0),
            Self::Throw => (200.0, 306.0, 620.0, 602.0),
            Self::Notebook => (258.0, 180.0, 550.0, 652.0),
            Self::Headphones => (190.0, 166.0, 610.0, 590.0),
            Self::Watch => (300.0, 146.0, 536.0, 654.0),
            Self::Sunglasses => (158.0, 324.0, 642.0, 488.0),
        };
        Bounds { x0, y0, x1, y1 }
    }

    /// The spot a close-up zooms into: the detail a shopper would want to inspect.
    fn focus(self) -> (f32, f32) {
        match self {
            Self::TShirt => (450.0, 300.0),
            Self::Hoodie => (400.0, 290.0),
            Self::Sweater => (400.0, 330.0),
            Self::Jacket => (380.0, 400.0),
            Self::Cap => (400.0, 350.0),
            Self::Beanie => (420.0, 440.0),
            Self::Scarf => (380.0, 520.0),
            Self::Socks => (470.0, 560.0),
            Self::Sneaker => (440.0, 430.0),
            Self::Tote => (400.0, 470.0),
            Self::Backpack => (400.0, 430.0),
            Self::Wallet => (370.0, 420.0),
            Self::Mug => (430.0, 400.0),
            Self::Bowl => (400.0, 420.0),
            Self::Bottle => (400.0, 300.0),
            Self::Candle => (400.0, 380.0),
            Self::PlantPot => (400.0, 440.0),
            Self::Vase => (400.0, 300.0),
            Self::Lamp => (400.0, 370.0),
            Self::Cushion => (400.0, 415.0),
            Self::Throw => (520.0, 440.0),
            Self::Notebook => (430.0, 320.0),
            Self::Headphones => (280.0, 460.0),
            Self::Watch => (400.0, 400.0),
            Self::Sunglasses => (310.0, 410.0),
        }
    }

    fn draw(self, t: Tones, o: &mut String) {
        match self {
            Self::TShirt => tshirt(t, o),
            Self::Hoodie => hoodie(t, o),
            Self::Sweater => sweater(t, o),
            Self::Jacket => jacket(t, o),
            Self::Cap => cap(t, o),
            Self::Beanie => beanie(t, o),
            Self::Scarf => scarf(t, o),
            Self::Socks => socks(t, o),
            Self::Sneaker => sneaker(t, o),
            Self::Tote => tote(t, o),
            Self::Backpack => backpack(t, o),
            Self::Wallet => wallet(t, o),
            Self::Mug => mug(t, o),
            Self::Bowl => bowl(t, o),
            Self::Bottle => bottle(t, o),
            Self::Candle => candle(t, o),
            Self::PlantPot => plant_pot(t, o),
            Self::Vase => vase(t, o),
            Self::Lamp => lamp(t, o),
            Self::Cushion => cushion(t, o),
            Self::Throw => throw(t, o),
            Self::Notebook => notebook(t, o),
            Self::Headphones => headphones(t, o),
            Self::Watch => watch(t, o),
            Self::Sunglasses => sunglasses(t, o),
        }
    }
}

/// How a product is staged in one image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Centred on a soft gradient with a floor shadow: the main image.
    Front,
    /// On a tabletop, or on a hanger for garments, with a few props.
    Scene,
    /// A tight crop on a contrasting backdrop.
    Detail,
    /// Two items at an angle on a dotted backdrop, usually in two colours.
    Duo,
}

/// A named product colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swatch<'a> {
    /// Lowercase, as used in alt text ("navy").
    pub name: &'a str,
    pub rgb: Rgb,
}

/// One image to draw.
#[derive(Debug, Clone, Copy)]
pub struct Artwork<'a> {
    pub silhouette: Silhouette,
    pub view: View,
    pub colour: Swatch<'a>,
    /// The second item's colour in a [`View::Duo`]; the first colour is repeated without it.
    pub second: Option<Swatch<'a>>,
    /// Picks the backdrop and props, so neighbouring products in a grid look different.
    pub variant: usize,
}

impl Artwork<'_> {
    pub fn svg(&self) -> String {
        let mut o = String::with_capacity(6144);
        o.push_str(HEAD);
        match self.view {
            View::Front => self.front(&mut o),
            View::Scene if self.silhouette.is_garment() => self.hanging(&mut o),
            View::Scene => self.tabletop(&mut o),
            View::Detail => self.detail(&mut o),
            View::Duo => self.duo(&mut o),
        }
        o.push_str("</svg>");
        o
    }

    pub fn alt(&self, product: &str) -> String {
        let colour = self.colour.name;
        match self.view {
            View::Front => format!("{product} in {colour}, front view"),
            View::Scene if self.silhouette.is_garment() => {
                format!("{product} in {colour}, hanging on a wooden rail")
            }
            View::Scene => format!("{product} in {colour}, styled on a tabletop"),
            View::Detail => format!("Close-up of the {product} in {colour}"),
            View::Duo => match self.second {
                Some(second) if second.name != colour => {
                    format!(
                        "{product} in {colour} and {second}, flat lay",
                        second = second.name
                    )
                }
                _ => format!("Two {product} in {colour}, flat lay"),
            },
        }
    }

    pub fn caption(&self) -> &'static str {
        match self.view {
            View::Front => "",
            View::Scene => "Styled at home",
            View::Detail => "The details",
            View::Duo => "Colour options",
        }
    }

    pub fn to_media(&self, id: MediaId, file_name: String, product: &str) -> Media {
        Media {
            id,
            file_name,
            mime_type: "image/svg+xml".to_owned(),
            width: IMAGE_SIZE,
            height: IMAGE_SIZE,
            alt: self.alt(product),
            caption: self.caption().to_owned(),
            body: self.svg().into_bytes(),
        }
    }

    fn backdrop(&self) -> Rgb {
        let base = BACKDROPS[self.variant % BACKDROPS.len()].mix(self.colour.rgb, 0.1);
        // Pale products need a slightly deeper backdrop to stand out from it.
        if self.colour.rgb.luma() > 0.78 {
            base.darken(0.12)
        } else {
            base
        }
    }

    fn front(&self, o: &mut String) {
        let bg = self.backdrop();
        let (top, bottom) = (bg.lighten(0.4), bg.darken(0.03));
        // A white stage behind a pale product would swallow it, so it fades instead.
        let stage = if self.colour.rgb.luma() > 0.78 {
            ".2"
        } else {
            ".45"
        };
        svg!(
            o,
            r##"<defs><linearGradient id="g" x2="0" y2="1"><stop stop-color="{top}"/><stop offset="1" stop-color="{bottom}"/></linearGradient></defs><rect width="800" height="800" fill="url(#g)"/><circle cx="400" cy="392" r="300" fill="#fff" fill-opacity="{stage}"/>"##
        );
        place(
            o,
            self.silhouette,
            Tones::new(self.colour.rgb),
            (400.0, 392.0),
            (500.0, 480.0),
            0.0,
            true,
        );
    }

    fn tabletop(&self, o: &mut String) {
        let wall = self.backdrop();
        let (top, front) = TABLES[self.variant % TABLES.len()];
        // Alternate the composition so a category page is not a row of identical shots.
        let mirrored = self.variant % 2 == 1;
        let (item_x, prop_x, window_x) = if mirrored {
            (450.0, 150, 60)
        } else {
            (350.0, 650, 510)
        };
        svg!(
            o,
            r##"<rect width="800" height="800" fill="{wall}"/><path d="M{window_x} 560V230a115 115 0 0 1 230 0V560Z" fill="#fff" fill-opacity=".38"/><rect y="560" width="800" height="240" fill="{top}"/><rect y="680" width="800" height="120" fill="{front}"/><rect y="560" width="800" height="6" fill="#fff" fill-opacity=".25"/>"##
        );
        let prop = if self.variant.is_multiple_of(3) {
            BOOKS
        } else {
            SPRIG
        };
        svg!(o, r##"<g transform="translate({prop_x} 610)">{prop}</g>"##);
        let b = self.silhouette.bounds();
        let fit = (430.0, 390.0);
        let scale = (fit.0 / b.width()).min(fit.1 / b.height()).min(1.0);
        let y = 612.0 - scale * b.height() / 2.0;
        shadow(o, item_x, 610.0, scale * b.width() * 0.45, 12.0, 0.22);
        place(
            o,
            self.silhouette,
            Tones::new(self.colour.rgb),
            (item_x, y),
            (scale * b.width(), scale * b.height()),
            0.0,
            false,
        );
    }

    fn hanging(&self, o: &mut String) {
        let wall = self.backdrop();
        let (floor, _) = TABLES[self.variant % TABLES.len()];
        let b = self.silhouette.bounds();
        let (x, y, scale) = (370.0, 470.0, 0.84);
        // The hanger hook (drawn with the garment) tops out at y=122 in silhouette space.
        let rail = y + scale * (122.0 - b.centre().1);
        svg!(
            o,
            r##"<rect width="800" height="800" fill="{wall}"/><rect x="540" y="40" width="200" height="250" rx="8" fill="#fff" fill-opacity=".35"/><rect y="724" width="800" height="76" fill="{floor}"/><rect x="0" y="{r0}" width="800" height="12" rx="6" fill="#a98159"/><rect x="60" y="{r0}" width="14" height="40" rx="4" fill="#8d6a48"/><rect x="726" y="{r0}" width="14" height="40" rx="4" fill="#8d6a48"/><g transform="translate(690 724) scale(1.3)">{SPRIG}</g>"##,
            r0 = Num(rail - 6.0),
        );
        svg!(
            o,
            r##"<g transform="translate({x} {y}) scale({s}) translate({nx} {ny})">{HANGER}</g>"##,
            s = Num(scale),
            nx = Num(-b.centre().0),
            ny = Num(-b.centre().1)
        );
        place(
            o,
            self.silhouette,
            Tones::new(self.colour.rgb),
            (x, y),
            (b.width() * scale, b.height() * scale),
            0.0,
            false,
        );
    }

    fn detail(&self, o: &mut String) {
        let c = self.colour.rgb;
        let bg = if c.luma() > 0.55 {
            c.mix(Rgb(0x26, 0x2e, 0x38), 0.8)
        } else {
            Rgb(0xf4, 0xec, 0xdf).mix(c, 0.08)
        };
        let (fx, fy) = self.silhouette.focus();
        svg!(
            o,
            r##"<rect width="800" height="800" fill="{bg}"/><circle cx="600" cy="220" r="330" fill="#fff" fill-opacity=".07"/><g transform="translate(400 400) scale(1.9) translate({nx} {ny})">"##,
            nx = Num(-fx),
            ny = Num(-fy),
        );
        self.silhouette.draw(Tones::new(c), o);
        o.push_str("</g>");
    }

    fn duo(&self, o: &mut String) {
        let bg = self.backdrop();
        let second = self.second.map_or(self.colour.rgb, |s| s.rgb);
        svg!(
            o,
            r##"<defs><pattern id="p" width="36" height="36" patternUnits="userSpaceOnUse"><circle cx="18" cy="18" r="2.2" fill="#000" fill-opacity=".07"/></pattern></defs><rect width="800" height="800" fill="{bg}"/><rect width="800" height="800" fill="url(#p)"/>"##
        );
        place(
            o,
            self.silhouette,
            Tones::new(second),
            (520.0, 372.0),
            (370.0, 360.0),
            9.0,
            true,
        );
        place(
            o,
            self.silhouette,
            Tones::new(self.colour.rgb),
            (292.0, 438.0),
            (370.0, 360.0),
            -10.0,
            true,
        );
    }
}

/// Opens every image: the root element, shared classes (shade, highlight, stitching)
/// and the blur used for soft shadows.
const HEAD: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 800" width="800" height="800"><style>.o{fill:#000;fill-opacity:.09}.h{fill:#fff;fill-opacity:.16}.t{fill:none;stroke-width:2.5;stroke-dasharray:7 6;stroke-linecap:round}</style><defs><filter id="b" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="10"/></filter></defs>"##;

const BACKDROPS: [Rgb; 6] = [
    Rgb(0xf3, 0xee, 0xe7),
    Rgb(0xe8, 0xee, 0xf2),
    Rgb(0xf1, 0xea, 0xf0),
    Rgb(0xea, 0xf0, 0xe6),
    Rgb(0xf6, 0xeb, 0xe3),
    Rgb(0xee, 0xed, 0xe6),
];

/// Table top and table front colours for scene shots.
const TABLES: [(&str, &str); 3] = [
    ("#cfab84", "#b48f69"),
    ("#e3dcd1", "#cfc6b8"),
    ("#b89377", "#9c785d"),
];

/// A small potted plant, origin at the bottom centre of its pot.
const SPRIG: &str = r##"<path d="M0-64Q-50-110-46-170Q-8-130 0-64Z" fill="#6f9d62"/><path d="M2-64Q40-120 30-190Q-4-140 2-64Z" fill="#4f7f4b"/><path d="M0-64Q30-90 66-112Q50-74 0-64Z" fill="#5e8f56"/><path d="M-2-64Q-30-84-70-92Q-50-60-2-64Z" fill="#86ad74"/><path d="M-34-66H34L28-6Q27 0 21 0H-21Q-27 0-28-6Z" fill="#ddd3c6"/><path d="M-34-66H34V-56H-34Z" fill="#000" fill-opacity=".06"/>"##;

/// A stack of three books, origin at the bottom centre.
const BOOKS: &str = r##"<rect x="-84" y="-30" width="168" height="30" rx="3" fill="#c6a77e"/><rect x="-72" y="-56" width="146" height="26" rx="3" fill="#7f98aa"/><rect x="-78" y="-80" width="150" height="24" rx="3" fill="#e6ddcc"/><path d="M-70-68H64M-64-43H66M-76-15H76" stroke="#fff" stroke-opacity=".45" stroke-width="3"/>"##;

/// A wooden hanger in silhouette space, hidden behind a garment's shoulders but for its hook.
const HANGER: &str = r##"<path d="M400 214V150Q400 122 424 122Q446 122 446 144" fill="none" stroke="#8d8377" stroke-width="7" stroke-linecap="round"/><path d="M262 252L400 206L538 252" fill="none" stroke="#b8915f" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>"##;

fn shadow(o: &mut String, x: f32, y: f32, rx: f32, ry: f32, opacity: f32) {
    svg!(
        o,
        r##"<ellipse cx="{}" cy="{}" rx="{}" ry="{}" fill="#000" fill-opacity="{}" filter="url(#b)"/>"##,
        Num(x),
        Num(y),
        Num(rx),
        Num(ry),
        Num(opacity)
    );
}

/// Draws a silhouette scaled to fit `fit` and centred on `at`, optionally with a floor shadow.
fn place(
    o: &mut String,
    art: Silhouette,
    t: Tones,
    at: (f32, f32),
    fit: (f32, f32),
    angle: f32,
    with_shadow: bool,
) {
    let b = art.bounds();
    let scale = (fit.0 / b.width()).min(fit.1 / b.height()).min(1.25);
    let (cx, cy) = b.centre();
    if with_shadow {
        let y = at.1 + scale * b.height() / 2.0 + 14.0;
        shadow(o, at.0, y, scale * b.width() * 0.4, 10.0 + 8.0 * scale, 0.2);
    }
    svg!(
        o,
        r##"<g transform="translate({} {}) rotate({}) scale({}) translate({} {})">"##,
        Num(at.0),
        Num(at.1),
        Num(angle),
        Num(scale),
        Num(-cx),
        Num(-cy)
    );
    art.draw(t, o);
    o.push_str("</g>");
}

/// The palette one silhouette is painted with, derived from the product colour.
#[derive(Debug, Clone, Copy)]
struct Tones {
    /// Main surface.
    b: Rgb,
    /// Shade: cuffs, hems, undersides.
    s: Rgb,
    /// Deep shade: openings and insides.
    d: Rgb,
    /// Light accent: logos, drawstrings, prints.
    l: Rgb,
    /// Stitching, visible against the main surface.
    k: Rgb,
}

impl Tones {
    fn new(colour: Rgb) -> Self {
        // Near-black would swallow its own shading, so lift it a touch first.
        let b = if colour.luma() < 0.22 {
            colour.lighten(0.06)
        } else {
            colour
        };
        let pale = b.luma() > 0.8;
        Self {
            b,
            s: b.darken(if pale { 0.1 } else { 0.17 }),
            d: b.darken(if pale { 0.24 } else { 0.36 }),
            l: if pale {
                b.darken(0.16)
            } else {
                b.lighten(0.45)
            },
            k: if b.luma() < 0.4 {
                b.lighten(0.32)
            } else {
                b.darken(0.3)
            },
        }
    }
}

/// Draws `part` and its mirror image across the vertical centre line.
fn mirrored(o: &mut String, part: &str) {
    o.push_str(part);
    svg!(o, r##"<g transform="matrix(-1 0 0 1 800 0)">{part}</g>"##);
}

fn tshirt(t: Tones, o: &mut String) {
    let Tones { b, s, d, k, .. } = t;
    mirrored(
        o,
        &format!(
            r##"<path d="M274 236L194 290Q186 298 191 307L229 370L280 344Z" fill="{b}"/><path d="M229 370L280 344L277 316Z" class="o"/><path d="M203 314L238 364" class="t" stroke="{k}"/>"##
        ),
    );
    svg!(
        o,
        r##"<path d="M346 218Q400 252 454 218L526 236Q532 420 540 602Q400 616 260 602Q268 420 274 236Z" fill="{b}"/><path d="M498 230L526 236Q532 420 540 602Q522 605 508 606Q508 420 498 230Z" class="o"/><path d="M274 236L300 229Q294 420 290 604L260 602Q268 420 274 236Z" class="h"/><path d="M346 218Q400 204 454 218Q400 262 346 218Z" fill="{d}"/><path d="M346 218Q400 264 454 218" fill="none" stroke="{s}" stroke-width="10"/><path d="M264 586Q400 599 536 586" class="t" stroke="{k}"/><path d="M430 292h54v42q0 14-14 14h-26q-14 0-14-14z" fill="{s}"/><path d="M430 302h54" class="t" stroke="{k}"/>"##
    );
}

/// Long sleeves and the torso shared by the hoodie, sweater and jacket.
fn long_sleeved_body(t: Tones, o: &mut String) {
    let Tones { b, s, .. } = t;
    mirrored(
        o,
        &format!(
            r##"<path d="M268 244Q222 248 206 300L160 548L214 560L254 380Z" fill="{b}"/><path d="M254 380L214 560L198 556L242 376Z" class="o"/><path d="M160 548L214 560L209 592L155 580Z" fill="{s}"/>"##
        ),
    );
    svg!(
        o,
        r##"<path d="M268 240Q400 220 532 240Q546 420 550 604Q400 622 250 604Q254 420 268 240Z" fill="{b}"/><path d="M506 238L532 240Q546 420 550 604L522 607Q520 420 506 238Z" class="o"/><path d="M268 240L294 236Q282 420 278 606L250 604Q254 420 268 240Z" class="h"/>"##
    );
}

fn hoodie(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, k } = t;
    svg!(
        o,
        r##"<path d="M316 258Q298 166 400 154Q502 166 484 258Z" fill="{s}"/>"##
    );
    long_sleeved_body(t, o);
    svg!(
        o,
        r##"<path d="M251 574Q400 592 549 574L550 604Q400 622 250 604Z" fill="{s}"/><path d="M322 452Q400 442 478 452L510 550Q400 562 290 550Z" fill="{s}"/><path d="M330 462Q400 453 470 462" class="t" stroke="{k}"/><path d="M340 252Q338 192 400 184Q462 192 460 252Q400 282 340 252Z" fill="{d}"/><path d="M322 258Q318 176 400 168Q482 176 478 258Q400 300 322 258ZM340 252Q338 192 400 184Q462 192 460 252Q400 282 340 252Z" fill="{b}" fill-rule="evenodd"/><path d="M322 258Q400 300 478 258Q400 288 334 250Z" class="o"/><path d="M380 282L374 356M420 282L426 356" stroke="{l}" stroke-width="6" stroke-linecap="round"/><circle cx="374" cy="360" r="6" fill="{l}"/><circle cx="426" cy="360" r="6" fill="{l}"/>"##
    );
}

fn sweater(t: Tones, o: &mut String) {
    let Tones { s, d, .. } = t;
    long_sleeved_body(t, o);
    // Knit ribbing: a thick stroke dashed into narrow stripes.
    let rib = format!(r##"stroke="{d}" stroke-opacity=".35" stroke-dasharray="2 7""##);
    svg!(
        o,
        r##"<path d="M251 574Q400 592 549 574L550 604Q400 622 250 604Z" fill="{s}"/><path d="M252 589Q400 607 548 589" fill="none" stroke-width="28" {rib}/><path d="M186 570L182 586" stroke-width="56" {rib}/><path d="M614 570L618 586" stroke-width="56" {rib}/><path d="M338 238Q400 226 462 238Q400 272 338 238Z" fill="{d}"/><path d="M336 238Q400 280 464 238" fill="none" stroke="{s}" stroke-width="16"/><path d="M336 238Q400 280 464 238" fill="none" stroke-width="16" {rib}/><path d="M330 300q16 22 0 44t0 44t0 44t0 44t0 44M470 300q16 22 0 44t0 44t0 44t0 44t0 44M400 296q18 22 0 44t0 44t0 44t0 44t0 44M400 296q-18 22 0 44t0 44t0 44t0 44t0 44" fill="none" stroke="{s}" stroke-width="7" stroke-linecap="round"/>"##
    );
}

fn jacket(t: Tones, o: &mut String) {
    let Tones { s, d, l, k, .. } = t;
    svg!(
        o,
        r##"<path d="M326 232Q400 212 474 232L468 262Q400 246 332 262Z" fill="{d}"/>"##
    );
    long_sleeved_body(t, o);
    mirrored(
        o,
        &format!(
            r##"<path d="M330 234L400 304L368 328L310 262Z" fill="{s}"/><path d="M330 234L400 304L392 310L326 244Z" class="h"/><path d="M292 446h84v22l-42 10-42-10z" fill="{s}"/><rect x="296" y="468" width="76" height="92" rx="8" class="t" stroke="{k}"/><circle cx="334" cy="466" r="5" fill="{l}"/>"##
        ),
    );
    svg!(
        o,
        r##"<path d="M400 304V614" stroke="{d}" stroke-width="7"/><path d="M400 304V614" stroke="{l}" stroke-width="3" stroke-dasharray="2 4"/><rect x="393" y="312" width="14" height="32" rx="5" fill="{l}"/><path d="M252 588Q400 606 548 588" class="t" stroke="{k}"/><path d="M160 548L214 560M586 560L640 548" class="t" stroke="{k}"/>"##
    );
}

fn cap(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, k } = t;
    svg!(
        o,
        r##"<path d="M222 430Q214 214 400 200Q586 214 578 430Z" fill="{b}"/><path d="M470 214Q586 250 578 430H520Q532 280 470 214Z" class="o"/><path d="M330 214Q240 260 250 420H282Q276 280 330 214Z" class="h"/><path d="M400 204Q336 262 322 428M400 204Q464 262 478 428" fill="none" stroke="{s}" stroke-width="4"/><circle cx="296" cy="300" r="6" fill="{d}"/><circle cx="504" cy="300" r="6" fill="{d}"/><circle cx="400" cy="204" r="14" fill="{s}"/><rect x="352" y="312" width="96" height="60" rx="12" fill="{l}"/><rect x="360" y="320" width="80" height="44" rx="8" class="t" stroke="{s}"/><path d="M206 428Q400 398 594 428Q642 486 584 522Q400 470 216 522Q158 486 206 428Z" fill="{s}"/><path d="M226 470Q400 432 574 470M240 494Q400 454 560 494" class="t" stroke="{k}"/><path d="M208 430Q400 400 592 430" fill="none" stroke="{d}" stroke-width="8"/>"##
    );
}

fn beanie(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    svg!(
        o,
        r##"<circle cx="400" cy="176" r="54" fill="{l}"/><circle cx="400" cy="176" r="46" fill="none" stroke="{b}" stroke-opacity=".4" stroke-width="10" stroke-dasharray="2 6"/><path d="M262 440Q250 214 400 206Q550 214 538 440Z" fill="{b}"/><path d=""##
    );
    // Knit ribs fan out from the crown.
    for i in 0..7 {
        let x = 292.0 + 36.0 * i as f32;
        let top = 400.0 + (x - 400.0) * 0.5;
        svg!(
            o,
            "M{} 420Q{} 300 {} 224",
            Num(x),
            Num(x + (x - 400.0) * 0.08),
            Num(top)
        );
    }
    svg!(
        o,
        r##"" fill="none" stroke="{s}" stroke-width="7" stroke-linecap="round"/><path d="M480 220Q550 240 538 440H502Q512 300 480 220Z" class="o"/><rect x="244" y="408" width="312" height="120" rx="24" fill="{s}"/><path d="M258 468H542" stroke="{d}" stroke-width="100" stroke-dasharray="4 10" stroke-opacity=".35"/><rect x="244" y="408" width="312" height="14" rx="7" class="h"/><rect x="372" y="446" width="56" height="42" rx="6" fill="{l}"/>"##
    );
}

fn scarf(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    let tail = format!(
        r##"<rect x="0" y="0" width="84" height="300" fill="{b}"/><path d="M22 0V300M52 0V300" stroke="{d}" stroke-opacity=".25" stroke-width="4"/><path d="M0 220H84M0 246H84" stroke="{l}" stroke-width="10"/><path d="M4 312H80" stroke="{b}" stroke-width="26" stroke-dasharray="3 5"/>"##
    );
    // Worn as if around a neck: the back of the loop, the tails, then the front of the loop over them.
    svg!(
        o,
        r##"<path d="M280 246A120 46 0 0 1 520 246" fill="none" stroke="{d}" stroke-width="56"/><g transform="translate(318 290) rotate(4)">{tail}</g><g transform="translate(404 292) rotate(-6)">{tail}<rect width="16" height="300" class="o"/></g><path d="M280 246A120 46 0 0 0 520 246" fill="none" stroke="{s}" stroke-width="58"/><path d="M266 252A134 56 0 0 0 534 252" fill="none" stroke="#fff" stroke-opacity=".16" stroke-width="8"/><path d="M300 262A100 34 0 0 0 500 262" fill="none" stroke="{d}" stroke-opacity=".3" stroke-width="4"/>"##
    );
}

fn socks(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    let sock = "M290 170H400V450Q402 480 428 496L520 552Q556 576 536 612Q514 648 474 628L320 540Q290 520 290 486Z";
    svg!(
        o,
        r##"<path transform="translate(64 -16)" d="{sock}" fill="{s}"/><rect x="354" y="154" width="110" height="56" fill="{d}"/><path d="{sock}" fill="{b}"/><path d="M372 170H400V450Q402 480 428 496L410 510Q372 480 372 440Z" class="o"/><rect x="290" y="170" width="110" height="56" fill="{s}"/><path d="M290 198H400" stroke="{d}" stroke-width="56" stroke-dasharray="3 7" stroke-opacity=".4"/><path d="M290 262H400M290 286H400" stroke="{l}" stroke-width="10"/><path d="M290 470Q290 520 320 540L352 558Q330 510 350 464Z" fill="{l}"/><path d="M498 538L520 552Q556 576 536 612Q514 648 474 628L458 619Q500 590 498 538Z" fill="{l}"/>"##
    );
}

fn sneaker(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, k } = t;
    // Pale uppers get a gum sole so the shoe does not dissolve into one white shape.
    let (sole, line) = if b.luma() > 0.78 {
        ("#d9a86c", "#b9874f")
    } else {
        ("#f3f0ea", "#d6cfc3")
    };
    svg!(
        o,
        r##"<path d="M366 354L384 316Q392 304 406 310L432 330L420 360Z" fill="{s}"/><path d="M178 522L186 410Q190 386 216 390L290 404Q318 408 334 392L372 352Q386 340 402 348L424 362Q480 420 570 446Q640 466 640 522Z" fill="{b}"/><path d="M216 390L290 404Q318 408 334 392L340 400Q322 424 292 418L220 404Z" fill="{d}"/><path d="M178 522L186 410Q188 394 200 390L216 392L208 522Z" fill="{s}"/><path d="M548 440Q640 466 640 522H556Q562 476 548 440Z" fill="{s}"/><path d="M250 505Q330 455 470 430L494 444Q362 474 282 512Z" fill="{l}"/><path d="M192 500H620" class="t" stroke="{k}"/><path d=""##
    );
    // Laces cross the throat of the shoe at even steps.
    for i in 0..5 {
        let f = i as f32 / 4.0;
        let (x, y) = (398.0 + 124.0 * f, 354.0 + 80.0 * f);
        svg!(
            o,
            "M{} {}L{} {}",
            Num(x - 10.0),
            Num(y + 15.0),
            Num(x + 10.0),
            Num(y - 15.0)
        );
    }
    svg!(
        o,
        r##"" stroke="#fbf8f2" stroke-width="7" stroke-linecap="round"/><path d="M166 522H630Q664 524 658 552Q652 584 618 584H190Q160 584 162 552Z" fill="{sole}"/><path d="M170 548H654" stroke="{line}" stroke-width="4"/><path d="M176 572H646" stroke="{line}" stroke-width="8" stroke-linecap="round"/>"##
    );
}

fn tote(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, k } = t;
    svg!(
        o,
        r##"<path d="M336 340Q336 168 420 168Q504 168 504 340" fill="none" stroke="{d}" stroke-width="20"/><path d="M248 330H552L574 634Q574 646 562 646H238Q226 646 226 634Z" fill="{b}"/><path d="M520 330H552L574 634Q574 646 562 646H540Z" class="o"/><path d="M248 330H552L555 368H245Z" fill="{s}"/><path d="M246 358H554" class="t" stroke="{k}"/><path d="M300 430V340Q300 176 400 176Q500 176 500 340V430" fill="none" stroke="{s}" stroke-width="24"/><path d="M290 400h20v24h-20zM490 400h20v24h-20z" class="t" stroke="{k}"/><circle cx="400" cy="522" r="62" fill="{l}"/><circle cx="400" cy="496" r="16" fill="{b}"/><path d="M350 528q25-16 50 0t50 0M356 552q22-13 44 0t44 0" fill="none" stroke="{b}" stroke-width="8" stroke-linecap="round"/>"##
    );
}

fn backpack(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, k } = t;
    mirrored(
        o,
        &format!(
            r##"<path d="M266 300Q232 430 252 590" fill="none" stroke="{d}" stroke-width="26" stroke-linecap="round"/>"##
        ),
    );
    svg!(
        o,
        r##"<path d="M372 232Q372 184 400 184Q428 184 428 232" fill="none" stroke="{d}" stroke-width="12"/><rect x="258" y="222" width="284" height="404" rx="74" fill="{b}"/><path d="M504 240Q542 262 542 310V552Q542 610 492 624Q514 560 504 240Z" class="o"/><rect x="276" y="300" width="16" height="250" rx="8" class="h"/><path d="M258 296Q258 222 332 222H468Q542 222 542 296V372Q400 410 258 372Z" fill="{s}"/><path d="M272 362Q400 394 528 362" class="t" stroke="{k}"/><rect x="298" y="478" width="204" height="118" rx="32" fill="{s}"/><path d="M318 502H482" stroke="{d}" stroke-width="5" stroke-linecap="round"/><rect x="462" y="498" width="12" height="28" rx="4" fill="{l}"/>"##
    );
    mirrored(
        o,
        &format!(
            r##"<rect x="322" y="350" width="24" height="110" rx="6" fill="{d}"/><rect x="316" y="420" width="36" height="26" rx="6" fill="{l}"/>"##
        ),
    );
}

fn wallet(t: Tones, o: &mut String) {
    let Tones { b, s, d, k, .. } = t;
    svg!(
        o,
        r##"<rect x="262" y="298" width="190" height="120" rx="12" fill="#e3b45f"/><rect x="300" y="318" width="190" height="120" rx="12" fill="#7ea6c8"/><rect x="226" y="352" width="348" height="212" rx="24" fill="{b}"/><rect x="240" y="364" width="320" height="12" rx="6" class="h"/><path d="M226 420Q400 452 574 420V540Q574 564 550 564H250Q226 564 226 540Z" fill="{s}"/><rect x="240" y="366" width="320" height="184" rx="16" class="t" stroke="{k}"/><circle cx="400" cy="502" r="20" fill="none" stroke="{d}" stroke-width="4"/>"##
    );
}

fn mug(t: Tones, o: &mut String) {
    let Tones { b, s, d, .. } = t;
    svg!(
        o,
        r##"<path d="M500 366Q584 366 584 442Q584 518 500 518" fill="none" stroke="{s}" stroke-width="30"/><path d="M268 306H502V560Q502 598 464 598H306Q268 598 268 560Z" fill="{b}"/><path d="M268 548H502V560Q502 598 464 598H306Q268 598 268 560Z" fill="#eadfcd"/><path d="M466 306H502V560Q502 590 470 596Z" class="o"/><rect x="290" y="334" width="18" height="196" rx="9" class="h"/><ellipse cx="385" cy="306" rx="117" ry="24" fill="{s}"/><ellipse cx="385" cy="309" rx="104" ry="17" fill="#4a3427"/><ellipse cx="360" cy="306" rx="42" ry="5" fill="#fff" fill-opacity=".16"/><g fill="{d}" fill-opacity=".35"><circle cx="330" cy="380" r="3"/><circle cx="420" cy="420" r="2.5"/><circle cx="362" cy="480" r="3"/><circle cx="450" cy="356" r="2"/><circle cx="314" cy="512" r="2.5"/><circle cx="440" cy="500" r="2"/></g>"##
    );
}

fn bowl(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    svg!(
        o,
        r##"<rect x="336" y="586" width="128" height="18" rx="7" fill="{d}"/><ellipse cx="400" cy="400" rx="184" ry="46" fill="{s}"/><ellipse cx="400" cy="404" rx="170" ry="38" fill="#efe6d6"/><circle cx="350" cy="386" r="46" fill="#e8b84a"/><circle cx="442" cy="378" r="50" fill="#e28a3b"/><path d="M442 330q14-22 34-16q-12 18-34 16z" fill="#5f8f55"/><circle cx="332" cy="368" r="11" fill="#fff" fill-opacity=".3"/><circle cx="424" cy="356" r="12" fill="#fff" fill-opacity=".25"/><path d="M216 400A184 46 0 0 0 584 400Q578 594 400 598Q222 594 216 400Z" fill="{b}"/><path d="M520 436Q540 560 420 594Q562 582 580 420Z" class="o"/><path d="M246 440Q262 540 330 582Q248 530 238 432Z" class="h"/><path d="M216 400A184 46 0 0 0 584 400" fill="none" stroke="{l}" stroke-width="6"/><g fill="{d}" fill-opacity=".3"><circle cx="300" cy="480" r="3"/><circle cx="380" cy="520" r="2.5"/><circle cx="460" cy="470" r="3"/><circle cx="520" cy="520" r="2"/><circle cx="340" cy="556" r="2.5"/></g>"##
    );
}

fn bottle(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    svg!(
        o,
        r##"<path d="M376 196Q376 150 400 150Q424 150 424 196" fill="none" stroke="{d}" stroke-width="12"/><rect x="350" y="186" width="100" height="72" rx="16" fill="{d}"/><path d="M358 222H442" stroke="#000" stroke-opacity=".15" stroke-width="56" stroke-dasharray="3 9"/><rect x="360" y="254" width="80" height="22" fill="#c8ccd2"/><path d="M360 274H440Q484 292 486 340V596Q486 640 442 640H358Q314 640 314 596V340Q316 292 360 274Z" fill="{b}"/><path d="M448 284Q484 300 486 340V596Q486 630 456 638Q466 600 466 340Q464 300 448 284Z" class="o"/><rect x="334" y="330" width="16" height="250" rx="8" class="h"/><circle cx="400" cy="450" r="24" fill="none" stroke="{l}" stroke-width="6"/><path d="M386 458l14-18 14 18z" fill="{l}"/><path d="M316 600H484" stroke="{s}" stroke-width="6"/>"##
    );
}

fn candle(t: Tones, o: &mut String) {
    let Tones { b, s, d, .. } = t;
    svg!(
        o,
        r##"<circle cx="400" cy="264" r="48" fill="#ffd27a" fill-opacity=".3"/><path d="M400 228Q422 262 414 282Q408 298 400 298Q392 298 386 282Q378 262 400 228Z" fill="#f2a23c"/><path d="M400 256Q410 274 406 286Q402 292 400 292Q396 292 394 286Q390 274 400 256Z" fill="#ffe39a"/><rect x="288" y="320" width="224" height="278" rx="28" fill="{b}"/><ellipse cx="400" cy="326" rx="112" ry="20" fill="{s}"/><ellipse cx="400" cy="330" rx="98" ry="14" fill="#f4ecdc"/><path d="M400 296V326" stroke="#3a302a" stroke-width="4"/><path d="M472 340H512V570Q512 598 484 598H476Q486 460 472 340Z" class="o"/><rect x="306" y="356" width="16" height="210" rx="8" class="h"/><rect x="334" y="414" width="132" height="112" rx="8" fill="#fbf7ef" stroke="{s}" stroke-width="2"/><circle cx="400" cy="452" r="14" fill="none" stroke="{d}" stroke-width="4"/><path d="M366 486H434M378 504H422" stroke="{d}" stroke-width="5" stroke-linecap="round"/>"##
    );
}

fn plant_pot(t: Tones, o: &mut String) {
    let Tones { b, s, l, .. } = t;
    svg!(
        o,
        r##"<path d="M398 470Q300 400 268 292Q372 318 398 470Z" fill="#74a566"/><path d="M402 470Q500 400 532 300Q428 320 402 470Z" fill="#4c7c48"/><path d="M400 470Q350 330 400 190Q450 330 400 470Z" fill="#5e8f56"/><path d="M398 470Q338 440 300 396Q372 398 398 470Z" fill="#86ad74"/><path d="M400 460V220M396 460Q340 380 290 306M404 460Q460 390 516 316" fill="none" stroke="#3f6a3c" stroke-width="3" stroke-opacity=".5"/><rect x="290" y="452" width="220" height="44" rx="8" fill="{s}"/><rect x="290" y="452" width="220" height="10" rx="5" class="h"/><path d="M304 494H496L474 628Q472 640 460 640H340Q328 640 326 628Z" fill="{b}"/><path d="M456 494H496L474 628Q472 640 460 640H448Z" class="o"/><path d="M318 500H336L350 630H340Z" class="h"/><path d="M314 560q18-14 36 0t36 0t36 0t36 0t36 0" fill="none" stroke="{l}" stroke-width="6"/>"##
    );
}

fn vase(t: Tones, o: &mut String) {
    let Tones { b, s, d, .. } = t;
    svg!(
        o,
        r##"<path d="M392 216Q370 150 318 104M404 216Q410 140 440 86M398 216Q424 170 486 146" fill="none" stroke="#a88a5c" stroke-width="4"/><ellipse cx="314" cy="98" rx="16" ry="42" transform="rotate(-42 314 98)" fill="#e6d3ae"/><ellipse cx="442" cy="78" rx="15" ry="40" transform="rotate(12 442 78)" fill="#dcc59a"/><ellipse cx="492" cy="140" rx="14" ry="38" transform="rotate(60 492 140)" fill="#ead9b8"/><path d="M364 214H436V256Q528 318 526 452Q524 580 466 634H334Q276 580 274 452Q272 318 364 256Z" fill="{b}"/><path d="M436 256Q528 318 526 452Q524 580 466 634H440Q500 560 500 450Q500 330 436 270Z" class="o"/><path d="M282 380Q400 404 518 380M276 470Q400 494 524 470" fill="none" stroke="{s}" stroke-width="4"/><path d="M318 340Q294 430 314 540" fill="none" stroke="#fff" stroke-opacity=".3" stroke-width="14" stroke-linecap="round"/><ellipse cx="400" cy="214" rx="36" ry="9" fill="{d}"/>"##
    );
}

fn lamp(t: Tones, o: &mut String) {
    let Tones { b, s, d, .. } = t;
    svg!(
        o,
        r##"<ellipse cx="400" cy="396" rx="170" ry="34" fill="#ffe8a8" fill-opacity=".55"/><rect x="392" y="380" width="16" height="196" fill="#c7a35a"/><rect x="396" y="380" width="4" height="196" class="h"/><path d="M318 604Q318 566 400 566Q482 566 482 604Z" fill="{d}"/><rect x="306" y="600" width="188" height="14" rx="7" fill="{s}"/><path d="M320 192H480L556 392H244Z" fill="{b}"/><path d="M440 192H480L556 392H500Z" class="o"/><path d="M320 192H346L286 392H244Z" class="h"/><path d="M320 192H480" stroke="{s}" stroke-width="8" stroke-linecap="round"/><path d="M244 392H556" stroke="{s}" stroke-width="10" stroke-linecap="round"/><ellipse cx="400" cy="402" rx="44" ry="9" fill="#fff4cf"/><path d="M470 396V452" stroke="#c7a35a" stroke-width="3"/><circle cx="470" cy="456" r="6" fill="#c7a35a"/>"##
    );
}

fn cushion(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    let outline = "M228 250Q400 278 572 250Q546 415 572 580Q400 552 228 580Q254 415 228 250Z";
    svg!(
        o,
        r##"<path d="{outline}" fill="{b}"/><ellipse cx="345" cy="350" rx="70" ry="46" class="h" filter="url(#b)"/><ellipse cx="445" cy="480" rx="70" ry="36" class="o" filter="url(#b)"/><path d="{outline}" fill="none" stroke="{s}" stroke-width="7"/><circle cx="400" cy="415" r="72" fill="none" stroke="{l}" stroke-width="12"/><circle cx="400" cy="415" r="34" fill="{l}"/><circle cx="400" cy="415" r="7" fill="{d}"/><path d="M242 264Q276 290 300 300M558 264Q524 290 500 300M242 566Q276 540 300 530M558 566Q524 540 500 530" fill="none" stroke="{s}" stroke-width="5" stroke-linecap="round"/>"##
    );
}

fn throw(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    svg!(
        o,
        r##"<rect x="206" y="490" width="388" height="110" rx="30" fill="{d}"/><rect x="206" y="400" width="388" height="112" rx="30" fill="{s}"/><rect x="206" y="308" width="388" height="114" rx="30" fill="{b}"/><path d="M236 366H564" stroke="{s}" stroke-width="84" stroke-dasharray="2 14" stroke-opacity=".6"/><path d="M230 338H570M230 366H570M230 394H570" stroke="{s}" stroke-width="2"/><path d="M500 308V422M500 400V512M500 490V600" stroke="{l}" stroke-width="16"/><path d="M604 320V410M604 414V500M604 504V590" stroke="{l}" stroke-width="22" stroke-dasharray="3 5"/><rect x="226" y="316" width="348" height="10" rx="5" class="h"/><rect x="206" y="412" width="388" height="14" class="o"/><rect x="206" y="502" width="388" height="14" class="o"/>"##
    );
}

fn notebook(t: Tones, o: &mut String) {
    let Tones { b, s, d, l, .. } = t;
    svg!(
        o,
        r##"<rect x="282" y="194" width="264" height="406" rx="10" fill="#f6f2ea"/><path d="M540 206V588" stroke="#ddd5c6" stroke-width="6" stroke-dasharray="1 3"/><rect x="262" y="184" width="270" height="408" rx="12" fill="{b}"/><path d="M274 184H300V592H274Q262 592 262 580V196Q262 184 274 184Z" fill="{s}"/><rect x="306" y="196" width="10" height="384" rx="5" class="h"/><rect x="486" y="184" width="12" height="408" fill="{d}"/><rect x="330" y="262" width="130" height="74" rx="6" fill="{l}"/><path d="M350 290H440M350 310H412" stroke="{s}" stroke-width="5" stroke-linecap="round"/><circle cx="395" cy="470" r="22" fill="none" stroke="{s}" stroke-width="4"/><path d="M430 588V650L442 638L454 650V588Z" fill="#c0553a"/>"##
    );
}

fn headphones(t: Tones, o: &mut String) {
    let Tones { b, d, l, .. } = t;
    svg!(
        o,
        r##"<path d="M252 430Q248 186 400 182Q552 186 548 430" fill="none" stroke="{b}" stroke-width="28" stroke-linecap="round"/><path d="M292 252Q400 188 508 252" fill="none" stroke="{d}" stroke-width="20" stroke-linecap="round"/><path d="M262 330Q270 214 400 200" fill="none" stroke="#fff" stroke-opacity=".2" stroke-width="6" stroke-linecap="round"/>"##
    );
    mirrored(
        o,
        &format!(
            r##"<rect x="240" y="368" width="24" height="70" rx="8" fill="#c9ccd1"/><rect x="282" y="424" width="36" height="148" rx="18" fill="{d}"/><rect x="206" y="410" width="96" height="176" rx="42" fill="{b}"/><rect x="222" y="436" width="12" height="110" rx="6" class="h"/><circle cx="254" cy="498" r="16" fill="none" stroke="{l}" stroke-width="5"/>"##
        ),
    );
}

fn watch(t: Tones, o: &mut String) {
    let Tones { b, s, d, k, .. } = t;
    let (face, ink) = if b.luma() > 0.6 {
        ("#2b2e34", "#f3efe6")
    } else {
        ("#f5f1e8", "#2b2e34")
    };
    svg!(
        o,
        r##"<rect x="348" y="150" width="104" height="500" rx="26" fill="{b}"/><rect x="358" y="160" width="84" height="480" rx="20" class="t" stroke="{k}"/><rect x="340" y="536" width="120" height="18" rx="8" fill="{s}"/><g fill="{d}"><circle cx="400" cy="578" r="5"/><circle cx="400" cy="604" r="5"/><circle cx="400" cy="630" r="5"/></g><rect x="354" y="272" width="92" height="256" rx="18" fill="#bfb8ab"/><rect x="512" y="386" width="20" height="28" rx="5" fill="#c9c2b6"/><circle cx="400" cy="400" r="118" fill="#d9d3c8"/><circle cx="400" cy="400" r="104" fill="#b9b1a4"/><circle cx="400" cy="400" r="96" fill="{face}"/><circle cx="400" cy="400" r="82" fill="none" stroke="{ink}" stroke-width="12" stroke-dasharray="3 39.94"/><path d="M400 400L436 352" stroke="{ink}" stroke-width="8" stroke-linecap="round"/><path d="M400 400L370 326" stroke="{ink}" stroke-width="5" stroke-linecap="round"/><path d="M400 400L452 430" stroke="#c0553a" stroke-width="2.5"/><circle cx="400" cy="400" r="8" fill="{ink}"/><path d="M338 344Q366 312 408 306" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="8" stroke-linecap="round"/>"##
    );
}

fn sunglasses(t: Tones, o: &mut String) {
    let Tones { b, d, l, .. } = t;
    let lens = b.mix(Rgb(0x1c, 0x20, 0x26), 0.72);
    svg!(
        o,
        r##"<path d="M202 372L168 358M598 372L632 358" stroke="{d}" stroke-width="12" stroke-linecap="round"/>"##
    );
    mirrored(
        o,
        &format!(
            r##"<path d="M206 362Q204 334 236 334H356Q388 334 384 366L376 430Q368 478 316 478H268Q214 478 208 430Z" fill="{lens}" stroke="{b}" stroke-width="16"/><path d="M232 352H266L226 446Q218 430 220 410Z" fill="#fff" fill-opacity=".2"/><circle cx="222" cy="350" r="4" fill="{l}"/>"##
        ),
    );
    svg!(
        o,
        r##"<path d="M384 372Q400 352 416 372" fill="none" stroke="{b}" stroke-width="14" stroke-linecap="round"/>"##
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const PALETTE: [&str; 6] = [
        "#2f3237", "#f2f0eb", "#2d3f63", "#d8c3a0", "#b4532f", "#9aae92",
    ];

    fn artwork(silhouette: Silhouette, view: View, hex: &str, variant: usize) -> Artwork<'static> {
        Artwork {
            silhouette,
            view,
            colour: Swatch {
                name: "test",
                rgb: Rgb::from_hex(hex).unwrap(),
            },
            second: Some(Swatch {
                name: "navy",
                rgb: Rgb(0x2d, 0x3f, 0x63),
            }),
            variant,
        }
    }

    /// Checks that tags nest and close properly and attribute quotes pair up.
    fn assert_well_formed(svg: &str) {
        let mut open: Vec<&str> = Vec::new();
        let mut rest = svg;
        while let Some(start) = rest.find('<') {
            let end = start + rest[start..].find('>').expect("unterminated tag");
            let tag = &rest[start + 1..end];
            assert_eq!(
                tag.matches('"').count() % 2,
                0,
                "unbalanced quotes in <{tag}>"
            );
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop(), Some(name), "mismatched </{name}>");
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().expect("empty tag"));
            }
            rest = &rest[end + 1..];
        }
        assert!(open.is_empty(), "unclosed tags: {open:?}");
    }

    #[test]
    fn hex_round_trips_and_tones_shift() {
        let navy = Rgb::from_hex("#2d3f63").unwrap();
        assert_eq!(navy.to_string(), "#2d3f63");
        assert_eq!(Rgb::from_hex("2d3f63"), None);
        assert_eq!(Rgb::from_hex("#2d3f6"), None);
        assert_eq!(Rgb::from_hex("#+d3f63"), None);
        assert!(navy.darken(0.3).luma() < navy.luma());
        assert!(navy.lighten(0.3).luma() > navy.luma());
        assert_eq!(navy.mix(Rgb(255, 255, 255), 1.0), Rgb(255, 255, 255));
    }

    #[test]
    fn numbers_print_compactly() {
        assert_eq!(Num(12.0).to_string(), "12");
        assert_eq!(Num(-0.7).to_string(), "-0.7");
        assert_eq!(Num(1.23456).to_string(), "1.23");
    }

    #[test]
    fn every_silhouette_renders_valid_small_svg_in_every_view() {
        let views = [View::Front, View::Scene, View::Detail, View::Duo];
        for (i, silhouette) in Silhouette::ALL.into_iter().enumerate() {
            for view in views {
                for (j, hex) in PALETTE.iter().enumerate() {
                    let svg = artwork(silhouette, view, hex, i + j).svg();
                    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 800" width="800" height="800">"#));
                    assert!(svg.ends_with("</svg>"));
                    assert!(
                        svg.len() < 8 * 1024,
                        "{silhouette:?} {view:?} is {} bytes",
                        svg.len()
                    );
                    assert!(
                        !svg.contains("NaN") && !svg.contains("inf"),
                        "{silhouette:?} {view:?}"
                    );
                    assert!(
                        !svg.contains("<script")
                            && !svg.contains("<text")
                            && !svg.contains("http://www.w3.org/1999")
                    );
                    assert_eq!(
                        svg.matches("http").count(),
                        1,
                        "only the namespace may be a URL"
                    );
                    assert_well_formed(&svg);
                }
            }
        }
    }

    #[test]
    fn views_of_one_product_differ() {
        for silhouette in Silhouette::ALL {
            let svgs: Vec<String> = [View::Front, View::Scene, View::Detail, View::Duo]
                .into_iter()
                .map(|view| artwork(silhouette, view, "#b4532f", 0).svg())
                .collect();
            for (i, a) in svgs.iter().enumerate() {
                assert!(svgs[i + 1..].iter().all(|b| a != b), "{silhouette:?}");
            }
        }
    }

    #[test]
    fn media_carries_alt_text_and_dimensions() {
        let art = artwork(Silhouette::Hoodie, View::Front, "#2d3f63", 0);
        let media = art.to_media(MediaId(7), "aurora-hoodie-1.svg".into(), "Aurora Hoodie");
        assert_eq!(media.alt, "Aurora Hoodie in test, front view");
        assert_eq!((media.width, media.height), (800, 800));
        assert_eq!(media.mime_type, "image/svg+xml");
        assert_eq!(media.body, art.svg().into_bytes());
        let duo = artwork(Silhouette::Mug, View::Duo, "#2d3f63", 0);
        assert_eq!(duo.alt("Terra Mug"), "Terra Mug in test and navy, flat lay");
    }
}
