//! The shop's photographs. The owner adds them with `ferroshop products add-image`
//! (checked and measured by the `images` crate, stored in the database, named in the
//! products CSV's Images column). `/media/{file}` serves one as uploaded;
//! `/media/{file}?w=N` a WebP copy N pixels wide, for each width of the ladder the
//! Store API's `srcset` offers. Copies are made on first request, at most one per
//! core at a time, and kept in a cache bounded in bytes: a cold cache costs time,
//! never memory beyond its bound, and a copy is never stored anywhere else.

use std::path::Path;

use bytes::Bytes;
use quick_cache::sync::Cache;
use rules::catalog::model::Media;
use store::Db;
use tokio::sync::Semaphore;

/// WebP copies by (file name, width). Media never change once added (a new upload
/// gets a new name), so a copy never goes stale.
pub struct ImageCopies {
    cache: Cache<(String, u32), Bytes, CopyWeight>,
    work: Semaphore,
}

#[derive(Clone)]
struct CopyWeight;

impl quick_cache::Weighter<(String, u32), Bytes> for CopyWeight {
    fn weight(&self, key: &(String, u32), copy: &Bytes) -> u64 {
        (key.0.len() + copy.len()) as u64
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Image(#[from] images::ImageError),
    #[error("the image worker stopped")]
    Worker,
}

impl ImageCopies {
    pub fn new(max_bytes: u64) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self {
            cache: Cache::with_weighter(1024, max_bytes, CopyWeight),
            work: Semaphore::new(cores),
        }
    }

    /// The WebP copy of `media` at `width`, made now if no one made it yet. Concurrent
    /// requests for the same copy wait for the one making it. None: no such image.
    pub async fn copy(
        &self,
        db: &Db,
        media: &Media,
        width: u32,
    ) -> Result<Option<Bytes>, CopyError> {
        let key = (media.file_name.clone(), width);
        let guard = match self.cache.get_value_or_guard_async(&key).await {
            Ok(copy) => return Ok(Some(copy)),
            Err(guard) => guard,
        };
        let Some((_, original)) = store::catalog::find_media(db, &media.file_name).await? else {
            return Ok(None);
        };
        let _permit = self.work.acquire().await.map_err(|_| CopyError::Worker)?;
        let made = tokio::task::spawn_blocking(move || images::webp_copy(&original, width))
            .await
            .map_err(|_| CopyError::Worker)??;
        let copy = Bytes::from(made.webp);
        let _ = guard.insert(copy.clone());
        Ok(Some(copy))
    }
}

/// Whether the shop makes copies of this image: photographs do, drawings (SVG) are
/// sharp at every size already.
pub fn has_copies(media: &Media) -> bool {
    matches!(
        media.mime_type.as_str(),
        "image/jpeg" | "image/png" | "image/webp"
    )
}

/// The widths `media` is offered at, narrowest first (its own width not included).
pub fn copy_widths(media: &Media) -> Vec<u32> {
    if !has_copies(media) {
        return Vec::new();
    }
    u32::try_from(media.width).map_or_else(|_| Vec::new(), |w| images::widths_for(w).collect())
}

/// A file name safe in a URL, from what the owner called the file: lower case
/// letters, digits and dashes, with the extension of what it really is.
pub fn file_name_for(path: &Path, format: images::Format) -> String {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("image")
        .to_lowercase();
    let mut name = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c);
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    let name = if name.is_empty() { "image" } else { name };
    let name: String = name.chars().take(120).collect();
    format!("{name}.{}", format.extension())
}

/// Reads, checks and stores a photograph; returns what was stored.
pub async fn add_image(db: &Db, path: &Path, alt: &str) -> Result<Media, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if size > images::MAX_UPLOAD_BYTES as u64 {
        return Err(format!(
            "{}: {}",
            path.display(),
            images::ImageError::TooManyBytes {
                bytes: usize::try_from(size).unwrap_or(usize::MAX)
            }
        ));
    }
    let body = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (photo, body) = tokio::task::spawn_blocking(move || {
        let photo = images::inspect(&body);
        (photo, body)
    })
    .await
    .map_err(|_| "the image check stopped".to_string())?;
    let photo = photo.map_err(|e| format!("{}: {e}", path.display()))?;
    let image = Media {
        id: rules::catalog::model::MediaId(0),
        file_name: file_name_for(path, photo.format),
        mime_type: photo.format.mime_type().to_string(),
        width: i64::from(photo.width),
        height: i64::from(photo.height),
        alt: alt.trim().to_string(),
        caption: String::new(),
        body,
    };
    store::catalog::add_media(db, &image)
        .await
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_in_a_url() {
        let jpg = images::Format::Jpeg;
        assert_eq!(
            file_name_for(Path::new("/x/Blue Mug (front).JPEG"), jpg),
            "blue-mug-front.jpg"
        );
        assert_eq!(
            file_name_for(Path::new("ÉTÉ.png"), images::Format::Png),
            "t.png"
        );
        assert_eq!(file_name_for(Path::new("../../.."), jpg), "image.jpg");
        assert_eq!(file_name_for(Path::new("<script>.svg"), jpg), "script.jpg");
    }
}
