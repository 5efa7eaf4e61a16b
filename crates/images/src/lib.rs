//! The shop's photographs. An upload is checked here (a JPEG, PNG or WebP of a
//! bounded size, that decodes) and measured the way it will be seen, after its EXIF
//! orientation. Pages then ask for smaller WebP copies from a fixed ladder of widths,
//! so a phone downloads a few dozen kilobytes instead of the camera's megabytes, and
//! the number of copies one photograph can cost stays small.
//!
//! No I/O: bytes in, bytes out. The server decides when (lazily, on first request),
//! how many at once and how much to keep.

use std::io::Cursor;

use fast_image_resize::images::Image;
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

/// The widths a page's `srcset` offers, narrowest first. A photograph gets each one
/// narrower than itself; the original closes the list.
pub const WIDTHS: [u32; 7] = [160, 320, 480, 640, 960, 1280, 1920];

/// The largest upload taken, in bytes.
pub const MAX_UPLOAD_BYTES: usize = 20 * 1024 * 1024;
/// The longest side taken, in pixels.
pub const MAX_SIDE: u32 = 8_000;
/// The most pixels taken (a 40-megapixel camera).
pub const MAX_PIXELS: u64 = 40_000_000;
/// WebP quality for the copies: visually the same as the original at a fraction of
/// its size.
const QUALITY: f32 = 80.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jpeg,
    Png,
    Webp,
}

impl Format {
    pub fn mime_type(self) -> &'static str {
        match self {
            Format::Jpeg => "image/jpeg",
            Format::Png => "image/png",
            Format::Webp => "image/webp",
        }
    }

    /// The file name extension the shop gives an upload of this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Jpeg => "jpg",
            Format::Png => "png",
            Format::Webp => "webp",
        }
    }

    fn of(format: ImageFormat) -> Option<Format> {
        match format {
            ImageFormat::Jpeg => Some(Format::Jpeg),
            ImageFormat::Png => Some(Format::Png),
            ImageFormat::WebP => Some(Format::Webp),
            _ => None,
        }
    }
}

/// A checked photograph: its format and its size as shown (after orientation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Photo {
    pub format: Format,
    pub width: u32,
    pub height: u32,
}

/// A WebP copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resized {
    pub webp: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImageError {
    #[error("not an image this shop takes: upload a JPEG, PNG or WebP photograph")]
    Unsupported,
    #[error("the file is {bytes} bytes; the most taken is {} MiB", MAX_UPLOAD_BYTES / 1024 / 1024)]
    TooManyBytes { bytes: usize },
    #[error("the image is {width}×{height} pixels; the most taken is {MAX_SIDE} pixels a side and {} megapixels", MAX_PIXELS / 1_000_000)]
    TooLarge { width: u32, height: u32 },
    #[error("the image does not decode: {0}")]
    Corrupt(String),
    #[error("no copy at {0} pixels wide is made for this image")]
    NoSuchWidth(u32),
    #[error("the WebP copy could not be written: {0}")]
    Encode(String),
}

/// Whether `width` is on the ladder and narrower than a photograph `original` wide.
pub fn offers_width(original: u32, width: u32) -> bool {
    WIDTHS.contains(&width) && width < original
}

/// The ladder's widths a photograph `original` pixels wide is offered at.
pub fn widths_for(original: u32) -> impl Iterator<Item = u32> {
    WIDTHS.into_iter().filter(move |&w| w < original)
}

/// Checks an upload and measures it. The whole image is decoded, so a file that
/// claims to be a photograph but is damaged is refused now, not on a shopper's page.
pub fn inspect(bytes: &[u8]) -> Result<Photo, ImageError> {
    let (format, image) = decode(bytes)?;
    Ok(Photo {
        format,
        width: image.width(),
        height: image.height(),
    })
}

/// A WebP copy of `bytes` scaled to `width` pixels wide, its height in proportion.
pub fn webp_copy(bytes: &[u8], width: u32) -> Result<Resized, ImageError> {
    if !WIDTHS.contains(&width) {
        return Err(ImageError::NoSuchWidth(width));
    }
    let (_, image) = decode(bytes)?;
    if !offers_width(image.width(), width) {
        return Err(ImageError::NoSuchWidth(width));
    }
    let (source_w, source_h) = (image.width(), image.height());
    let height = scaled_height(source_w, source_h, width);
    let (pixels, layout) = if image.color().has_alpha() {
        (image.into_rgba8().into_raw(), PixelType::U8x4)
    } else {
        (image.to_rgb8().into_raw(), PixelType::U8x3)
    };
    let source = Image::from_vec_u8(source_w, source_h, pixels, layout)
        .map_err(|e| ImageError::Corrupt(e.to_string()))?;
    let mut target = Image::new(width, height, layout);
    Resizer::new()
        .resize(
            &source,
            &mut target,
            &ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3)),
        )
        .map_err(|e| ImageError::Encode(e.to_string()))?;
    let encoder = match layout {
        PixelType::U8x4 => webp::Encoder::from_rgba(target.buffer(), width, height),
        _ => webp::Encoder::from_rgb(target.buffer(), width, height),
    };
    let webp = encoder
        .encode_simple(false, QUALITY)
        .map_err(|e| ImageError::Encode(format!("{e:?}")))?;
    Ok(Resized {
        webp: webp.to_vec(),
        width,
        height,
    })
}

fn scaled_height(original_w: u32, original_h: u32, width: u32) -> u32 {
    let h = (u64::from(original_h) * u64::from(width) + u64::from(original_w) / 2)
        / u64::from(original_w.max(1));
    (h as u32).max(1)
}

/// Decodes within the limits above and turns the image the way its EXIF says.
fn decode(bytes: &[u8]) -> Result<(Format, DynamicImage), ImageError> {
    if bytes.len() > MAX_UPLOAD_BYTES {
        return Err(ImageError::TooManyBytes { bytes: bytes.len() });
    }
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| ImageError::Corrupt(e.to_string()))?;
    let format = reader
        .format()
        .and_then(Format::of)
        .ok_or(ImageError::Unsupported)?;
    // The header first: a file that claims too many pixels is refused before any
    // memory is set aside for them.
    let (width, height) = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| ImageError::Corrupt(e.to_string()))?
        .into_dimensions()
        .map_err(corrupt)?;
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(ImageError::TooLarge { width, height });
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    // The decoded pixels (four bytes each at most) and the decoder's own buffers.
    limits.max_alloc = Some(MAX_PIXELS * 4 + 64 * 1024 * 1024);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(corrupt)?;
    let orientation = decoder
        .orientation()
        .map_err(|e| ImageError::Corrupt(e.to_string()))?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(corrupt)?;
    image.apply_orientation(orientation);
    Ok((format, image))
}

fn corrupt(e: image::ImageError) -> ImageError {
    match e {
        image::ImageError::Unsupported(_) => ImageError::Unsupported,
        other => ImageError::Corrupt(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{GrayImage, ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage};

    fn encode(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    /// A smooth gradient with some detail, like a photograph's.
    fn photo(width: u32, height: u32) -> DynamicImage {
        DynamicImage::ImageRgb8(RgbImage::from_fn(width, height, |x, y| {
            Rgb([
                (x * 255 / width) as u8,
                (y * 255 / height) as u8,
                ((x * 7 + y * 13) % 32) as u8,
            ])
        }))
    }

    fn read_back(webp: &[u8]) -> DynamicImage {
        assert_eq!(&webp[..4], b"RIFF");
        assert_eq!(&webp[8..12], b"WEBP");
        image::load_from_memory_with_format(webp, ImageFormat::WebP).unwrap()
    }

    #[test]
    fn a_photograph_is_measured_and_copied_at_the_ladder_widths() {
        let jpeg = encode(&photo(1200, 800), ImageFormat::Jpeg);
        assert_eq!(
            inspect(&jpeg),
            Ok(Photo {
                format: Format::Jpeg,
                width: 1200,
                height: 800
            })
        );
        assert_eq!(
            widths_for(1200).collect::<Vec<_>>(),
            vec![160, 320, 480, 640, 960]
        );
        let copy = webp_copy(&jpeg, 640).unwrap();
        assert_eq!((copy.width, copy.height), (640, 427));
        let back = read_back(&copy.webp);
        assert_eq!((back.width(), back.height()), (640, 427));
        assert!(
            copy.webp.len() < jpeg.len() / 2,
            "{} against {}",
            copy.webp.len(),
            jpeg.len()
        );
        // The colours survive the trip (lossy, so roughly).
        let Rgb([r, g, _]) = back.to_rgb8().get_pixel(320, 100).to_owned();
        assert!(
            (i32::from(r) - 127).abs() < 12 && (i32::from(g) - 60).abs() < 12,
            "{r} {g}"
        );
    }

    #[test]
    fn only_ladder_widths_narrower_than_the_original_are_made() {
        let png = encode(&photo(700, 300), ImageFormat::Png);
        assert_eq!(inspect(&png).unwrap().format, Format::Png);
        for width in [700, 960, 500, 0, 100_000] {
            assert_eq!(webp_copy(&png, width), Err(ImageError::NoSuchWidth(width)));
        }
        assert!(offers_width(700, 640) && !offers_width(700, 960) && !offers_width(640, 640));
    }

    #[test]
    fn transparency_is_kept() {
        let logo = DynamicImage::ImageRgba8(RgbaImage::from_fn(400, 400, |x, _| {
            Rgba([200, 20, 20, if x < 200 { 0 } else { 255 }])
        }));
        let copy = webp_copy(&encode(&logo, ImageFormat::Png), 160).unwrap();
        let back = read_back(&copy.webp).to_rgba8();
        assert!(back.get_pixel(10, 80)[3] < 20);
        assert!(back.get_pixel(150, 80)[3] > 235);
    }

    #[test]
    fn what_is_not_a_photograph_is_refused() {
        let svg = b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>";
        assert_eq!(inspect(svg), Err(ImageError::Unsupported));
        assert_eq!(
            inspect(b"GIF89a\x01\x00\x01\x00"),
            Err(ImageError::Unsupported)
        );
        assert_eq!(inspect(b""), Err(ImageError::Unsupported));
        let png = encode(&photo(300, 200), ImageFormat::Png);
        assert!(matches!(
            inspect(&png[..png.len() / 2]),
            Err(ImageError::Corrupt(_))
        ));
        let jpeg = encode(&photo(300, 200), ImageFormat::Jpeg);
        assert!(matches!(inspect(&jpeg[..40]), Err(ImageError::Corrupt(_))));
        let big = vec![0u8; MAX_UPLOAD_BYTES + 1];
        assert_eq!(
            inspect(&big),
            Err(ImageError::TooManyBytes {
                bytes: MAX_UPLOAD_BYTES + 1
            })
        );
    }

    #[test]
    fn too_many_pixels_are_refused_before_decoding() {
        let wide = encode(
            &DynamicImage::ImageLuma8(GrayImage::new(MAX_SIDE + 1, 1)),
            ImageFormat::Png,
        );
        assert_eq!(
            inspect(&wide),
            Err(ImageError::TooLarge {
                width: MAX_SIDE + 1,
                height: 1
            })
        );
        // A tiny file that claims 64 megapixels: a PNG of one flat colour compresses to
        // a few kilobytes.
        let mut bomb = Cursor::new(Vec::new());
        image::codecs::png::PngEncoder::new(&mut bomb)
            .write_image(
                &vec![0u8; 8_000 * 8_000],
                8_000,
                8_000,
                image::ExtendedColorType::L8,
            )
            .unwrap();
        let bomb = bomb.into_inner();
        assert!(bomb.len() < 400_000, "{}", bomb.len());
        assert_eq!(
            inspect(&bomb),
            Err(ImageError::TooLarge {
                width: 8_000,
                height: 8_000
            })
        );
    }
}
