//! Writes every demo image and an `index.html` contact sheet of the main images to a
//! folder (default `/tmp/ferroshop-art`), for reviewing the artwork in a browser:
//! `cargo run --example demo-contact-sheet -- DIR`.

use std::collections::HashMap;

fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/ferroshop-art".to_owned());
    std::fs::create_dir_all(&dir)?;
    let data = ferroshop::catalog::demo::demo_catalog();
    for m in &data.media {
        std::fs::write(format!("{dir}/{}", m.file_name), &m.body)?;
    }
    let names: HashMap<_, _> = data
        .media
        .iter()
        .map(|m| (m.id, m.file_name.as_str()))
        .collect();
    let cells: String = data
        .products
        .iter()
        .filter(|p| p.parent_id.is_none())
        .filter_map(|p| p.image_ids.first())
        .map(|id| format!(r#"<img src="{}" width="200" height="200">"#, names[id]))
        .collect();
    std::fs::write(
        format!("{dir}/index.html"),
        format!(
            r#"<!doctype html><body style="margin:0;display:grid;grid-template-columns:repeat(8,200px);gap:4px">{cells}</body>"#
        ),
    )?;
    println!("wrote {} images and {dir}/index.html", data.media.len());
    Ok(())
}
