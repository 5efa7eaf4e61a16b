// The product's main image with clickable thumbnails that swap it. A chosen
// variation's image takes the main place until a thumbnail is picked.
// (The slider, zoom and full-screen viewer come with the product-page stage.)
import { useEffect, useState } from 'react';
import { ProductImage } from '@/components/ui/product-image';
import type { ProductImage as Image } from '@/types/store-api';
import styles from './product-gallery.module.css';

// The server preloads the main image with these sizes (PRODUCT_IMAGE_SIZES in the
// server's web.rs): the two must agree, or the browser fetches the image twice.
const MAIN_SIZES = '(min-width: 1024px) 600px, 100vw';

export function ProductGallery({ images, variationImage, name }: { images: Image[]; variationImage?: Image; name: string }) {
  const [selected, setSelected] = useState(0);
  const [showVariation, setShowVariation] = useState(false);

  // A newly chosen variation brings its image to the front; if it is one of the
  // gallery's, its thumbnail becomes the selected one.
  useEffect(() => {
    if (!variationImage) {
      setShowVariation(false);
      return;
    }
    const index = images.findIndex((image) => image.id === variationImage.id);
    if (index >= 0) {
      setSelected(index);
      setShowVariation(false);
    } else {
      setShowVariation(true);
    }
  }, [variationImage, images]);

  const main = showVariation && variationImage ? variationImage : images[selected];

  return (
    <div className={styles.gallery}>
      <div className={styles.main} data-testid="product-main-image">
        <ProductImage image={main} variant="full" sizes={MAIN_SIZES} eager priority className={styles.mainImage} />
      </div>
      {images.length > 1 && (
        <ul className={styles.thumbnails} aria-label={`${name} images`}>
          {images.map((image, index) => {
            const active = !showVariation && index === selected;
            return (
              <li key={`${image.id}-${index}`}>
                <button
                  type="button"
                  className={`${styles.thumbnail} ${active ? styles.active : ''}`}
                  aria-label={`Show image ${index + 1} of ${images.length}`}
                  aria-pressed={active}
                  onClick={() => {
                    setSelected(index);
                    setShowVariation(false);
                  }}
                >
                  <ProductImage image={image} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
