import { describe, expect, it } from 'vitest';
import type { ProductImage } from '@/types/store-api';
import { captionOf, gallerySlides, nearbySlides, viewerItem, viewerSecondaryZoom } from './gallery';

const image = (id: number, extra: Partial<ProductImage> = {}): ProductImage => ({
  id,
  src: `https://shop.example/media/hoodie-${id}.svg`,
  thumbnail: `https://shop.example/media/hoodie-${id}.svg`,
  srcset: `https://shop.example/media/hoodie-${id}.svg 800w`,
  sizes: '(max-width: 800px) 100vw, 800px',
  name: `hoodie-${id}.svg`,
  alt: `Hoodie, view ${id}`,
  caption: '',
  width: 800,
  height: 800,
  ...extra,
});

const images = [image(1), image(2), image(3)];

describe('the gallery slides', () => {
  it('are the product images while no variation is chosen', () => {
    expect(gallerySlides(images, undefined)).toEqual({ slides: images, variationSlide: null });
  });

  it("go to a chosen variation's image where the gallery has it", () => {
    expect(gallerySlides(images, image(3))).toEqual({ slides: images, variationSlide: 2 });
  });

  it("put any other variation image in the first slide's place", () => {
    const own = image(9);
    const { slides, variationSlide } = gallerySlides(images, own);
    expect(slides.map((s) => s.id)).toEqual([9, 2, 3]);
    expect(variationSlide).toBe(0);
  });

  it('show a variation image on a product without images of its own', () => {
    expect(gallerySlides([], image(9))).toEqual({ slides: [image(9)], variationSlide: 0 });
  });
});

describe('the slides worth fetching now', () => {
  it('are the one shown and its neighbours, round the loop', () => {
    expect(nearbySlides(0, 4).sort()).toEqual([0, 1, 3]);
    expect(nearbySlides(3, 4).sort()).toEqual([0, 2, 3]);
    expect(nearbySlides(1, 2).sort()).toEqual([0, 1]);
    expect(nearbySlides(0, 1)).toEqual([0]);
    expect(nearbySlides(0, 0)).toEqual([]);
  });
});

describe("an image's caption", () => {
  it('is its caption, or else its title, but never a file name', () => {
    expect(captionOf(image(1, { caption: 'Styled at home' }))).toBe('Styled at home');
    expect(captionOf(image(1, { caption: '', name: 'Autumn shoot' }))).toBe('Autumn shoot');
    expect(captionOf(image(1, { caption: '  ', name: 'hoodie-1.svg' }))).toBe('');
    expect(captionOf(image(1, { caption: undefined, name: 'rail-shot-01.jpeg' }))).toBe('');
  });
});

describe('an image for the viewer', () => {
  it('carries its large file, size, alt and caption', () => {
    expect(viewerItem(image(2, { caption: 'The details', width: 1600, height: 1200 }))).toEqual({
      src: 'https://shop.example/media/hoodie-2.svg',
      srcset: 'https://shop.example/media/hoodie-2.svg 800w',
      width: 1600,
      height: 1200,
      alt: 'Hoodie, view 2',
      caption: 'The details',
      vector: true,
    });
    expect(viewerItem(image(2, { src: 'https://shop.example/media/rail.jpg?v=2' })).vector).toBe(false);
  });

  it('takes the size the page measured when the API has none, or else a square', () => {
    const unsized = image(2, { width: undefined, height: undefined, srcset: '' });
    expect(viewerItem(unsized, { width: 640, height: 480 })).toMatchObject({ width: 640, height: 480, srcset: undefined });
    expect(viewerItem(unsized)).toMatchObject({ width: 1200, height: 1200 });
  });
});

describe("the viewer's zoom button", () => {
  it("zooms a photograph to three times its fitted size, but never past the file's own size or 4000 px", () => {
    expect(viewerSecondaryZoom({ fit: 0.2, width: 3000, vector: false })).toBeCloseTo(0.6);
    expect(viewerSecondaryZoom({ fit: 0.5, width: 1600, vector: false })).toBe(1);
    expect(viewerSecondaryZoom({ fit: 1, width: 800, vector: false })).toBe(1);
    expect(viewerSecondaryZoom({ fit: 0.1, width: 20000, vector: false })).toBeCloseTo(0.2);
  });

  it('zooms a drawing to at least twice its fitted size', () => {
    expect(viewerSecondaryZoom({ fit: 1, width: 800, vector: true })).toBe(2);
    expect(viewerSecondaryZoom({ fit: 0.45, width: 800, vector: true })).toBe(1);
    expect(viewerSecondaryZoom({ fit: 3, width: 800, vector: true })).toBe(5);
  });
});
