//! `ferroshop products import|export`: the original shop's product CSV in and out, on
//! both databases.

mod common;

use std::collections::HashSet;
use std::path::PathBuf;

use common::Backend;
use ferroshop::catalog::csv::{export, import, ImportError};
use rules::catalog::model::*;
use rules::money::CurrencyFormat;
use store::catalog::{catalog_version, count_products, load_catalog};
use store::Db;

const NOW: i64 = 1_800_000_000;

/// A migrated, empty database of its own (a SQLite file, or a PostgreSQL schema),
/// and a folder for the test's files.
async fn fresh_db(backend: Backend) -> Option<(Db, PathBuf)> {
    let name = format!("{:x}", rand::random::<u64>());
    let dir = std::env::temp_dir().join(format!("ferroshop-csv-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let url = match backend {
        Backend::Sqlite => format!("sqlite://{}/shop.db", dir.display()),
        Backend::Postgres => {
            let Ok(base) = std::env::var("FERROSHOP_TEST_POSTGRES_URL") else {
                eprintln!("FERROSHOP_TEST_POSTGRES_URL is not set: PostgreSQL case not run");
                return None;
            };
            let schema = format!("test_csv_{name}");
            let admin = Db::connect(&base).await.unwrap();
            sqlx::query(&format!("CREATE SCHEMA {schema}"))
                .execute(admin.writer())
                .await
                .unwrap();
            admin.close().await;
            let sep = if base.contains('?') { '&' } else { '?' };
            format!("{base}{sep}options=-c%20search_path%3D{schema}")
        }
    };
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    Some((db, dir))
}

async fn export_text(db: &Db) -> String {
    let mut out = Vec::new();
    export(db, &mut out, &CurrencyFormat::usd(), "https://shop.example")
        .await
        .unwrap();
    String::from_utf8(out).unwrap()
}

async fn import_text(
    db: &Db,
    dir: &std::path::Path,
    csv: &str,
) -> Result<ferroshop::catalog::csv::ImportReport, ImportError> {
    let path = dir.join(format!("{:x}.csv", rand::random::<u32>()));
    std::fs::write(&path, csv).unwrap();
    import(db, &path, &CurrencyFormat::usd(), NOW).await
}

const HEADER: &str = "ID,Type,SKU,Name,Published,Regular price,Sale price,Categories,Tags,Brands,Parent,Upsells,Weight (kg),Attribute 1 name,Attribute 1 value(s),Attribute 1 visible,Attribute 1 global,Attribute 2 name,Attribute 2 value(s),Attribute 2 visible,Attribute 2 global\n";

async fn export_import_and_export_again_gives_the_same_file(backend: Backend) {
    let Some((first, dir)) = fresh_db(backend).await else {
        return;
    };
    let demo = ferroshop::catalog::demo::demo_catalog();
    store::catalog::insert_catalog(&first, &demo).await.unwrap();
    let exported = export_text(&first).await;
    assert_eq!(
        exported.lines().count() as i64,
        count_products(&first).await.unwrap() + 1
    );
    assert!(exported.starts_with("ID,Type,SKU,\"GTIN, UPC, EAN, or ISBN\",Name,Published,"));

    // A new shop with the same images and no products.
    let Some((second, dir2)) = fresh_db(backend).await else {
        return;
    };
    let images = CatalogData {
        media: demo.media.clone(),
        ..CatalogData::default()
    };
    store::catalog::insert_catalog(&second, &images)
        .await
        .unwrap();
    let report = import_text(&second, &dir, &exported).await.unwrap();
    assert_eq!(report.created as i64, count_products(&first).await.unwrap());
    assert_eq!(report.updated, 0);
    assert_eq!(export_text(&second).await, exported);
    first.close().await;
    second.close().await;
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir2);
}

async fn a_row_naming_an_existing_sku_updates_that_product(backend: Backend) {
    let Some((db, dir)) = fresh_db(backend).await else {
        return;
    };
    store::catalog::insert_catalog(&db, &common::fixture())
        .await
        .unwrap();
    let before = count_products(&db).await.unwrap();
    let csv = format!(
        "{HEADER},simple,sku-{},Warm Beanie,1,24.5,19.99,Decor,Winter,Northwind,,sku-{},0.15,,,,,,,,\n",
        common::BEANIE,
        common::MUG
    );
    let version = catalog_version(&db).await.unwrap();
    let report = import_text(&db, &dir, &csv).await.unwrap();
    assert_eq!((report.created, report.updated), (0, 1));
    assert_eq!(count_products(&db).await.unwrap(), before);
    // A small import is logged product by product (with the new tag), so running
    // instances reload that product, not the catalogue.
    let (now, changes) = store::catalog::changes_since(&db, version)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(now, version + 1);
    assert_eq!(
        changes,
        vec![
            store::catalog::Change::Product(ProductId(common::BEANIE)),
            store::catalog::Change::Terms,
        ]
    );
    let catalog = load_catalog(&db).await.unwrap();
    let beanie = catalog
        .products
        .iter()
        .find(|p| p.id.0 == common::BEANIE)
        .unwrap();
    assert_eq!(beanie.name, "Warm Beanie");
    assert_eq!(
        beanie.slug, "beanie",
        "an update keeps the product's address"
    );
    assert_eq!(beanie.regular_price, Some(2450));
    assert_eq!(beanie.sale_price, Some(1999));
    assert_eq!(beanie.weight_grams, Some(150));
    assert_eq!(
        beanie.category_ids,
        vec![CategoryId(4)],
        "links are replaced"
    );
    assert_eq!(beanie.brand_ids, vec![BrandId(1)]);
    assert_eq!(beanie.upsell_ids, vec![ProductId(common::MUG)]);
    assert_eq!(beanie.image_ids, Vec::<MediaId>::new());
    let winter = catalog.tags.iter().find(|t| t.name == "Winter").unwrap();
    assert_eq!(beanie.tag_ids, vec![winter.id]);
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

async fn a_file_with_bad_rows_lists_each_and_changes_nothing(backend: Backend) {
    let Some((db, dir)) = fresh_db(backend).await else {
        return;
    };
    store::catalog::insert_catalog(&db, &common::fixture())
        .await
        .unwrap();
    let before = load_catalog(&db).await.unwrap();
    let version = catalog_version(&db).await.unwrap();
    let csv = format!(
        "{HEADER}\
         ,simple,new-1,Good one,1,10,,Decor,,,,,,,,,,,,,\n\
         ,simple,new-2,Bad price,1,\"12,9x\",,Decor,,,,,,,,,,,,,\n\
         ,simple,new-3,Good two,1,5,,,,,,,,,,,,,,,\n\
         ,variation,new-4,Orphan,1,5,,,,,no-such-parent,,,,,,,,,,\n\
         ,simple,new-5,Too precise,2,12.345,,,,,,,0.0001,,,,,,,,\n\
         ,simple,new-1,Twice,1,1,,,,,,,,,,,,,,,\n"
    );
    let Err(ImportError::Invalid(problems)) = import_text(&db, &dir, &csv).await else {
        panic!("a bad file must be refused");
    };
    assert_eq!(
        problems,
        vec![
            "line 3, Regular price: \"12,9x\" is not a price".to_string(),
            "line 5, Parent: \"no-such-parent\" is no product in the shop or the file".to_string(),
            "line 6, Published: \"2\" is not 1 (published), 0 (private) or -1 (draft)".to_string(),
            "line 6, Regular price: \"12.345\" is not a price".to_string(),
            "line 6, Weight (kg): \"0.0001\" is not a weight in whole grams".to_string(),
            "line 7, SKU: \"new-1\" is also on line 2".to_string(),
        ]
    );
    assert_eq!(load_catalog(&db).await.unwrap(), before);
    assert_eq!(catalog_version(&db).await.unwrap(), version);
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

async fn variations_may_come_before_their_parent(backend: Backend) {
    let Some((db, dir)) = fresh_db(backend).await else {
        return;
    };
    let version = catalog_version(&db).await.unwrap();
    let csv = format!(
        "{HEADER}\
         ,variation,tee-red-s,,1,15,,,,,tee,,,Color,Red,,1,Size,S,,1\n\
         ,variation,tee-blue-s,,1,16,12,,,,tee,,,Color,Blue,,1,Size,S,,1\n\
         ,variable,tee,Tee,1,,,Clothing > Tees,,,,,,Color,\"Red, Blue\",1,1,Material,Cotton,1,0\n"
    );
    let report = import_text(&db, &dir, &csv).await.unwrap();
    assert_eq!(report.created, 3);
    assert!(catalog_version(&db).await.unwrap() > version);
    let catalog = load_catalog(&db).await.unwrap();
    let tee = catalog.products.iter().find(|p| p.sku == "tee").unwrap();
    assert_eq!(tee.kind, ProductKind::Variable);
    assert_eq!(tee.attributes.len(), 2);
    assert_eq!(tee.attributes[0].values, vec!["red", "blue"]);
    assert!(tee.attributes[0].used_for_variations);
    assert!(tee.attributes[0].attribute_id.is_some());
    assert_eq!(tee.attributes[1].attribute_id, None);
    assert!(!tee.attributes[1].used_for_variations);
    let blue = catalog
        .products
        .iter()
        .find(|p| p.sku == "tee-blue-s")
        .unwrap();
    assert_eq!(blue.parent_id, Some(tee.id));
    assert_eq!(blue.name, "Tee - Blue, S");
    assert_eq!(blue.sale_price, Some(1200));
    assert_eq!(
        blue.variation,
        vec![
            VariationValue {
                attribute: "pa_color".into(),
                value: "blue".into()
            },
            VariationValue {
                attribute: "pa_size".into(),
                value: "s".into()
            },
        ]
    );
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

async fn category_paths_create_the_tree_and_term_ids_are_shared(backend: Backend) {
    let Some((db, dir)) = fresh_db(backend).await else {
        return;
    };
    store::catalog::insert_catalog(&db, &common::fixture())
        .await
        .unwrap();
    let csv = format!(
        "{HEADER}\
         ,simple,zip-1,Zip Hoodie,1,30,,\"Clothing > Hoodies > Zipped, Outdoor > Rain\",\"Cosy, Warm\",Boreal,,,,Color,Teal,1,1,,,,\n"
    );
    import_text(&db, &dir, &csv).await.unwrap();
    let catalog = load_catalog(&db).await.unwrap();
    let named = |name: &str| catalog.categories.iter().find(|c| c.name == name).unwrap();
    assert_eq!(named("Zipped").parent_id, Some(named("Hoodies").id));
    assert_eq!(
        named("Hoodies").id,
        CategoryId(3),
        "an existing category is found"
    );
    assert_eq!(named("Rain").parent_id, Some(named("Outdoor").id));
    assert_eq!(named("Outdoor").parent_id, None);
    let zip = catalog.products.iter().find(|p| p.sku == "zip-1").unwrap();
    assert_eq!(zip.category_ids, vec![named("Zipped").id, named("Rain").id]);

    // The shop indexes products by term id across kinds: what the import creates
    // takes ids no category, brand, tag or attribute term had before.
    let before = common::fixture();
    let mut old_ids: HashSet<i64> = HashSet::new();
    old_ids.extend(before.categories.iter().map(|c| c.id.0));
    old_ids.extend(before.brands.iter().map(|b| b.id.0));
    old_ids.extend(before.tags.iter().map(|t| t.id.0));
    old_ids.extend(
        before
            .attributes
            .iter()
            .flat_map(|a| a.terms.iter().map(|t| t.id.0)),
    );
    let new_names = [
        "Zipped", "Outdoor", "Rain", "Cosy", "Warm", "Boreal", "Teal",
    ];
    let mut new_ids = Vec::new();
    for name in new_names {
        new_ids.extend(
            catalog
                .categories
                .iter()
                .filter(|c| c.name == name)
                .map(|c| c.id.0),
        );
        new_ids.extend(
            catalog
                .brands
                .iter()
                .filter(|b| b.name == name)
                .map(|b| b.id.0),
        );
        new_ids.extend(
            catalog
                .tags
                .iter()
                .filter(|t| t.name == name)
                .map(|t| t.id.0),
        );
        new_ids.extend(
            catalog
                .attributes
                .iter()
                .flat_map(|a| a.terms.iter())
                .filter(|t| t.name == name)
                .map(|t| t.id.0),
        );
    }
    assert_eq!(new_ids.len(), 7, "{new_ids:?}");
    let unique: HashSet<i64> = new_ids.iter().copied().collect();
    assert_eq!(
        unique.len(),
        new_ids.len(),
        "term ids repeat across kinds: {new_ids:?}"
    );
    assert!(
        new_ids.iter().all(|id| !old_ids.contains(id)),
        "{new_ids:?}"
    );
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

on_both_databases!(
    export_import_and_export_again_gives_the_same_file,
    a_row_naming_an_existing_sku_updates_that_product,
    a_file_with_bad_rows_lists_each_and_changes_nothing,
    variations_may_come_before_their_parent,
    category_paths_create_the_tree_and_term_ids_are_shared,
);
