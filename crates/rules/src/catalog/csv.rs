//! The original shop's product CSV, as its exporter writes it and its importer reads
//! it: the column headers, and each column's value format both ways. A row parses into
//! a `ProductRow` whose references (parent, upsells, terms, images) are still names;
//! the importer resolves them against the catalogue. No file or database access here.

use crate::catalog::model::*;
use crate::money::CurrencyFormat;

/// The exporter's fixed columns, in its order (weight and size headers carry the
/// units they are written in), then its brand column. Attribute columns follow.
pub const EXPORT_COLUMNS: [&str; 41] = [
    "ID",
    "Type",
    "SKU",
    "GTIN, UPC, EAN, or ISBN",
    "Name",
    "Published",
    "Is featured?",
    "Visibility in catalog",
    "Short description",
    "Description",
    "Date sale price starts",
    "Date sale price ends",
    "Tax status",
    "Tax class",
    "In stock?",
    "Stock",
    "Low stock amount",
    "Backorders allowed?",
    "Sold individually?",
    "Weight (kg)",
    "Length (cm)",
    "Width (cm)",
    "Height (cm)",
    "Allow customer reviews?",
    "Purchase note",
    "Sale price",
    "Regular price",
    "Categories",
    "Tags",
    "Shipping class",
    "Images",
    "Download limit",
    "Download expiry days",
    "Parent",
    "Grouped products",
    "Upsells",
    "Cross-sells",
    "External URL",
    "Button text",
    "Position",
    "Brands",
];

/// The attribute columns of attribute `n` (from 1), in the exporter's order.
pub fn attribute_columns(n: usize) -> [String; 5] {
    [
        format!("Attribute {n} name"),
        format!("Attribute {n} value(s)"),
        format!("Attribute {n} visible"),
        format!("Attribute {n} global"),
        format!("Attribute {n} default"),
    ]
}

/// A problem with one value: which column, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellError {
    pub column: String,
    pub message: String,
}

impl CellError {
    fn new(column: &str, value: &str, what: &str) -> Self {
        CellError {
            column: column.to_string(),
            message: format!("{value:?} {what}"),
        }
    }
}

/// How many decimal places a weight or size unit is from the unit the shop keeps
/// (grams, millimetres).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    pub label: &'static str,
    pub shift: u32,
}

impl Unit {
    pub const KG: Unit = Unit {
        label: "kg",
        shift: 3,
    };
    pub const CM: Unit = Unit {
        label: "cm",
        shift: 1,
    };

    fn weight(label: &str) -> Option<Unit> {
        match label {
            "kg" => Some(Unit::KG),
            "g" => Some(Unit {
                label: "g",
                shift: 0,
            }),
            _ => None,
        }
    }

    fn length(label: &str) -> Option<Unit> {
        match label {
            "cm" => Some(Unit::CM),
            "mm" => Some(Unit {
                label: "mm",
                shift: 0,
            }),
            "m" => Some(Unit {
                label: "m",
                shift: 3,
            }),
            _ => None,
        }
    }
}

/// Where each known column sits in a file's header row.
#[derive(Debug, Clone, Default)]
pub struct Header {
    columns: std::collections::HashMap<&'static str, usize>,
    pub weight_unit: Option<Unit>,
    pub length_unit: Option<Unit>,
    weight: Option<usize>,
    dims: [Option<usize>; 3],
    /// name, value(s), visible, global, default — per attribute number, in order.
    attributes: Vec<[Option<usize>; 5]>,
}

impl Header {
    /// Reads the header row. Unknown columns (meta, downloads, other plugins') are
    /// ignored, as the original importer leaves unmapped columns alone.
    pub fn parse<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Header, Vec<String>> {
        let mut h = Header::default();
        let mut errors = Vec::new();
        let mut attributes: std::collections::BTreeMap<usize, [Option<usize>; 5]> =
            Default::default();
        for (i, raw) in names.into_iter().enumerate() {
            let name = raw.trim_start_matches('\u{feff}').trim();
            if let Some((label, unit)) = unit_header(name) {
                match label {
                    "Weight" => match Unit::weight(unit) {
                        Some(u) => {
                            h.weight = Some(i);
                            h.weight_unit = Some(u);
                        }
                        None => errors.push(format!("column {name:?}: weights must be in kg or g")),
                    },
                    _ => match Unit::length(unit) {
                        Some(u) => {
                            if h.length_unit.is_some_and(|l| l != u) {
                                errors.push(format!(
                                    "column {name:?}: all sizes must be in one unit"
                                ));
                            }
                            let slot = ["Length", "Width", "Height"]
                                .iter()
                                .position(|l| *l == label)
                                .unwrap_or(0);
                            h.dims[slot] = Some(i);
                            h.length_unit = Some(u);
                        }
                        None => {
                            errors.push(format!("column {name:?}: sizes must be in cm, mm or m"))
                        }
                    },
                }
                continue;
            }
            if let Some(&known) = EXPORT_COLUMNS.iter().find(|c| **c == name) {
                h.columns.insert(known, i);
                continue;
            }
            if let Some(rest) = name.strip_prefix("Attribute ") {
                if let Some((n, what)) = rest.split_once(' ') {
                    if let (Ok(n), Some(slot)) = (
                        n.parse::<usize>(),
                        ["name", "value(s)", "visible", "global", "default"]
                            .iter()
                            .position(|w| *w == what),
                    ) {
                        attributes.entry(n).or_default()[slot] = Some(i);
                    }
                }
            }
        }
        h.attributes = attributes.into_values().collect();
        if errors.is_empty() {
            Ok(h)
        } else {
            Err(errors)
        }
    }

    fn get<'r>(&self, row: &'r [&'r str], column: &str) -> &'r str {
        self.columns
            .get(column)
            .and_then(|&i| row.get(i))
            .copied()
            .unwrap_or("")
    }
}

/// "Weight (kg)" → ("Weight", "kg").
fn unit_header(name: &str) -> Option<(&str, &str)> {
    let (label, rest) = name.split_once(" (")?;
    let unit = rest.strip_suffix(')')?;
    ["Weight", "Length", "Width", "Height"]
        .contains(&label)
        .then_some((label, unit))
}

/// A product named by another row: "id:123" or a SKU.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ProductRef {
    Id(ProductId),
    Sku(String),
}

impl ProductRef {
    pub fn parse(s: &str) -> Option<ProductRef> {
        let s = s.trim();
        if s.is_empty() {
            return None;
        }
        match s.strip_prefix("id:") {
            Some(n) => n.trim().parse().ok().map(|n| ProductRef::Id(ProductId(n))),
            None => Some(ProductRef::Sku(s.to_string())),
        }
    }
}

/// One "Attribute N …" group of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowAttribute {
    pub name: String,
    /// Term names for a global attribute, the values themselves for a custom one; a
    /// variation has one (or none, for "any").
    pub values: Vec<String>,
    pub visible: bool,
    pub global: bool,
    pub default: String,
}

/// One row of the file, its values parsed, its references still by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductRow {
    pub id: Option<ProductId>,
    pub kind: ProductKind,
    pub is_virtual: bool,
    pub sku: String,
    pub name: String,
    pub status: ProductStatus,
    pub featured: bool,
    pub visibility: CatalogVisibility,
    pub short_description: String,
    pub description: String,
    pub sale_from: Option<i64>,
    pub sale_to: Option<i64>,
    pub tax_status: TaxStatus,
    pub tax_class: String,
    pub stock_status: StockStatus,
    /// Some when the product keeps count of its stock.
    pub stock: Option<i64>,
    pub low_stock_amount: Option<i64>,
    pub backorders: Backorders,
    pub sold_individually: bool,
    pub weight_grams: Option<i64>,
    pub dimensions: Option<Dimensions>,
    pub reviews_allowed: bool,
    pub purchase_note: String,
    pub sale_price: Option<i64>,
    pub regular_price: Option<i64>,
    /// Each a path from the top: ["Clothing", "Hoodies"].
    pub categories: Vec<Vec<String>>,
    pub tags: Vec<String>,
    pub shipping_class: String,
    pub images: Vec<String>,
    pub parent: Option<ProductRef>,
    pub upsells: Vec<ProductRef>,
    pub cross_sells: Vec<ProductRef>,
    pub external_url: String,
    pub button_text: String,
    pub position: i64,
    pub brands: Vec<String>,
    pub attributes: Vec<RowAttribute>,
}

/// What the shop does not keep but the row carries: said as warnings, not errors.
pub type Warnings = Vec<CellError>;

/// Parses one data row (its fields in file order). Every bad value is reported.
pub fn parse_row(
    header: &Header,
    row: &[&str],
    currency: &CurrencyFormat,
) -> Result<(ProductRow, Warnings), Vec<CellError>> {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let cell = |column: &str| unescape_cell(header.get(row, column));

    // Keeps a value, or notes what is wrong with it and goes on to the next column.
    macro_rules! check {
        ($column:expr, $result:expr $(,)?) => {
            match $result {
                Ok(v) => Some(v),
                Err(what) => {
                    errors.push(CellError::new($column, cell($column), what));
                    None
                }
            }
        };
    }

    let id = check!(
        "ID",
        parse_optional_int(cell("ID")).map(|v| v.map(ProductId))
    );
    let type_flags = check!("Type", parse_type(cell("Type")));
    let status = check!("Published", parse_published(cell("Published")));
    let featured = check!("Is featured?", parse_bool(cell("Is featured?"), false));
    let visibility = check!(
        "Visibility in catalog",
        parse_enum(
            cell("Visibility in catalog"),
            CatalogVisibility::Visible,
            |s| { CatalogVisibility::parse(s) }
        ),
    );
    let sale_from = check!(
        "Date sale price starts",
        parse_date(cell("Date sale price starts")),
    );
    let sale_to = check!(
        "Date sale price ends",
        parse_date(cell("Date sale price ends")),
    );
    let tax_status = check!(
        "Tax status",
        parse_enum(cell("Tax status"), TaxStatus::Taxable, TaxStatus::parse),
    );
    let stock_status = check!("In stock?", parse_stock_status(cell("In stock?")));
    let stock = check!("Stock", parse_stock(cell("Stock")));
    let low_stock_amount = check!(
        "Low stock amount",
        parse_optional_int(cell("Low stock amount")),
    );
    let backorders = check!(
        "Backorders allowed?",
        parse_backorders(cell("Backorders allowed?")),
    );
    let sold_individually = check!(
        "Sold individually?",
        parse_bool(cell("Sold individually?"), false),
    );
    let reviews_allowed = check!(
        "Allow customer reviews?",
        parse_bool(cell("Allow customer reviews?"), true),
    );
    let sale_price = check!("Sale price", parse_price(cell("Sale price"), currency));
    let regular_price = check!(
        "Regular price",
        parse_price(cell("Regular price"), currency)
    );
    let parent = check!("Parent", parse_ref(cell("Parent")));
    let upsells = check!("Upsells", parse_refs(cell("Upsells")));
    let cross_sells = check!("Cross-sells", parse_refs(cell("Cross-sells")));
    let position = check!(
        "Position",
        parse_optional_int(cell("Position")).map(|v| v.unwrap_or(0)),
    );

    let measure = |index: Option<usize>, unit: Option<Unit>| -> Result<Option<i64>, String> {
        let raw = index.and_then(|i| row.get(i)).copied().unwrap_or("");
        let raw = unescape_cell(raw);
        let unit = unit.unwrap_or(Unit::KG);
        parse_scaled(raw, unit.shift, '.').map_err(|_| raw.to_string())
    };
    let mut measure_error = |index: Option<usize>, value: String, what: &str| {
        let column = index
            .map(|i| header_name(header, i))
            .unwrap_or_else(|| "Weight".to_string());
        errors.push(CellError {
            column,
            message: format!("{value:?} {what}"),
        });
    };
    let weight_grams = match measure(header.weight, header.weight_unit) {
        Ok(w) => w,
        Err(v) => {
            measure_error(header.weight, v, "is not a weight in whole grams");
            None
        }
    };
    let mut dims = [None; 3];
    for (slot, index) in header.dims.iter().enumerate() {
        match measure(*index, header.length_unit) {
            Ok(d) => dims[slot] = d,
            Err(v) => measure_error(*index, v, "is not a size in whole millimetres"),
        }
    }

    let mut attributes = Vec::new();
    for columns in &header.attributes {
        let at = |slot: usize| {
            columns[slot]
                .and_then(|i| row.get(i))
                .map(|v| unescape_cell(v))
                .unwrap_or("")
        };
        let name = at(0).trim();
        if name.is_empty() {
            continue;
        }
        let column = header_name(header, columns[0].unwrap_or(0));
        let mut flag = |slot: usize, default: bool| match parse_bool(at(slot), default) {
            Ok(b) => b,
            Err(what) => {
                errors.push(CellError {
                    column: columns[slot]
                        .map(|i| header_name(header, i))
                        .unwrap_or_else(|| column.clone()),
                    message: format!("{:?} {what}", at(slot)),
                });
                default
            }
        };
        let visible = flag(2, true);
        let global = flag(3, true);
        attributes.push(RowAttribute {
            name: name.to_string(),
            values: split_list(at(1)),
            visible,
            global,
            default: at(4).trim().to_string(),
        });
    }

    let (kind, is_virtual, downloadable) =
        type_flags.unwrap_or((ProductKind::Simple, false, false));
    if downloadable {
        warnings.push(CellError::new(
            "Type",
            cell("Type"),
            "is downloadable: the shop does not keep downloads, the product is imported without them",
        ));
    }
    for (column, what) in [
        ("GTIN, UPC, EAN, or ISBN", "is not kept by the shop"),
        ("Download limit", "is not kept by the shop"),
        ("Download expiry days", "is not kept by the shop"),
    ] {
        if !cell(column).trim().is_empty() {
            warnings.push(CellError::new(column, cell(column), what));
        }
    }
    if !cell("Grouped products").trim().is_empty() {
        errors.push(CellError::new(
            "Grouped products",
            cell("Grouped products"),
            "names grouped products, which the shop does not have",
        ));
    }
    let name = cell("Name").trim().to_string();
    if name.is_empty() && kind != ProductKind::Variation {
        errors.push(CellError::new(
            "Name",
            "",
            "is empty: a product needs a name",
        ));
    }
    let parent = parent.flatten();
    if kind == ProductKind::Variation && parent.is_none() {
        errors.push(CellError::new(
            "Parent",
            cell("Parent"),
            "is empty: a variation needs its variable product",
        ));
    }
    if kind != ProductKind::Variation && parent.is_some() {
        errors.push(CellError::new(
            "Parent",
            cell("Parent"),
            "is set on a product that is not a variation",
        ));
    }
    if let (Some(Some(sale)), Some(Some(regular))) = (sale_price, regular_price) {
        if sale > regular {
            errors.push(CellError::new(
                "Sale price",
                cell("Sale price"),
                "is more than the regular price",
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (Some(id), Some(status), Some(featured), Some(visibility)) =
        (id, status, featured, visibility)
    else {
        return Err(errors);
    };
    let dimensions = match dims {
        [None, None, None] => None,
        [l, w, h] => Some(Dimensions {
            length_mm: l.unwrap_or(0),
            width_mm: w.unwrap_or(0),
            height_mm: h.unwrap_or(0),
        }),
    };
    Ok((
        ProductRow {
            id,
            kind,
            is_virtual,
            sku: cell("SKU").trim().to_string(),
            name,
            status,
            featured,
            visibility,
            short_description: unescape_newlines(cell("Short description")),
            description: unescape_newlines(cell("Description")),
            sale_from: sale_from.flatten(),
            sale_to: sale_to.flatten(),
            tax_status: tax_status.unwrap_or(TaxStatus::Taxable),
            tax_class: cell("Tax class").trim().to_string(),
            stock_status: stock_status.unwrap_or(StockStatus::InStock),
            stock: stock.flatten(),
            low_stock_amount: low_stock_amount.flatten(),
            backorders: backorders.unwrap_or(Backorders::No),
            sold_individually: sold_individually.unwrap_or(false),
            weight_grams,
            dimensions,
            reviews_allowed: reviews_allowed.unwrap_or(true),
            purchase_note: unescape_newlines(cell("Purchase note")),
            sale_price: sale_price.flatten(),
            regular_price: regular_price.flatten(),
            categories: split_list(cell("Categories"))
                .iter()
                .map(|path| {
                    path.split('>')
                        .map(|p| p.trim().to_string())
                        .filter(|p| !p.is_empty())
                        .collect::<Vec<_>>()
                })
                .filter(|p| !p.is_empty())
                .collect(),
            tags: split_list(cell("Tags")),
            shipping_class: cell("Shipping class").trim().to_string(),
            images: split_list(cell("Images")),
            parent,
            upsells: upsells.unwrap_or_default(),
            cross_sells: cross_sells.unwrap_or_default(),
            external_url: cell("External URL").trim().to_string(),
            button_text: cell("Button text").trim().to_string(),
            position: position.unwrap_or(0),
            brands: split_list(cell("Brands")),
            attributes,
        },
        warnings,
    ))
}

fn header_name(header: &Header, index: usize) -> String {
    if header.weight == Some(index) {
        return format!("Weight ({})", header.weight_unit.unwrap_or(Unit::KG).label);
    }
    for (slot, label) in ["Length", "Width", "Height"].iter().enumerate() {
        if header.dims[slot] == Some(index) {
            return format!("{label} ({})", header.length_unit.unwrap_or(Unit::CM).label);
        }
    }
    for (n, columns) in header.attributes.iter().enumerate() {
        if let Some(slot) = columns.iter().position(|c| *c == Some(index)) {
            return attribute_columns(n + 1)[slot].clone();
        }
    }
    header
        .columns
        .iter()
        .find(|(_, &i)| i == index)
        .map(|(name, _)| name.to_string())
        .unwrap_or_else(|| format!("column {}", index + 1))
}

// ---- Value formats, both ways ----

/// Characters a spreadsheet would take as the start of a formula; the exporter puts
/// a quote before a text value starting with one, and the importer takes it off.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A cell as the importer reads it: the exporter's formula guard removed.
pub fn unescape_cell(value: &str) -> &str {
    match value.strip_prefix('\'') {
        Some(rest) if rest.starts_with(FORMULA_STARTS) => rest,
        _ => value,
    }
}

/// A text cell as the exporter writes it: guarded against being taken as a formula.
pub fn escape_cell(value: &str) -> String {
    if value.starts_with(FORMULA_STARTS) {
        format!("'{value}")
    } else {
        value.to_string()
    }
}

/// Splits "a, b\, c" into ["a", "b, c"]: commas separate, a backslash keeps one.
pub fn split_list(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&',') => {
                current.push(',');
                chars.next();
            }
            ',' => out.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    out.push(current);
    out.into_iter()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

/// The reverse of `split_list`.
pub fn join_list<S: AsRef<str>>(values: &[S]) -> String {
    values
        .iter()
        .map(|v| v.as_ref().replace(',', "\\,"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The exporter writes a newline in a description as the two characters `\n`.
pub fn unescape_newlines(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('n') => {
                    chars.next();
                    out.push('\n');
                    continue;
                }
                Some('\\') => {
                    chars.next();
                    out.push('\\');
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

/// The reverse of `unescape_newlines`.
pub fn escape_newlines(value: &str) -> String {
    value.replace('\\', "\\\\").replace('\n', "\\n")
}

/// A decimal number that is not a whole count of the unit asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotExact;

/// A decimal number as an integer count of `10^-shift` units, exactly: "12.5" with
/// shift 2 is 1250; "12.345" with shift 2 is an error. Empty is None.
pub fn parse_scaled(
    value: &str,
    shift: u32,
    decimal_separator: char,
) -> Result<Option<i64>, NotExact> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    let (whole, frac) = match value.split_once(['.', decimal_separator]) {
        Some((w, f)) => (w, f),
        None => (value, ""),
    };
    if whole.is_empty() && frac.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(NotExact);
    }
    let significant = frac.trim_end_matches('0');
    if significant.len() > shift as usize {
        return Err(NotExact);
    }
    let scale = 10i64.checked_pow(shift).ok_or(NotExact)?;
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| NotExact)?
    };
    let frac_value: i64 = if significant.is_empty() {
        0
    } else {
        let padded = format!("{significant:0<width$}", width = shift as usize);
        padded.parse().map_err(|_| NotExact)?
    };
    whole
        .checked_mul(scale)
        .and_then(|w| w.checked_add(frac_value))
        .map(Some)
        .ok_or(NotExact)
}

/// An integer count of `10^-shift` units as the shortest decimal: 200 g in kg is "0.2".
pub fn format_scaled(value: i64, shift: u32) -> String {
    let negative = value < 0;
    let digits = value.unsigned_abs().to_string();
    let d = shift as usize;
    let padded = format!("{digits:0>width$}", width = d + 1);
    let (whole, frac) = padded.split_at(padded.len() - d);
    let frac = frac.trim_end_matches('0');
    let sign = if negative { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// A price in the shop currency's minor units. The dot and the shop's own decimal
/// separator are both read; grouping and symbols are not.
pub fn parse_price(value: &str, currency: &CurrencyFormat) -> Result<Option<i64>, &'static str> {
    let separator = currency.decimal_separator.chars().next().unwrap_or('.');
    parse_scaled(value, currency.decimals, separator).map_err(|_| "is not a price")
}

/// A price as the exporter writes it: the shop's decimals and decimal separator.
pub fn format_price(minor: Option<i64>, currency: &CurrencyFormat) -> String {
    match minor {
        None => String::new(),
        Some(m) => {
            let plain = currency.format_decimal(crate::money::Money::new(m));
            if currency.decimal_separator == "." {
                plain
            } else {
                plain.replace('.', &currency.decimal_separator)
            }
        }
    }
}

fn parse_optional_int(value: &str) -> Result<Option<i64>, &'static str> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    value.parse().map(Some).map_err(|_| "is not a whole number")
}

/// 1/0 as the exporter writes it; yes/no and true/false as people type it.
pub fn parse_bool(value: &str, default: bool) -> Result<bool, &'static str> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" => Ok(default),
        "1" | "yes" | "true" => Ok(true),
        "0" | "no" | "false" => Ok(false),
        _ => Err("is not 1 or 0"),
    }
}

pub fn format_bool(value: bool) -> &'static str {
    if value {
        "1"
    } else {
        "0"
    }
}

fn parse_enum<T>(value: &str, default: T, parse: fn(&str) -> Option<T>) -> Result<T, &'static str> {
    let value = value.trim().to_ascii_lowercase();
    if value.is_empty() {
        return Ok(default);
    }
    parse(&value).ok_or("is not one of the values this column takes")
}

/// "simple", "variable", "variation", "external", with ", virtual" and
/// ", downloadable" flags: (kind, virtual, downloadable).
pub fn parse_type(value: &str) -> Result<(ProductKind, bool, bool), &'static str> {
    let mut kind = None;
    let (mut is_virtual, mut downloadable) = (false, false);
    for part in split_list(value) {
        match part.to_ascii_lowercase().as_str() {
            "virtual" => is_virtual = true,
            "downloadable" => downloadable = true,
            "grouped" => return Err("is a grouped product, which the shop does not have"),
            other => match ProductKind::parse(other) {
                Some(k) if kind.is_none() => kind = Some(k),
                _ => return Err("is not simple, variable, variation or external"),
            },
        }
    }
    Ok((
        kind.unwrap_or(ProductKind::Simple),
        is_virtual,
        downloadable,
    ))
}

pub fn format_type(kind: ProductKind, is_virtual: bool) -> String {
    if is_virtual {
        format!("{}, virtual", kind.as_str())
    } else {
        kind.as_str().to_string()
    }
}

/// 1 published, 0 private, -1 draft.
pub fn parse_published(value: &str) -> Result<ProductStatus, &'static str> {
    match value.trim() {
        "" | "1" => Ok(ProductStatus::Publish),
        "0" => Ok(ProductStatus::Private),
        "-1" => Ok(ProductStatus::Draft),
        _ => Err("is not 1 (published), 0 (private) or -1 (draft)"),
    }
}

pub fn format_published(status: ProductStatus) -> &'static str {
    match status {
        ProductStatus::Publish => "1",
        ProductStatus::Private => "0",
        ProductStatus::Draft => "-1",
    }
}

/// 1 in stock, 0 out of stock, "backorder" on backorder.
pub fn parse_stock_status(value: &str) -> Result<StockStatus, &'static str> {
    match value.trim().to_ascii_lowercase().as_str() {
        "backorder" | "onbackorder" => Ok(StockStatus::OnBackorder),
        other => parse_bool(other, true)
            .map(|b| {
                if b {
                    StockStatus::InStock
                } else {
                    StockStatus::OutOfStock
                }
            })
            .map_err(|_| "is not 1, 0 or backorder"),
    }
}

pub fn format_stock_status(status: StockStatus) -> &'static str {
    match status {
        StockStatus::InStock => "1",
        StockStatus::OutOfStock => "0",
        StockStatus::OnBackorder => "backorder",
    }
}

/// A stock count, or empty (stock not kept); a variation's "parent" is read as not
/// kept on the variation itself.
fn parse_stock(value: &str) -> Result<Option<i64>, &'static str> {
    match value.trim() {
        "parent" => Ok(None),
        other => parse_optional_int(other),
    }
}

/// 1 allowed, 0 not, "notify" allowed with a notice.
pub fn parse_backorders(value: &str) -> Result<Backorders, &'static str> {
    match value.trim().to_ascii_lowercase().as_str() {
        "notify" => Ok(Backorders::Notify),
        other => parse_bool(other, false)
            .map(|b| if b { Backorders::Yes } else { Backorders::No })
            .map_err(|_| "is not 1, 0 or notify"),
    }
}

pub fn format_backorders(b: Backorders) -> &'static str {
    match b {
        Backorders::Yes => "1",
        Backorders::No => "0",
        Backorders::Notify => "notify",
    }
}

fn parse_ref(value: &str) -> Result<Option<ProductRef>, &'static str> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    ProductRef::parse(value)
        .map(Some)
        .ok_or("is not id:NUMBER or a SKU")
}

fn parse_refs(value: &str) -> Result<Vec<ProductRef>, &'static str> {
    split_list(value)
        .iter()
        .map(|v| ProductRef::parse(v).ok_or("is not a list of SKUs or id:NUMBER"))
        .collect()
}

/// "2024-05-01", "2024-05-01 0:00:00" or "2024-05-01T00:00:00", read as UTC.
pub fn parse_date(value: &str) -> Result<Option<i64>, &'static str> {
    const BAD: &str = "is not a date like 2024-05-01 or 2024-05-01 13:30:00";
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    let (date, time) = match value.split_once([' ', 'T']) {
        Some((d, t)) => (d, Some(t.trim())),
        None => (value, None),
    };
    let num = |s: &str, max_len: usize| -> Result<u32, &'static str> {
        if s.is_empty() || s.len() > max_len || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BAD);
        }
        s.parse().map_err(|_| BAD)
    };
    let mut d = date.split('-');
    let (Some(y), Some(m), Some(day), None) = (d.next(), d.next(), d.next(), d.next()) else {
        return Err(BAD);
    };
    if y.len() != 4 {
        return Err(BAD);
    }
    let month = time::Month::try_from(num(m, 2)? as u8).map_err(|_| BAD)?;
    let date = time::Date::from_calendar_date(num(y, 4)? as i32, month, num(day, 2)? as u8)
        .map_err(|_| BAD)?;
    let (mut h, mut mi, mut s) = (0, 0, 0);
    if let Some(t) = time {
        let mut parts = t.split(':');
        h = num(parts.next().unwrap_or(""), 2)?;
        mi = parts.next().map_or(Ok(0), |p| num(p, 2))?;
        s = parts.next().map_or(Ok(0), |p| num(p, 2))?;
        if parts.next().is_some() {
            return Err(BAD);
        }
    }
    let time = time::Time::from_hms(h as u8, mi as u8, s as u8).map_err(|_| BAD)?;
    Ok(Some(
        time::PrimitiveDateTime::new(date, time)
            .assume_utc()
            .unix_timestamp(),
    ))
}

/// As the exporter writes a date: "2024-05-01 0:00:00" (hour without a leading zero).
pub fn format_date(unix: Option<i64>) -> String {
    let Some(t) = unix.and_then(|u| time::OffsetDateTime::from_unix_timestamp(u).ok()) else {
        return String::new();
    };
    format!(
        "{:04}-{:02}-{:02} {}:{:02}:{:02}",
        t.year(),
        t.month() as u8,
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// A URL-safe name: lowercase letters and digits joined by single dashes.
pub fn slugify(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("item");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_parse_exactly_in_minor_units() {
        let usd = CurrencyFormat::usd();
        assert_eq!(parse_price("12.5", &usd), Ok(Some(1250)));
        assert_eq!(parse_price("12", &usd), Ok(Some(1200)));
        assert_eq!(parse_price(".99", &usd), Ok(Some(99)));
        assert_eq!(parse_price("12.500", &usd), Ok(Some(1250)));
        assert_eq!(parse_price("", &usd), Ok(None));
        assert!(parse_price("12.345", &usd).is_err());
        assert!(parse_price("12,9x", &usd).is_err());
        assert!(parse_price("-3", &usd).is_err());
        assert!(parse_price("1e3", &usd).is_err());
        assert!(parse_price("99999999999999999999", &usd).is_err());
        let eur = CurrencyFormat {
            decimal_separator: ",".into(),
            ..CurrencyFormat::usd()
        };
        assert_eq!(parse_price("12,50", &eur), Ok(Some(1250)));
        assert_eq!(format_price(Some(1250), &eur), "12,50");
        assert_eq!(format_price(Some(5), &usd), "0.05");
        let jpy = CurrencyFormat {
            decimals: 0,
            ..CurrencyFormat::usd()
        };
        assert_eq!(parse_price("1200", &jpy), Ok(Some(1200)));
        assert!(parse_price("12.5", &jpy).is_err());
    }

    #[test]
    fn weights_and_sizes_convert_exactly() {
        assert_eq!(parse_scaled("0.2", 3, '.'), Ok(Some(200)));
        assert_eq!(parse_scaled("1.25", 1, '.'), Err(NotExact));
        assert_eq!(parse_scaled("12.5", 1, '.'), Ok(Some(125)));
        assert_eq!(format_scaled(200, 3), "0.2");
        assert_eq!(format_scaled(1000, 3), "1");
        assert_eq!(format_scaled(125, 1), "12.5");
    }

    #[test]
    fn lists_keep_escaped_commas() {
        assert_eq!(
            split_list("Clothing > Hoodies, Decor\\, home ,"),
            vec!["Clothing > Hoodies", "Decor, home"]
        );
        assert_eq!(join_list(&["a", "b, c"]), "a, b\\, c");
        assert_eq!(split_list(&join_list(&["x,y", "z"])), vec!["x,y", "z"]);
    }

    #[test]
    fn flags_and_statuses_read_as_the_exporter_writes_them() {
        assert_eq!(parse_published("-1"), Ok(ProductStatus::Draft));
        assert_eq!(parse_published("0"), Ok(ProductStatus::Private));
        assert!(parse_published("2x").is_err());
        assert_eq!(
            parse_stock_status("backorder"),
            Ok(StockStatus::OnBackorder)
        );
        assert_eq!(parse_stock_status("0"), Ok(StockStatus::OutOfStock));
        assert_eq!(parse_backorders("notify"), Ok(Backorders::Notify));
        assert_eq!(parse_backorders("1"), Ok(Backorders::Yes));
        assert!(parse_bool("maybe", false).is_err());
        assert_eq!(
            parse_type("simple, virtual"),
            Ok((ProductKind::Simple, true, false))
        );
        assert!(parse_type("grouped").is_err());
        assert_eq!(
            format_type(ProductKind::Variable, true),
            "variable, virtual"
        );
    }

    #[test]
    fn dates_round_trip_in_the_exporters_format() {
        let t = parse_date("2024-05-01 0:00:00").unwrap();
        assert_eq!(t, Some(1_714_521_600));
        assert_eq!(parse_date("2024-05-01").unwrap(), t);
        assert_eq!(format_date(t), "2024-05-01 0:00:00");
        assert_eq!(
            format_date(parse_date("2024-12-31T23:59:59").unwrap()),
            "2024-12-31 23:59:59"
        );
        assert!(parse_date("2024-13-01").is_err());
        assert!(parse_date("01/05/2024").is_err());
    }

    #[test]
    fn text_cells_are_guarded_against_formulas() {
        assert_eq!(escape_cell("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(unescape_cell("'=SUM(A1)"), "=SUM(A1)");
        assert_eq!(unescape_cell("'quoted'"), "'quoted'");
        assert_eq!(unescape_newlines(&escape_newlines("a\nb\\nc")), "a\nb\\nc");
    }

    #[test]
    fn a_row_reports_every_bad_value() {
        let header = Header::parse([
            "ID",
            "Type",
            "Name",
            "Regular price",
            "Weight (kg)",
            "In stock?",
        ])
        .unwrap();
        let errors = parse_row(
            &header,
            &["x", "simple", "Mug", "12,9x", "0.0001", "perhaps"],
            &CurrencyFormat::usd(),
        )
        .unwrap_err();
        let columns: Vec<&str> = errors.iter().map(|e| e.column.as_str()).collect();
        assert_eq!(columns, ["ID", "In stock?", "Regular price", "Weight (kg)"]);
        assert_eq!(errors[2].message, "\"12,9x\" is not a price");
    }

    #[test]
    fn units_come_from_the_header() {
        let header = Header::parse(["Name", "Weight (g)", "Length (mm)"]).unwrap();
        let (row, _) = parse_row(&header, &["Mug", "250", "90"], &CurrencyFormat::usd()).unwrap();
        assert_eq!(row.weight_grams, Some(250));
        assert_eq!(row.dimensions.unwrap().length_mm, 90);
        assert!(Header::parse(["Weight (lbs)"]).is_err());
    }

    #[test]
    fn slugs_are_url_safe() {
        assert_eq!(slugify("Tom & Jerry <Mug>"), "tom-jerry-mug");
        assert_eq!(slugify("  "), "item");
    }
}
