//! Product search: the shop's `search=` text turned into a ranked list of
//! product ids, from an in-memory tantivy index kept beside the catalogue.
//!
//! # How results are ranked
//! Each product field is indexed through the same analyzer: words split on
//! anything that is not a letter or digit, lower-cased, accents folded to
//! ASCII ("Café" is `cafe`) and stemmed in English ("Mugs" is `mug`);
//! descriptions lose their HTML first. The shopper's text goes through the
//! same analyzer and is cut to [`MAX_QUERY_WORDS`] words.
//!
//! Every query word scores its best match in a product (not the sum over
//! fields), weighted by where it matched and how:
//!
//! | field | weight |
//! |---|---|
//! | name | 0.06 |
//! | labels: categories, brands, tags, attributes | 0.04 |
//! | short description | 0.02 |
//! | description | 0.01 |
//!
//! times 1 for the word itself, ¾ for the last word as a prefix of a word
//! in the name or labels (type-ahead: "hood" finds "Hoodie") and ½ for a
//! typo (edit distance 1 from 4 letters, 2 from 8, a transposition counting
//! as one). Names and labels are also indexed unstemmed, so typos and
//! prefixes are matched against the words as written; descriptions only
//! have stems, which typos are matched against. So a word in the name
//! beats it in the labels, which beat the short description, which beats
//! the description, and an exact word beats a typo in the same field. An
//! exact name match adds a little BM25 (under 0.01), so "Mug" ranks above
//! "Mug Tree Stand".
//!
//! A matched word is worth 1 plus that weight, and the weights of all
//! [`MAX_QUERY_WORDS`] words together stay under 1, so a product matching
//! more words always ranks higher. Words are all required when some
//! product has them all; when none has, any word will do rather than an
//! empty page. Text equal to a product's SKU (ignoring case) ranks that
//! product first. Ties go to the newest product (highest id).

mod html;
pub mod products;
mod query;

use std::sync::{Mutex, MutexGuard, PoisonError};

use tantivy::collector::TopDocs;
use tantivy::indexer::{LogMergePolicy, NoMergePolicy};
use tantivy::query::Query;
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{
    DocId, Index, IndexReader, IndexWriter, ReloadPolicy, Score, SegmentReader, TantivyDocument,
    Term,
};

pub use query::MAX_QUERY_WORDS;

/// The searchable text of one product, as the catalogue has it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchDoc {
    pub id: i64,
    pub name: String,
    pub sku: String,
    /// HTML.
    pub short_description: String,
    /// HTML.
    pub description: String,
    pub categories: Vec<String>,
    pub brands: Vec<String>,
    pub tags: Vec<String>,
    /// Attribute term names ("Red", "XL").
    pub attributes: Vec<String>,
}

/// One matching product; a higher score is a better match.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub id: i64,
    pub score: f32,
}

/// What the index holds, for the shop's health and capacity figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexStats {
    pub products: u64,
    pub segments: usize,
    /// Bytes of index data held in memory.
    pub bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("search index failure: {0}")]
    Index(#[from] tantivy::TantivyError),
}

/// What the indexing thread may hold in memory before it writes a segment.
/// tantivy's floor is 15 MB; a little more means fewer segments to merge
/// after a rebuild.
const WRITER_HEAP_BYTES: usize = 24_000_000;

#[derive(Clone, Copy)]
struct Fields {
    id: Field,
    sku: Field,
    name: Field,
    name_typed: Field,
    labels: Field,
    labels_typed: Field,
    short_description: Field,
    description: Field,
}

/// The shop's product index. One writer (the catalogue's background task)
/// and any number of concurrent searches.
pub struct SearchIndex {
    index: Index,
    fields: Fields,
    analyzers: query::Analyzers,
    writer: Mutex<IndexWriter>,
    reader: IndexReader,
}

impl SearchIndex {
    /// An empty index held in memory.
    pub fn new() -> Result<Self, SearchError> {
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        let analyzers = query::Analyzers::new();
        analyzers.register(index.tokenizers());
        let writer = index.writer_with_num_threads(1, WRITER_HEAP_BYTES)?;
        // Searches see a change when the writer says so, right after its
        // commit, not whenever a background watcher notices.
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(SearchIndex {
            index,
            fields,
            analyzers,
            writer: Mutex::new(writer),
            reader,
        })
    }

    /// Replaces the whole index with `docs`, then merges it into one
    /// segment, the fastest shape to search. Searches see the old products
    /// until the new ones are all in.
    pub fn rebuild(&self, docs: impl IntoIterator<Item = SearchDoc>) -> Result<(), SearchError> {
        let mut writer = self.lock_writer();
        // The merge below is the only one wanted: one the policy started on
        // its own would hold segments that merge then refuses.
        writer.set_merge_policy(Box::new(NoMergePolicy));
        let rebuilt = self.replace_all(&mut writer, docs);
        writer.set_merge_policy(Box::new(LogMergePolicy::default()));
        rebuilt
    }

    fn replace_all(
        &self,
        writer: &mut IndexWriter,
        docs: impl IntoIterator<Item = SearchDoc>,
    ) -> Result<(), SearchError> {
        writer.delete_all_documents()?;
        for doc in docs {
            writer.add_document(self.to_document(&doc))?;
        }
        writer.commit()?;
        let segments = self.index.searchable_segment_ids()?;
        if segments.len() > 1 {
            writer.merge(&segments).wait()?;
        }
        self.reader.reload()?;
        Ok(())
    }

    /// Adds or replaces products by id; the next search sees them.
    pub fn upsert(&self, docs: &[SearchDoc]) -> Result<(), SearchError> {
        let mut writer = self.lock_writer();
        for doc in docs {
            writer.delete_term(self.id_term(doc.id));
            writer.add_document(self.to_document(doc))?;
        }
        self.commit(&mut writer)
    }

    /// Removes products by id; the next search no longer finds them.
    pub fn remove(&self, ids: &[i64]) -> Result<(), SearchError> {
        let mut writer = self.lock_writer();
        for &id in ids {
            writer.delete_term(self.id_term(id));
        }
        self.commit(&mut writer)
    }

    /// Up to `limit` products matching `text`, best first. Text with no
    /// words in it finds nothing.
    pub fn search(&self, text: &str, limit: usize) -> Result<Vec<Hit>, SearchError> {
        let plan = query::Plan::new(text, &self.analyzers);
        if plan.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let hits = self.run(&plan.all_words(&self.fields), limit)?;
        if !hits.is_empty() || plan.word_count() < 2 {
            return Ok(hits);
        }
        self.run(&plan.any_word(&self.fields), limit)
    }

    pub fn stats(&self) -> Result<IndexStats, SearchError> {
        let searcher = self.reader.searcher();
        let usage = searcher
            .space_usage()
            .map_err(tantivy::TantivyError::from)?;
        Ok(IndexStats {
            products: searcher.num_docs(),
            segments: searcher.segment_readers().len(),
            bytes: usage.total().get_bytes(),
        })
    }

    fn run(&self, query: &dyn Query, limit: usize) -> Result<Vec<Hit>, SearchError> {
        let collector = TopDocs::with_limit(limit).tweak_score(id_after_score);
        let found = self.reader.searcher().search(query, &collector)?;
        Ok(found
            .into_iter()
            .filter_map(|((score, id), _)| id.map(|id| Hit { id, score }))
            .collect())
    }

    fn commit(&self, writer: &mut IndexWriter) -> Result<(), SearchError> {
        writer.commit()?;
        self.reader.reload()?;
        Ok(())
    }

    /// A panic elsewhere while holding the writer leaves nothing half done
    /// that a later commit would publish (uncommitted work is only ever
    /// committed whole), so the lock is taken back rather than poisoned.
    fn lock_writer(&self) -> MutexGuard<'_, IndexWriter> {
        self.writer.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn id_term(&self, id: i64) -> Term {
        Term::from_field_i64(self.fields.id, id)
    }

    fn to_document(&self, doc: &SearchDoc) -> TantivyDocument {
        let f = &self.fields;
        let mut document = TantivyDocument::new();
        document.add_i64(f.id, doc.id);
        if !doc.sku.trim().is_empty() {
            document.add_text(f.sku, doc.sku.trim());
        }
        document.add_text(f.name, &doc.name);
        document.add_text(f.name_typed, &doc.name);
        for label in doc
            .categories
            .iter()
            .chain(&doc.brands)
            .chain(&doc.tags)
            .chain(&doc.attributes)
        {
            document.add_text(f.labels, label);
            document.add_text(f.labels_typed, label);
        }
        document.add_text(
            f.short_description,
            html::strip_tags(&doc.short_description),
        );
        document.add_text(f.description, html::strip_tags(&doc.description));
        document
    }
}

/// Sorts by score, then by product id so that ties go to the newest.
fn id_after_score(
    segment: &SegmentReader,
) -> impl Fn(DocId, Score) -> (Score, Option<i64>) + 'static {
    let ids = segment.fast_fields().i64("id").ok();
    move |doc, score| (score, ids.as_ref().and_then(|ids| ids.first(doc)))
}

fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    let id = builder.add_i64_field("id", NumericOptions::default().set_indexed().set_fast());
    let sku = builder.add_text_field(
        "sku",
        text_options(query::SKU_ANALYZER, IndexRecordOption::Basic, false),
    );
    // Only the name keeps term frequencies and lengths: its BM25 breaks
    // ties. Elsewhere a word is either there or not, which keeps the index
    // small.
    let name = builder.add_text_field(
        "name",
        text_options(query::WORD_ANALYZER, IndexRecordOption::WithFreqs, true),
    );
    let basic = text_options(query::WORD_ANALYZER, IndexRecordOption::Basic, false);
    let typed = text_options(query::TYPED_ANALYZER, IndexRecordOption::Basic, false);
    let name_typed = builder.add_text_field("name_typed", typed.clone());
    let labels = builder.add_text_field("labels", basic.clone());
    let labels_typed = builder.add_text_field("labels_typed", typed);
    let short_description = builder.add_text_field("short_description", basic.clone());
    let description = builder.add_text_field("description", basic);
    let fields = Fields {
        id,
        sku,
        name,
        name_typed,
        labels,
        labels_typed,
        short_description,
        description,
    };
    (builder.build(), fields)
}

/// Indexed, never stored: a search answers with ids from the `id` column.
fn text_options(analyzer: &str, record: IndexRecordOption, fieldnorms: bool) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(analyzer)
            .set_index_option(record)
            .set_fieldnorms(fieldnorms),
    )
}
