//! How text becomes terms (for products and for the shopper alike) and how
//! the shopper's words become one tantivy query scored as the crate's
//! module doc describes.

use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur, Query,
    TermQuery,
};
use tantivy::schema::IndexRecordOption;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, RemoveLongFilter, SimpleTokenizer,
    Stemmer, TextAnalyzer, TokenizerManager,
};
use tantivy::{Score, Term};

use crate::Fields;

/// Words of the shopper's text beyond this many are ignored: no product
/// name is longer, and every word adds work to the search.
pub const MAX_QUERY_WORDS: usize = 12;
/// Text beyond this many bytes is not even read.
const MAX_QUERY_BYTES: usize = 1_000;
/// Longer "words" are noise (base64, URLs) and are not indexed.
const MAX_WORD_CHARS: usize = 40;
/// A prefix shorter than this matches too many words to mean anything.
const MIN_PREFIX_CHARS: usize = 3;

pub const WORD_ANALYZER: &str = "shop_words";
pub const TYPED_ANALYZER: &str = "shop_typed";
pub const SKU_ANALYZER: &str = "shop_sku";

/// What matching a query word is worth: 1 for the word, plus its field's
/// weight scaled by how it matched. The weights of all words together stay
/// under 1 (12 words × at most 0.07), so one more matched word always wins.
const WORD_MATCHED: Score = 1.0;
const NAME: Score = 0.06;
const LABELS: Score = 0.04;
const SHORT_DESCRIPTION: Score = 0.02;
const DESCRIPTION: Score = 0.01;
const AS_PREFIX: Score = 0.75;
const WITH_TYPO: Score = 0.5;
/// BM25 in the name, scaled to stay under 0.01 (BM25 of one term stays
/// under 30 at any catalogue size a shop has).
const NAME_BM25: Score = 0.0003;
/// Above any sum of word scores.
const SKU_MATCHED: Score = 100.0;

/// The analyzers both the index and the queries use, so that a word is
/// written the same way on both sides.
#[derive(Clone)]
pub struct Analyzers {
    /// Lower-cased, accent-folded, stemmed: how words are matched.
    words: TextAnalyzer,
    /// The same without stemming: how words are matched with typos or as
    /// prefixes.
    folded: TextAnalyzer,
    sku: TextAnalyzer,
}

impl Analyzers {
    pub fn new() -> Self {
        let folded = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(MAX_WORD_CHARS))
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .build();
        let words = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(MAX_WORD_CHARS))
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .filter(Stemmer::new(Language::English))
            .build();
        let sku = TextAnalyzer::builder(RawTokenizer::default())
            .filter(LowerCaser)
            .build();
        Analyzers { words, folded, sku }
    }

    pub fn register(&self, manager: &TokenizerManager) {
        manager.register(WORD_ANALYZER, self.words.clone());
        manager.register(TYPED_ANALYZER, self.folded.clone());
        manager.register(SKU_ANALYZER, self.sku.clone());
    }
}

/// The shopper's text, read once into the terms the queries are made of.
pub struct Plan {
    words: Vec<Word>,
    sku: Option<String>,
}

struct Word {
    /// The indexed form: matched exactly, and with typos in descriptions.
    stem: String,
    /// As typed, folded: matched with typos and as a prefix in the name
    /// and labels, whose words are also indexed unstemmed. Stems make poor
    /// typo targets ("ceramik" is two edits from `ceram`, one from
    /// `ceramic`) and poor prefixes ("runni" does not start `run`).
    typed: String,
    typo_distance: u8,
    stem_typo_distance: u8,
    /// The last word typed, which may be unfinished.
    is_prefix: bool,
}

impl Plan {
    pub fn new(text: &str, analyzers: &Analyzers) -> Plan {
        let text = cut_at_char_boundary(text, MAX_QUERY_BYTES);
        let mut analyzers = analyzers.clone();
        let folded = tokens(&mut analyzers.folded, text, MAX_QUERY_WORDS * 4);
        let mut words: Vec<Word> = Vec::new();
        for (i, typed) in folded.iter().enumerate() {
            let Some(stem) = tokens(&mut analyzers.words, typed, 1).pop() else {
                continue;
            };
            let at = match words.iter().position(|word| word.stem == stem) {
                Some(at) => at,
                None if words.len() < MAX_QUERY_WORDS => {
                    words.push(Word {
                        typo_distance: typo_distance(typed),
                        stem_typo_distance: typo_distance(&stem),
                        typed: typed.clone(),
                        is_prefix: false,
                        stem,
                    });
                    words.len() - 1
                }
                None => break,
            };
            let typed_last = i + 1 == folded.len();
            if typed_last && typed.chars().count() >= MIN_PREFIX_CHARS {
                words[at].is_prefix = true;
                words[at].typed = typed.clone();
            }
        }
        let sku = Some(text.trim())
            .filter(|text| text.chars().any(char::is_alphanumeric))
            .and_then(|text| tokens(&mut analyzers.sku, text, 1).pop());
        Plan { words, sku }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty() && self.sku.is_none()
    }

    pub fn word_count(&self) -> usize {
        self.words.len()
    }

    /// Products having every word (or the SKU).
    pub fn all_words(&self, fields: &Fields) -> BooleanQuery {
        let all = self
            .words
            .iter()
            .map(|word| (Occur::Must, word.query(fields)))
            .collect::<Vec<_>>();
        let words: Vec<Box<dyn Query>> = if all.is_empty() {
            Vec::new()
        } else {
            vec![Box::new(BooleanQuery::new(all))]
        };
        self.with_sku(fields, words)
    }

    /// Products having any word (or the SKU).
    pub fn any_word(&self, fields: &Fields) -> BooleanQuery {
        let words = self.words.iter().map(|word| word.query(fields)).collect();
        self.with_sku(fields, words)
    }

    fn with_sku(&self, fields: &Fields, words: Vec<Box<dyn Query>>) -> BooleanQuery {
        let sku = self.sku.iter().map(|sku| {
            let term = TermQuery::new(
                Term::from_field_text(fields.sku, sku),
                IndexRecordOption::Basic,
            );
            constant(term, SKU_MATCHED)
        });
        BooleanQuery::new(
            sku.chain(words)
                .map(|query| (Occur::Should, query))
                .collect(),
        )
    }
}

impl Word {
    /// The best of the ways this word matches a product.
    fn query(&self, fields: &Fields) -> Box<dyn Query> {
        let mut ways: Vec<Box<dyn Query>> = Vec::new();
        let weighted = [
            (fields.name, Some(fields.name_typed), NAME),
            (fields.labels, Some(fields.labels_typed), LABELS),
            (fields.short_description, None, SHORT_DESCRIPTION),
            (fields.description, None, DESCRIPTION),
        ];
        for (field, typed_field, weight) in weighted {
            let stem = Term::from_field_text(field, &self.stem);
            let exact = constant(
                TermQuery::new(stem.clone(), IndexRecordOption::Basic),
                WORD_MATCHED + weight,
            );
            if field == fields.name {
                let bm25 = TermQuery::new(stem.clone(), IndexRecordOption::WithFreqs);
                ways.push(Box::new(BooleanQuery::new(vec![
                    (Occur::Should, exact),
                    (
                        Occur::Should,
                        Box::new(BoostQuery::new(Box::new(bm25), NAME_BM25)),
                    ),
                ])));
            } else {
                ways.push(exact);
            }
            let with_typo = WORD_MATCHED + weight * WITH_TYPO;
            if self.stem_typo_distance > 0 {
                let typo = FuzzyTermQuery::new(stem, self.stem_typo_distance, true);
                ways.push(constant(typo, with_typo));
            }
            let Some(typed_field) = typed_field else {
                continue;
            };
            let typed = Term::from_field_text(typed_field, &self.typed);
            if self.typo_distance > 0 {
                let typo = FuzzyTermQuery::new(typed.clone(), self.typo_distance, true);
                ways.push(constant(typo, with_typo));
            }
            if self.is_prefix {
                let prefix = FuzzyTermQuery::new_prefix(typed, 0, true);
                ways.push(constant(prefix, WORD_MATCHED + weight * AS_PREFIX));
            }
        }
        Box::new(DisjunctionMaxQuery::new(ways))
    }
}

fn constant(query: impl Query, score: Score) -> Box<dyn Query> {
    Box::new(ConstScoreQuery::new(Box::new(query), score))
}

/// Edit distance 1 from 4 letters, 2 from 8.
fn typo_distance(word: &str) -> u8 {
    match word.chars().count() {
        0..4 => 0,
        4..8 => 1,
        _ => 2,
    }
}

fn tokens(analyzer: &mut TextAnalyzer, text: &str, max: usize) -> Vec<String> {
    let mut stream = analyzer.token_stream(text);
    let mut found = Vec::new();
    while found.len() < max && stream.advance() {
        found.push(stream.token().text.clone());
    }
    found
}

fn cut_at_char_boundary(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
