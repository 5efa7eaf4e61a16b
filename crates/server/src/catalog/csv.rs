//! `ferroshop products import|export`: the catalogue in and out of the original shop's
//! product CSV. An import reads the file twice, streaming: first it checks every row
//! and gathers the names it refers to, then (only when all is well) it writes the
//! rows in one transaction. An export streams the products from the database in
//! batches. Value formats live in `rules::catalog::csv`.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;

use rules::catalog::csv::{self as format, CellError, Header, ProductRef, ProductRow};
use rules::catalog::model::*;
use rules::money::CurrencyFormat;
use store::catalog_import::{self, CatalogKeys, ImportWriter, NewTerms};
use store::Db;

/// Products written per batch, both ways.
const BATCH: usize = 500;

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub created: usize,
    pub updated: usize,
    /// "line 4, Images: …" for what was not taken (images not in the shop, columns
    /// the shop does not keep).
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Every problem in the file, "line 17, Regular price: …"; nothing was written.
    #[error("the file has {} problem(s); nothing was imported", .0.len())]
    Invalid(Vec<String>),
    #[error("{0}")]
    Failed(String),
}

impl From<store::StoreError> for ImportError {
    fn from(e: store::StoreError) -> Self {
        ImportError::Failed(e.to_string())
    }
}

impl From<csv::Error> for ImportError {
    fn from(e: csv::Error) -> Self {
        ImportError::Failed(e.to_string())
    }
}

fn problem(line: u64, e: &CellError) -> String {
    format!("line {line}, {}: {}", e.column, e.message)
}

/// The file's rows, read one at a time into one reused record.
struct Rows {
    reader: csv::Reader<std::fs::File>,
    header: Header,
    record: csv::StringRecord,
}

impl Rows {
    fn open(path: &Path) -> Result<Rows, ImportError> {
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_path(path)
            .map_err(|e| ImportError::Failed(format!("{}: {e}", path.display())))?;
        let header = Header::parse(reader.headers()?.iter()).map_err(|errors| {
            ImportError::Invalid(errors.into_iter().map(|e| format!("line 1, {e}")).collect())
        })?;
        Ok(Rows {
            reader,
            header,
            record: csv::StringRecord::new(),
        })
    }

    /// Moves to the next row and gives its line number; None at the end.
    fn advance(&mut self) -> Result<Option<u64>, ImportError> {
        match self.reader.read_record(&mut self.record) {
            Ok(false) => Ok(None),
            Ok(true) => Ok(Some(self.record.position().map_or(0, |p| p.line()))),
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                Err(ImportError::Invalid(vec![format!(
                    "line {line}: not readable as CSV ({e})"
                )]))
            }
        }
    }

    fn parse(
        &self,
        currency: &CurrencyFormat,
    ) -> Result<(ProductRow, format::Warnings), Vec<CellError>> {
        let fields: Vec<&str> = self.record.iter().collect();
        format::parse_row(&self.header, &fields, currency)
    }
}

/// Where a row goes: the product it names, or a new one.
#[derive(Debug, Clone, Copy)]
struct RowTarget {
    line: u64,
    id: Option<ProductId>,
    kind: ProductKind,
}

/// What the first pass learns: each row's target, the SKUs and ids the file
/// defines, the references to check, and every name of a term it uses.
#[derive(Default)]
struct Survey {
    rows: Vec<RowTarget>,
    sku_rows: HashMap<String, usize>,
    id_rows: HashMap<ProductId, usize>,
    references: Vec<(usize, &'static str, ProductRef)>,
    category_paths: Vec<Vec<String>>,
    seen_paths: HashSet<Vec<String>>,
    tags: Vec<String>,
    brands: Vec<String>,
    /// Global attribute names (as first written) and their term names in order.
    attributes: Vec<(String, Vec<String>)>,
    /// (variation row, attribute name lowercased): what makes a parent's attribute
    /// one its variations are made from.
    variation_attributes: Vec<(usize, String)>,
    errors: Vec<(u64, String)>,
    warnings: Vec<String>,
}

fn push_unique(list: &mut Vec<String>, value: &str) {
    if !list.iter().any(|v| v.eq_ignore_ascii_case(value)) {
        list.push(value.to_string());
    }
}

/// The catalogue's names, for finding terms and creating the missing ones.
struct Terms {
    categories: HashMap<(Option<CategoryId>, String), CategoryId>,
    category_slugs: HashSet<String>,
    tags: HashMap<String, TagId>,
    tag_slugs: HashSet<String>,
    brands: HashMap<String, BrandId>,
    brand_slugs: HashSet<String>,
    /// lowercased name → (id, name, taxonomy)
    attributes: HashMap<String, (AttributeId, String, String)>,
    taxonomies: HashSet<String>,
    /// (attribute, lowercased term name) → slug
    terms: HashMap<(AttributeId, String), String>,
    term_slugs: HashSet<(AttributeId, String)>,
    term_counts: HashMap<AttributeId, i64>,
    media: HashMap<String, MediaId>,
    next_term: i64,
    next_attribute: i64,
    new: NewTerms,
}

fn unique_slug(name: &str, used: &mut HashSet<String>) -> String {
    let base = format::slugify(name);
    let mut slug = base.clone();
    let mut n = 2;
    while used.contains(&slug) {
        slug = format!("{base}-{n}");
        n += 1;
    }
    used.insert(slug.clone());
    slug
}

impl Terms {
    fn new(keys: &CatalogKeys) -> Terms {
        let mut t = Terms {
            categories: keys
                .categories
                .iter()
                .map(|c| ((c.parent_id, c.name.to_lowercase()), c.id))
                .collect(),
            category_slugs: keys.categories.iter().map(|c| c.slug.clone()).collect(),
            tags: keys
                .tags
                .iter()
                .map(|x| (x.name.to_lowercase(), x.id))
                .collect(),
            tag_slugs: keys.tags.iter().map(|x| x.slug.clone()).collect(),
            brands: keys
                .brands
                .iter()
                .map(|x| (x.name.to_lowercase(), x.id))
                .collect(),
            brand_slugs: keys.brands.iter().map(|x| x.slug.clone()).collect(),
            attributes: keys
                .attributes
                .iter()
                .map(|a| {
                    (
                        a.name.to_lowercase(),
                        (a.id, a.name.clone(), a.taxonomy.clone()),
                    )
                })
                .collect(),
            taxonomies: keys.attributes.iter().map(|a| a.taxonomy.clone()).collect(),
            terms: HashMap::new(),
            term_slugs: HashSet::new(),
            term_counts: HashMap::new(),
            media: keys
                .media
                .iter()
                .map(|(id, name)| (name.clone(), *id))
                .collect(),
            next_term: keys.max_term_id() + 1,
            next_attribute: keys.attributes.iter().map(|a| a.id.0).max().unwrap_or(0) + 1,
            new: NewTerms::default(),
        };
        for a in &keys.attributes {
            for term in &a.terms {
                t.terms
                    .insert((a.id, term.name.to_lowercase()), term.slug.clone());
                t.term_slugs.insert((a.id, term.slug.clone()));
            }
            t.term_counts.insert(a.id, a.terms.len() as i64);
        }
        t
    }

    /// One id space for categories, brands, tags and attribute terms.
    fn next_term_id(&mut self) -> i64 {
        let id = self.next_term;
        self.next_term += 1;
        id
    }

    fn category(&mut self, path: &[String]) -> CategoryId {
        let mut parent = None;
        for name in path {
            let key = (parent, name.to_lowercase());
            let id = match self.categories.get(&key) {
                Some(id) => *id,
                None => {
                    let id = CategoryId(self.next_term_id());
                    let slug = unique_slug(name, &mut self.category_slugs);
                    self.new.categories.push(Category {
                        id,
                        parent_id: parent,
                        name: name.clone(),
                        slug,
                        description: String::new(),
                        menu_order: 0,
                        image_id: None,
                    });
                    self.categories.insert(key, id);
                    id
                }
            };
            parent = Some(id);
        }
        parent.unwrap_or(CategoryId(0))
    }

    fn tag(&mut self, name: &str) -> TagId {
        if let Some(id) = self.tags.get(&name.to_lowercase()) {
            return *id;
        }
        let id = TagId(self.next_term_id());
        let slug = unique_slug(name, &mut self.tag_slugs);
        self.new.tags.push(Tag {
            id,
            name: name.to_string(),
            slug,
        });
        self.tags.insert(name.to_lowercase(), id);
        id
    }

    fn brand(&mut self, name: &str) -> BrandId {
        if let Some(id) = self.brands.get(&name.to_lowercase()) {
            return *id;
        }
        let id = BrandId(self.next_term_id());
        let slug = unique_slug(name, &mut self.brand_slugs);
        self.new.brands.push(Brand {
            id,
            name: name.to_string(),
            slug,
            description: String::new(),
            image_id: None,
        });
        self.brands.insert(name.to_lowercase(), id);
        id
    }

    /// (id, name, taxonomy) of a global attribute, created when new.
    fn attribute(&mut self, name: &str) -> (AttributeId, String, String) {
        if let Some(a) = self.attributes.get(&name.to_lowercase()) {
            return a.clone();
        }
        let id = AttributeId(self.next_attribute);
        self.next_attribute += 1;
        let mut taxonomy = format!("pa_{}", format::slugify(name));
        let mut n = 2;
        while self.taxonomies.contains(&taxonomy) {
            taxonomy = format!("pa_{}-{n}", format::slugify(name));
            n += 1;
        }
        self.taxonomies.insert(taxonomy.clone());
        self.new.attributes.push(Attribute {
            id,
            name: name.to_string(),
            taxonomy: taxonomy.clone(),
            terms: Vec::new(),
            ..Default::default()
        });
        let entry = (id, name.to_string(), taxonomy);
        self.attributes.insert(name.to_lowercase(), entry.clone());
        entry
    }

    /// The slug of a global attribute's term, created when new.
    fn term(&mut self, attribute: AttributeId, name: &str) -> String {
        let key = (attribute, name.to_lowercase());
        if let Some(slug) = self.terms.get(&key) {
            return slug.clone();
        }
        let base = format::slugify(name);
        let mut slug = base.clone();
        let mut n = 2;
        while self.term_slugs.contains(&(attribute, slug.clone())) {
            slug = format!("{base}-{n}");
            n += 1;
        }
        self.term_slugs.insert((attribute, slug.clone()));
        let count = self.term_counts.entry(attribute).or_insert(0);
        let position = *count;
        *count += 1;
        let id = TermId(self.next_term_id());
        self.new.terms.push((
            attribute,
            Term {
                id,
                name: name.to_string(),
                slug: slug.clone(),
                ..Default::default()
            },
            position,
        ));
        self.terms.insert(key, slug.clone());
        slug
    }
}

/// The media file an image value names: the value itself, or a URL's last segment.
fn media_name(value: &str) -> &str {
    let path = value.split(['?', '#']).next().unwrap_or(value);
    path.rsplit('/').next().unwrap_or(path)
}

/// Imports `path` into the catalogue. Either every row is written, in one
/// transaction, or (any problem in any row) nothing is.
pub async fn import(
    db: &Db,
    path: &Path,
    currency: &CurrencyFormat,
    now: i64,
) -> Result<ImportReport, ImportError> {
    let keys = catalog_import::load_keys(db).await?;
    let existing: HashMap<ProductId, &catalog_import::ExistingProduct> =
        keys.products.iter().map(|p| (p.id, p)).collect();
    let existing_skus: HashMap<&str, ProductId> = keys
        .products
        .iter()
        .filter(|p| !p.sku.is_empty())
        .map(|p| (p.sku.as_str(), p.id))
        .collect();
    let media: HashSet<&str> = keys.media.iter().map(|(_, n)| n.as_str()).collect();

    // Pass 1: check every row and gather what it names.
    let mut s = Survey::default();
    let mut rows = Rows::open(path)?;
    while let Some(line) = rows.advance()? {
        let (row, warnings) = match rows.parse(currency) {
            Ok(parsed) => parsed,
            Err(errors) => {
                for e in &errors {
                    s.errors.push((line, problem(line, e)));
                }
                s.rows.push(RowTarget {
                    line,
                    id: None,
                    kind: ProductKind::Simple,
                });
                continue;
            }
        };
        let index = s.rows.len();
        s.warnings.extend(warnings.iter().map(|w| problem(line, w)));
        let mut error = |column: &str, message: String| {
            s.errors
                .push((line, format!("line {line}, {column}: {message}")));
        };
        let by_sku = (!row.sku.is_empty())
            .then(|| existing_skus.get(row.sku.as_str()).copied())
            .flatten();
        let id = match (row.id, by_sku) {
            (Some(id), Some(owner)) if owner != id => {
                error(
                    "SKU",
                    format!("{:?} belongs to product {owner}, not {id}", row.sku),
                );
                Some(id)
            }
            (Some(id), _) => Some(id),
            (None, owner) => owner,
        };
        if let Some(id) = id {
            if id.0 <= 0 {
                error("ID", format!("\"{id}\" is not a product id"));
            } else if let Some(&other) = s.id_rows.get(&id) {
                error(
                    "ID",
                    format!("\"{id}\" is also on line {}", s.rows[other].line),
                );
            } else {
                s.id_rows.insert(id, index);
            }
            if let Some(p) = existing.get(&id) {
                if (p.kind == ProductKind::Variation) != (row.kind == ProductKind::Variation) {
                    error(
                        "Type",
                        format!(
                            "\"{}\" cannot replace product {id}, a {}",
                            row.kind.as_str(),
                            p.kind.as_str()
                        ),
                    );
                }
            }
        }
        if !row.sku.is_empty() {
            if let Some(&other) = s.sku_rows.get(&row.sku) {
                error(
                    "SKU",
                    format!("{:?} is also on line {}", row.sku, s.rows[other].line),
                );
            } else {
                s.sku_rows.insert(row.sku.clone(), index);
            }
        }
        if let Some(parent) = &row.parent {
            s.references.push((index, "Parent", parent.clone()));
        }
        for r in &row.upsells {
            s.references.push((index, "Upsells", r.clone()));
        }
        for r in &row.cross_sells {
            s.references.push((index, "Cross-sells", r.clone()));
        }
        for path in row.categories {
            if s.seen_paths.insert(path.clone()) {
                s.category_paths.push(path);
            }
        }
        for t in &row.tags {
            push_unique(&mut s.tags, t);
        }
        for b in &row.brands {
            push_unique(&mut s.brands, b);
        }
        for a in &row.attributes {
            if row.kind == ProductKind::Variation {
                s.variation_attributes.push((index, a.name.to_lowercase()));
                if a.values.len() > 1 {
                    s.errors.push((
                        line,
                        format!(
                            "line {line}, Attribute {:?}: a variation takes one value, not {}",
                            a.name,
                            a.values.len()
                        ),
                    ));
                }
            }
            if a.global {
                let slot = match s
                    .attributes
                    .iter()
                    .position(|(n, _)| n.eq_ignore_ascii_case(&a.name))
                {
                    Some(i) => i,
                    None => {
                        s.attributes.push((a.name.clone(), Vec::new()));
                        s.attributes.len() - 1
                    }
                };
                for v in a
                    .values
                    .iter()
                    .chain((!a.default.is_empty()).then_some(&a.default))
                {
                    push_unique(&mut s.attributes[slot].1, v);
                }
            }
        }
        for image in &row.images {
            if !media.contains(media_name(image)) {
                s.warnings.push(format!(
                    "line {line}, Images: {image:?} is not an image in the shop; not fetched, left out"
                ));
            }
        }
        s.rows.push(RowTarget {
            line,
            id,
            kind: row.kind,
        });
    }

    // New products take ids after every id in the catalogue and in the file.
    let mut next_id = keys
        .products
        .iter()
        .map(|p| p.id.0)
        .chain(s.id_rows.keys().map(|i| i.0))
        .max()
        .unwrap_or(0)
        + 1;
    let mut ids: Vec<ProductId> = Vec::with_capacity(s.rows.len());
    for r in &s.rows {
        ids.push(r.id.unwrap_or_else(|| {
            let id = ProductId(next_id);
            next_id += 1;
            id
        }));
    }
    let kind_of = |id: ProductId| -> Option<ProductKind> {
        s.id_rows
            .get(&id)
            .map(|&i| s.rows[i].kind)
            .or_else(|| existing.get(&id).map(|p| p.kind))
    };
    // A reference names a row of the file (by id or SKU) or a product in the shop.
    let resolve = |r: &ProductRef| -> Option<(ProductId, ProductKind)> {
        match r {
            ProductRef::Id(id) => kind_of(*id).map(|k| (*id, k)),
            ProductRef::Sku(sku) => match s.sku_rows.get(sku) {
                Some(&i) => Some((ids[i], s.rows[i].kind)),
                None => existing_skus
                    .get(sku.as_str())
                    .and_then(|id| kind_of(*id).map(|k| (*id, k))),
            },
        }
    };
    let mut resolved: HashMap<ProductRef, ProductId> = HashMap::new();
    let mut parents: Vec<Option<ProductId>> = vec![None; s.rows.len()];
    for (index, column, r) in &s.references {
        let line = s.rows[*index].line;
        let shown = match r {
            ProductRef::Id(id) => format!("id:{id}"),
            ProductRef::Sku(sku) => sku.clone(),
        };
        match resolve(r) {
            None => s.errors.push((
                line,
                format!("line {line}, {column}: {shown:?} is no product in the shop or the file"),
            )),
            Some((id, kind)) => {
                if *column == "Parent" {
                    if kind != ProductKind::Variable {
                        s.errors.push((
                            line,
                            format!("line {line}, Parent: {shown:?} is not a variable product"),
                        ));
                    }
                    parents[*index] = Some(id);
                }
                resolved.insert(r.clone(), id);
            }
        }
    }
    if !s.errors.is_empty() {
        s.errors.sort_by_key(|(line, _)| *line);
        return Err(ImportError::Invalid(
            s.errors.into_iter().map(|(_, e)| e).collect(),
        ));
    }

    // The terms the file names, found or created.
    let mut terms = Terms::new(&keys);
    for path in &s.category_paths {
        terms.category(path);
    }
    for t in &s.tags {
        terms.tag(t);
    }
    for b in &s.brands {
        terms.brand(b);
    }
    for (name, values) in &s.attributes {
        let (id, _, _) = terms.attribute(name);
        for v in values {
            terms.term(id, v);
        }
    }
    let used_for_variations: HashSet<(ProductId, String)> = s
        .variation_attributes
        .iter()
        .filter_map(|(i, name)| parents[*i].map(|p| (p, name.clone())))
        .collect();

    let mut writer = ImportWriter::begin(db).await?;
    writer.insert_terms(&terms.new).await?;

    // Pass 2 writes the products that are not variations, pass 3 the variations,
    // so every variation's parent is in place before it.
    let mut used_slugs: HashSet<String> = keys.products.iter().map(|p| p.slug.clone()).collect();
    let mut parent_names: HashMap<ProductId, (String, String)> = HashMap::new();
    for p in &keys.products {
        if p.kind == ProductKind::Variable {
            parent_names.insert(p.id, (p.slug.clone(), String::new()));
        }
    }
    let mut report = ImportReport {
        warnings: s.warnings,
        ..ImportReport::default()
    };
    for variations in [false, true] {
        let mut rows = Rows::open(path)?;
        let mut batch = Vec::with_capacity(BATCH);
        let mut index = 0usize;
        while rows.advance()?.is_some() {
            let i = index;
            index += 1;
            let (row, _) = rows.parse(currency).map_err(|_| {
                ImportError::Failed(format!("{} changed while it was imported", path.display()))
            })?;
            if (row.kind == ProductKind::Variation) != variations {
                continue;
            }
            let id = ids[i];
            let old = existing.get(&id);
            batch.push(build_product(
                id,
                &row,
                parents[i],
                old.map(|p| p.slug.as_str()),
                &mut terms,
                &resolved,
                &used_for_variations,
                &mut used_slugs,
                &mut parent_names,
                now,
            ));
            if old.is_some() {
                report.updated += 1;
            } else {
                report.created += 1;
            }
            if batch.len() == BATCH {
                writer
                    .write_products(&batch, &|id| existing.contains_key(&id))
                    .await?;
                batch.clear();
            }
        }
        writer
            .write_products(&batch, &|id| existing.contains_key(&id))
            .await?;
    }
    writer.commit().await?;
    Ok(report)
}

#[allow(clippy::too_many_arguments)]
fn build_product(
    id: ProductId,
    row: &ProductRow,
    parent: Option<ProductId>,
    old_slug: Option<&str>,
    terms: &mut Terms,
    resolved: &HashMap<ProductRef, ProductId>,
    used_for_variations: &HashSet<(ProductId, String)>,
    used_slugs: &mut HashSet<String>,
    parent_names: &mut HashMap<ProductId, (String, String)>,
    now: i64,
) -> Product {
    let (parent_slug, parent_name) = parent
        .and_then(|p| parent_names.get(&p).cloned())
        .unwrap_or_default();
    let name = if row.name.is_empty() {
        let values: Vec<&str> = row
            .attributes
            .iter()
            .filter_map(|a| a.values.first().map(String::as_str))
            .collect();
        format!("{parent_name} - {}", values.join(", "))
    } else {
        row.name.clone()
    };
    let slug = match old_slug {
        Some(s) => s.to_string(),
        None if row.kind == ProductKind::Variation => {
            let mut slug = format!("{parent_slug}-{id}");
            if used_slugs.contains(&slug) {
                slug = unique_slug(&slug, used_slugs);
            }
            used_slugs.insert(slug.clone());
            slug
        }
        None => unique_slug(&name, used_slugs),
    };
    if row.kind == ProductKind::Variable {
        parent_names.insert(id, (slug.clone(), name.clone()));
    }
    let mut p = Product::simple(id, &name, &slug);
    p.parent_id = parent;
    p.kind = row.kind;
    p.status = row.status;
    p.visibility = row.visibility;
    p.sku = row.sku.clone();
    p.short_description = row.short_description.clone();
    p.description = row.description.clone();
    p.menu_order = row.position;
    p.created_at = now;
    p.updated_at = now;
    p.featured = row.featured;
    p.regular_price = row.regular_price;
    p.sale_price = row.sale_price;
    p.sale_from = row.sale_from;
    p.sale_to = row.sale_to;
    p.manage_stock = row.stock.is_some();
    p.stock_quantity = row.stock;
    p.stock_status = row.stock_status;
    p.backorders = row.backorders;
    p.low_stock_amount = row.stock.and(row.low_stock_amount);
    p.sold_individually = row.sold_individually;
    p.weight_grams = row.weight_grams;
    p.dimensions = row.dimensions;
    p.external_url = row.external_url.clone();
    p.button_text = row.button_text.clone();
    p.tax_status = row.tax_status;
    p.tax_class = row.tax_class.clone();
    p.is_virtual = row.is_virtual;
    p.reviews_allowed = row.reviews_allowed;
    p.purchase_note = row.purchase_note.clone();
    p.shipping_class = if row.shipping_class.is_empty() {
        String::new()
    } else {
        format::slugify(&row.shipping_class)
    };
    let linked = |refs: &[ProductRef]| -> Vec<ProductId> {
        let mut out: Vec<ProductId> = Vec::new();
        for r in refs {
            if let Some(id) = resolved.get(r) {
                if !out.contains(id) {
                    out.push(*id);
                }
            }
        }
        out
    };
    p.upsell_ids = linked(&row.upsells);
    p.cross_sell_ids = linked(&row.cross_sells);
    for path in &row.categories {
        let c = terms.category(path);
        if !p.category_ids.contains(&c) {
            p.category_ids.push(c);
        }
    }
    for t in &row.tags {
        let t = terms.tag(t);
        if !p.tag_ids.contains(&t) {
            p.tag_ids.push(t);
        }
    }
    for b in &row.brands {
        let b = terms.brand(b);
        if !p.brand_ids.contains(&b) {
            p.brand_ids.push(b);
        }
    }
    for image in &row.images {
        if let Some(m) = terms.media.get(media_name(image)) {
            if !p.image_ids.contains(m) {
                p.image_ids.push(*m);
            }
        }
    }
    for a in &row.attributes {
        let global = a.global.then(|| terms.attribute(&a.name));
        if row.kind == ProductKind::Variation {
            let value = a.values.first().cloned().unwrap_or_default();
            p.variation.push(match &global {
                Some((id, _, taxonomy)) => VariationValue {
                    attribute: taxonomy.clone(),
                    value: if value.is_empty() {
                        value
                    } else {
                        terms.term(*id, &value)
                    },
                },
                None => VariationValue {
                    attribute: a.name.clone(),
                    value,
                },
            });
            continue;
        }
        let (attribute_id, name, values, default_value) = match &global {
            Some((id, name, _)) => (
                Some(*id),
                name.clone(),
                a.values.iter().map(|v| terms.term(*id, v)).collect(),
                if a.default.is_empty() {
                    String::new()
                } else {
                    terms.term(*id, &a.default)
                },
            ),
            None => (None, a.name.clone(), a.values.clone(), a.default.clone()),
        };
        p.attributes.push(ProductAttribute {
            attribute_id,
            name,
            values,
            visible: a.visible,
            used_for_variations: row.kind == ProductKind::Variable
                && (used_for_variations.contains(&(id, a.name.to_lowercase()))
                    || !a.default.is_empty()),
            default_value,
        });
    }
    p
}

/// Writes the whole catalogue as the original shop's exporter does: its columns in
/// its order and its value formats, one row per product and per variation (each
/// variable product followed by its variations). Images are written as their
/// address under `base_url`. Returns the number of rows.
pub async fn export(
    db: &Db,
    out: impl Write,
    currency: &CurrencyFormat,
    base_url: &str,
) -> Result<usize, ImportError> {
    let keys = catalog_import::load_keys(db).await?;
    let attribute_columns = catalog_import::max_attributes_per_product(db).await? as usize;
    let categories: HashMap<CategoryId, &Category> =
        keys.categories.iter().map(|c| (c.id, c)).collect();
    let category_path = |id: CategoryId| -> String {
        let mut names = Vec::new();
        let mut at = categories.get(&id);
        while let Some(c) = at {
            names.push(c.name.as_str());
            if names.len() > 64 {
                break;
            }
            at = c.parent_id.and_then(|p| categories.get(&p));
        }
        names.reverse();
        names.join(" > ")
    };
    let tags: HashMap<TagId, &str> = keys.tags.iter().map(|t| (t.id, t.name.as_str())).collect();
    let brands: HashMap<BrandId, &str> = keys
        .brands
        .iter()
        .map(|b| (b.id, b.name.as_str()))
        .collect();
    let attributes: HashMap<AttributeId, &Attribute> =
        keys.attributes.iter().map(|a| (a.id, a)).collect();
    let by_taxonomy: HashMap<&str, &Attribute> = keys
        .attributes
        .iter()
        .map(|a| (a.taxonomy.as_str(), a))
        .collect();
    let term_name = |a: &Attribute, slug: &str| -> String {
        a.terms
            .iter()
            .find(|t| t.slug == slug)
            .map_or_else(|| slug.to_string(), |t| t.name.clone())
    };
    let media: HashMap<MediaId, &str> = keys.media.iter().map(|(i, n)| (*i, n.as_str())).collect();
    let skus: HashMap<ProductId, &str> = keys
        .products
        .iter()
        .map(|p| (p.id, p.sku.as_str()))
        .collect();
    let reference = |id: &ProductId| -> String {
        match skus.get(id) {
            Some(sku) if !sku.is_empty() => sku.to_string(),
            _ => format!("id:{id}"),
        }
    };

    let mut writer = csv::WriterBuilder::new().from_writer(out);
    let mut header: Vec<String> = format::EXPORT_COLUMNS
        .iter()
        .map(|c| c.to_string())
        .collect();
    for n in 1..=attribute_columns {
        header.extend(format::attribute_columns(n));
    }
    writer.write_record(&header)?;
    let base = base_url.trim_end_matches('/');
    let mut count = 0;
    let mut after = ProductId(0);
    loop {
        let batch = catalog_import::export_batch(db, after, BATCH as i64).await?;
        let Some(last) = batch.iter().rfind(|p| p.parent_id.is_none()) else {
            break;
        };
        after = last.id;
        for p in &batch {
            let text = |s: &str| format::escape_cell(s);
            let long_text = |s: &str| format::escape_cell(&format::escape_newlines(s));
            let dims = p.dimensions;
            let mut row: Vec<String> = vec![
                p.id.to_string(),
                format::format_type(p.kind, p.is_virtual),
                text(&p.sku),
                String::new(),
                text(&p.name),
                format::format_published(p.status).to_string(),
                format::format_bool(p.featured).to_string(),
                p.visibility.as_str().to_string(),
                long_text(&p.short_description),
                long_text(&p.description),
                format::format_date(p.sale_from),
                format::format_date(p.sale_to),
                p.tax_status.as_str().to_string(),
                text(&p.tax_class),
                format::format_stock_status(p.stock_status).to_string(),
                if p.manage_stock {
                    p.stock_quantity.unwrap_or(0).to_string()
                } else {
                    String::new()
                },
                match p.low_stock_amount {
                    Some(n) if p.manage_stock && n != 0 => n.to_string(),
                    _ => String::new(),
                },
                format::format_backorders(p.backorders).to_string(),
                format::format_bool(p.sold_individually).to_string(),
                p.weight_grams
                    .map(|g| format::format_scaled(g, format::Unit::KG.shift))
                    .unwrap_or_default(),
                dims.map(|d| format::format_scaled(d.length_mm, format::Unit::CM.shift))
                    .unwrap_or_default(),
                dims.map(|d| format::format_scaled(d.width_mm, format::Unit::CM.shift))
                    .unwrap_or_default(),
                dims.map(|d| format::format_scaled(d.height_mm, format::Unit::CM.shift))
                    .unwrap_or_default(),
                format::format_bool(p.reviews_allowed).to_string(),
                long_text(&p.purchase_note),
                format::format_price(p.sale_price, currency),
                format::format_price(p.regular_price, currency),
                text(&format::join_list(
                    &p.category_ids
                        .iter()
                        .map(|c| category_path(*c))
                        .collect::<Vec<_>>(),
                )),
                text(&format::join_list(
                    &p.tag_ids
                        .iter()
                        .filter_map(|t| tags.get(t).copied())
                        .collect::<Vec<_>>(),
                )),
                text(&p.shipping_class),
                format::join_list(
                    &p.image_ids
                        .iter()
                        .filter_map(|m| media.get(m).map(|n| format!("{base}/media/{n}")))
                        .collect::<Vec<_>>(),
                ),
                String::new(),
                String::new(),
                p.parent_id.as_ref().map(reference).unwrap_or_default(),
                String::new(),
                format::join_list(&p.upsell_ids.iter().map(reference).collect::<Vec<_>>()),
                format::join_list(&p.cross_sell_ids.iter().map(reference).collect::<Vec<_>>()),
                text(&p.external_url),
                text(&p.button_text),
                p.menu_order.to_string(),
                text(&format::join_list(
                    &p.brand_ids
                        .iter()
                        .filter_map(|b| brands.get(b).copied())
                        .collect::<Vec<_>>(),
                )),
            ];
            if p.kind == ProductKind::Variation {
                for v in &p.variation {
                    let (name, value, global) = match by_taxonomy.get(v.attribute.as_str()) {
                        Some(a) => (a.name.clone(), term_name(a, &v.value), "1"),
                        None => (v.attribute.clone(), v.value.clone(), "0"),
                    };
                    row.extend([
                        text(&name),
                        text(&format::join_list(&[value])),
                        String::new(),
                        global.to_string(),
                        String::new(),
                    ]);
                }
            } else {
                for a in &p.attributes {
                    let global = a.attribute_id.and_then(|id| attributes.get(&id));
                    let (values, default) = match global {
                        Some(g) => (
                            a.values.iter().map(|v| term_name(g, v)).collect::<Vec<_>>(),
                            term_name(g, &a.default_value),
                        ),
                        None => (a.values.clone(), a.default_value.clone()),
                    };
                    let default = if p.kind == ProductKind::Variable && !a.default_value.is_empty()
                    {
                        default
                    } else {
                        String::new()
                    };
                    row.extend([
                        text(global.map_or(a.name.as_str(), |g| g.name.as_str())),
                        text(&format::join_list(&values)),
                        format::format_bool(a.visible).to_string(),
                        format::format_bool(global.is_some()).to_string(),
                        text(&default),
                    ]);
                }
            }
            row.resize(header.len(), String::new());
            writer.write_record(&row)?;
            count += 1;
        }
    }
    writer
        .flush()
        .map_err(|e| ImportError::Failed(e.to_string()))?;
    Ok(count)
}
