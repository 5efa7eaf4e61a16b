//! Searches as a shopper types them, against a small catalogue.

use search::{Hit, SearchDoc, SearchIndex};

fn product(id: i64, name: &str) -> SearchDoc {
    SearchDoc {
        id,
        name: name.to_string(),
        ..SearchDoc::default()
    }
}

fn index_of(docs: Vec<SearchDoc>) -> SearchIndex {
    let index = SearchIndex::new().expect("an empty index");
    index.rebuild(docs).expect("rebuild");
    index
}

fn ids(index: &SearchIndex, text: &str) -> Vec<i64> {
    index
        .search(text, 100)
        .expect("search")
        .iter()
        .map(|hit: &Hit| hit.id)
        .collect()
}

fn catalogue() -> Vec<SearchDoc> {
    vec![
        SearchDoc {
            sku: "HD-100-GRY".into(),
            categories: vec!["Clothing".into()],
            attributes: vec!["Grey".into(), "XL".into()],
            ..product(1, "Grey Cotton Hoodie")
        },
        SearchDoc {
            sku: "TS-200".into(),
            categories: vec!["Clothing".into()],
            ..product(2, "Organic T-Shirt")
        },
        SearchDoc {
            sku: "MUG-0042".into(),
            categories: vec!["Kitchen".into()],
            attributes: vec!["Blue".into()],
            ..product(3, "Blue Ceramic Mug")
        },
        SearchDoc {
            categories: vec!["Kitchen".into()],
            attributes: vec!["Red".into()],
            ..product(4, "Red Ceramic Mug")
        },
        SearchDoc {
            brands: vec!["Brûlerie".into()],
            ..product(5, "Café Espresso Beans")
        },
        SearchDoc {
            description:
                "<p>A <strong>blue</strong> mug's best friend: a <em>linen</em> coaster.</p>".into(),
            ..product(6, "Coaster")
        },
        product(7, "Steel Bolt"),
        product(8, "Rowing Boat"),
        product(9, "Blue Wool Scarf"),
    ]
}

#[test]
fn a_missing_letter_still_finds_the_hoodie() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "hodie").first(), Some(&1));
    assert_eq!(ids(&index, "grey hoddie").first(), Some(&1));
}

#[test]
fn swapped_letters_count_as_one_typo() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "hoodei").first(), Some(&1));
}

#[test]
fn short_words_are_not_fuzzy() {
    let index = index_of(catalogue());
    // "mog" is three letters: it must not become "mug".
    assert!(ids(&index, "mog").is_empty());
}

#[test]
fn a_long_word_tolerates_two_typos() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "espressso bens").first(), Some(&5));
    assert_eq!(ids(&index, "ceramik").len(), 2);
    assert_eq!(ids(&index, "cerrammic").len(), 2);
}

#[test]
fn tshirt_is_found_however_it_is_written() {
    let index = index_of(catalogue());
    for text in ["t-shirt", "tshirt", "T Shirt", "t-shirts"] {
        assert_eq!(ids(&index, text).first(), Some(&2), "{text}");
    }
}

#[test]
fn the_exact_word_ranks_above_a_typo_of_another() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "bolt"), [7, 8]);
    assert_eq!(ids(&index, "boat"), [8, 7]);
}

#[test]
fn a_word_in_the_name_beats_the_same_word_elsewhere() {
    let doc = |id, name: &str| SearchDoc {
        description: "<p>Made of canvas.</p>".into(),
        ..product(id, name)
    };
    let index = index_of(vec![
        doc(1, "Tote"),
        SearchDoc {
            short_description: "Canvas".into(),
            ..doc(2, "Bag")
        },
        SearchDoc {
            tags: vec!["canvas".into()],
            ..doc(3, "Satchel")
        },
        doc(4, "Canvas Backpack"),
        product(5, "Leather Wallet"),
    ]);
    assert_eq!(ids(&index, "canvas"), [4, 3, 2, 1]);
}

#[test]
fn categories_brands_tags_and_attributes_are_searched() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "kitchen"), [4, 3]);
    assert_eq!(ids(&index, "brulerie"), [5]);
    assert_eq!(ids(&index, "xl"), [1]);
}

#[test]
fn an_exact_sku_comes_first_whatever_its_case() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "mug-0042").first(), Some(&3));
    assert_eq!(ids(&index, "  hd-100-gry ").first(), Some(&1));
    // The SKU of one mug does not push the other out of a plain search.
    assert_eq!(ids(&index, "mug"), [4, 3, 6]);
}

#[test]
fn the_last_word_is_a_prefix_while_typing() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "hood"), [1]);
    assert_eq!(ids(&index, "grey hoo"), [1]);
    assert_eq!(ids(&index, "cera"), [4, 3]);
    // Only the last word: "hoo" before another word is a word on its own.
    assert!(ids(&index, "hoo grey").contains(&1));
    assert_eq!(ids(&index, "hoo grey").first(), Some(&1));
}

#[test]
fn a_finished_word_ranks_above_a_longer_word_it_starts() {
    let index = index_of(vec![product(1, "Capybara Plush"), product(2, "Cap")]);
    assert_eq!(ids(&index, "cap"), [2, 1]);
}

#[test]
fn every_word_is_required_when_some_product_has_them_all() {
    let index = index_of(catalogue());
    // Blue things and mugs abound; only one product is both in its name,
    // and the coaster mentions both in its description.
    assert_eq!(ids(&index, "blue mug"), [3, 6]);
    assert_eq!(ids(&index, "red ceramic mug"), [4]);
}

#[test]
fn without_a_product_having_all_words_any_word_will_do() {
    let index = index_of(catalogue());
    let found = ids(&index, "blue ceramic unicorn");
    // Two words of three beat one.
    assert_eq!(found.first(), Some(&3));
    assert!(found.contains(&4) && found.contains(&9));
    assert!(!found.contains(&1));
}

#[test]
fn plurals_and_singulars_find_each_other() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "mugs"), [4, 3, 6]);
    assert_eq!(ids(&index, "scarves"), ids(&index, "scarf"));
    assert_eq!(ids(&index, "bean"), [5]);
}

#[test]
fn accents_and_case_do_not_matter() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "cafe"), [5]);
    assert_eq!(ids(&index, "CAFÉ"), [5]);
    let index = index_of(vec![product(1, "Creme Brulee Candle")]);
    assert_eq!(ids(&index, "crème brûlée"), [1]);
}

#[test]
fn markup_in_descriptions_is_not_searchable() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "linen"), [6]);
    for markup in ["strong", "em", "p"] {
        assert!(ids(&index, markup).is_empty(), "{markup}");
    }
    let index = index_of(vec![SearchDoc {
        short_description: "<div class=\"spec\">Fits&nbsp;A4 &amp; letter</div>".into(),
        ..product(1, "Folder")
    }]);
    assert_eq!(ids(&index, "a4 letter"), [1]);
    assert!(ids(&index, "spec").is_empty());
    assert!(ids(&index, "nbsp").is_empty());
}

#[test]
fn upsert_replaces_the_product_for_the_next_search() {
    let index = index_of(catalogue());
    index.upsert(&[product(7, "Brass Hinge")]).expect("upsert");
    assert!(ids(&index, "bolt").iter().all(|&id| id != 7));
    assert_eq!(ids(&index, "hinge"), [7]);
    index
        .upsert(&[product(10, "Brass Hinge Pin")])
        .expect("upsert a new one");
    assert_eq!(ids(&index, "brass hinge"), [7, 10]);
}

#[test]
fn remove_hides_the_product_from_the_next_search() {
    let index = index_of(catalogue());
    index.remove(&[3, 999]).expect("remove");
    assert_eq!(ids(&index, "mug"), [4, 6]);
    assert!(ids(&index, "MUG-0042").iter().all(|&id| id != 3));
}

#[test]
fn rebuild_replaces_everything() {
    let index = index_of(catalogue());
    index
        .rebuild(vec![product(20, "Garden Hose")])
        .expect("rebuild");
    assert!(ids(&index, "hoodie").is_empty());
    assert_eq!(ids(&index, "hose"), [20]);
}

#[test]
fn text_without_words_finds_nothing() {
    let index = index_of(catalogue());
    for text in ["", "   ", "!!! --- ???", "<>&;"] {
        assert_eq!(index.search(text, 10).expect("search"), [], "{text:?}");
    }
}

#[test]
fn the_limit_caps_the_hits() {
    let index = index_of(catalogue());
    assert_eq!(ids(&index, "blue").len(), 3);
    assert_eq!(index.search("blue", 2).expect("search").len(), 2);
    assert!(index.search("blue", 0).expect("search").is_empty());
}

#[test]
fn scores_come_best_first() {
    let index = index_of(catalogue());
    let hits = index.search("blue", 10).expect("search");
    assert!(hits.windows(2).all(|pair| pair[0].score >= pair[1].score));
}

#[test]
fn a_huge_query_is_cut_short_not_slow() {
    let index = index_of(catalogue());
    let start = std::time::Instant::now();
    let mut text = String::from("blue mug ");
    for i in 0..1_000 {
        text.push_str(&format!("word{i:04} "));
    }
    assert!(text.len() > 8_000);
    assert_eq!(ids(&index, &text).first(), Some(&3));
    let one_word = "x".repeat(10_000);
    assert!(ids(&index, &one_word).is_empty());
    let accents = "é".repeat(5_001);
    assert!(ids(&index, &accents).is_empty());
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
}

#[test]
fn searches_run_while_the_catalogue_changes() {
    let index = std::sync::Arc::new(index_of(catalogue()));
    let searchers: Vec<_> = (0..4)
        .map(|_| {
            let index = index.clone();
            std::thread::spawn(move || {
                for _ in 0..50 {
                    let found = ids(&index, "ceramic mug");
                    assert!(found.contains(&4), "{found:?}");
                }
            })
        })
        .collect();
    for i in 0..20 {
        index
            .upsert(&[product(100 + i, &format!("Ceramic Vase {i}"))])
            .expect("upsert");
    }
    for searcher in searchers {
        searcher.join().expect("searcher");
    }
    assert_eq!(ids(&index, "vase").len(), 20);
}
