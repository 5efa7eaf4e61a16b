//! The catalogue's top-level products in the search index, kept in step with each
//! snapshot (rebuilt with a whole reload, updated by id with a change), and the
//! matches a listing's `search` asks for. Every call blocks: run it off async threads.

use rules::catalog::index::Catalog;
use rules::catalog::model::{Product, ProductId, ProductKind};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::{SearchDoc, SearchError, SearchIndex};

/// As many matches as a listing reads: pages past this find nothing new.
const MAX_HITS: usize = 10_000;

pub struct ProductSearch {
    index: SearchIndex,
    /// False until the first build is done; listings fall back to plain matching.
    ready: AtomicBool,
}

impl ProductSearch {
    pub fn new() -> Result<Self, SearchError> {
        Ok(ProductSearch {
            index: SearchIndex::new()?,
            ready: AtomicBool::new(false),
        })
    }

    /// Indexes the whole catalogue again (blocking: run it off the async threads).
    pub fn rebuild(&self, catalog: &Catalog) {
        // One document at a time: the catalogue's text is never copied whole.
        let docs = catalog.top_level().map(|p| document(catalog, p));
        match self.index.rebuild(docs) {
            Ok(()) => self.ready.store(true, Ordering::Release),
            Err(e) => tracing::error!(error = %e, "could not build the search index"),
        }
    }

    /// Brings `ids` up to `catalog`: present products are indexed again, missing
    /// ones removed (blocking).
    pub fn update(&self, catalog: &Catalog, ids: &[ProductId]) {
        let mut docs = Vec::new();
        let mut gone = Vec::new();
        for id in ids {
            match catalog.product(*id) {
                Some(p) if p.kind != ProductKind::Variation => docs.push(document(catalog, p)),
                Some(_) => {}
                None => gone.push(id.0),
            }
        }
        let result = self
            .index
            .upsert(&docs)
            .and_then(|()| self.index.remove(&gone));
        if let Err(e) = result {
            tracing::error!(error = %e, "could not update the search index");
        }
    }

    /// The products matching `text`, best first; None while the index is being built
    /// or when it fails (the caller then matches plainly).
    pub fn hits(&self, text: &str) -> Option<Vec<ProductId>> {
        if !self.ready.load(Ordering::Acquire) {
            return None;
        }
        match self.index.search(text, MAX_HITS) {
            Ok(hits) => Some(hits.into_iter().map(|h| ProductId(h.id)).collect()),
            Err(e) => {
                tracing::warn!(error = %e, "search failed; matching plainly");
                None
            }
        }
    }
}

fn document(catalog: &Catalog, p: &Product) -> SearchDoc {
    SearchDoc {
        id: p.id.0,
        name: p.name.clone(),
        sku: p.sku.clone(),
        short_description: p.short_description.clone(),
        description: p.description.clone(),
        categories: p
            .category_ids
            .iter()
            .filter_map(|c| catalog.category(*c))
            .map(|c| c.name.clone())
            .collect(),
        brands: p
            .brand_ids
            .iter()
            .filter_map(|b| catalog.brand(*b))
            .map(|b| b.name.clone())
            .collect(),
        tags: p
            .tag_ids
            .iter()
            .filter_map(|t| catalog.tag(*t))
            .map(|t| t.name.clone())
            .collect(),
        attributes: p
            .attributes
            .iter()
            .flat_map(|a| {
                let key = catalog.attribute_key(a);
                a.values
                    .iter()
                    .map(move |v| (key.clone(), v.clone()))
                    .collect::<Vec<_>>()
            })
            .map(|(key, v)| catalog.value_name(&key, &v))
            .collect(),
    }
}
