import { render, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent } from '@/test/events';
import type { ProductImage } from '@/types/store-api';
import type { SliderOptions } from './gallery/gallery-slider';
import { ProductGallery } from './product-gallery';

// The slider's chunk, as the page would receive it: a record of what the gallery asks of it.
const slider = vi.hoisted(() => ({
  created: [] as { viewport: HTMLElement; options: SliderOptions }[],
  calls: [] as string[],
}));
vi.mock('./gallery/gallery-slider', () => ({
  createSlider: (viewport: HTMLElement, options: SliderOptions) => {
    slider.created.push({ viewport, options });
    return {
      scrollTo: (index: number) => {
        slider.calls.push(`scrollTo ${index}`);
        options.onSelect(index);
      },
      next: () => slider.calls.push('next'),
      previous: () => slider.calls.push('previous'),
      play: (running: boolean) => slider.calls.push(running ? 'play' : 'stop'),
      destroy: () => slider.calls.push('destroy'),
    };
  },
}));

const image = (id: number): ProductImage => ({
  id,
  src: `/media/hoodie-${id}.svg`,
  thumbnail: `/media/hoodie-${id}.svg`,
  srcset: `/media/hoodie-${id}.svg 800w`,
  sizes: '(max-width: 800px) 100vw, 800px',
  name: `hoodie-${id}.svg`,
  alt: `Hoodie, view ${id}`,
  caption: '',
  width: 800,
  height: 800,
});
const images = [image(1), image(2), image(3)];

const shown = () => screen.getByTestId('product-main-image');
const shownSrc = () => shown().querySelector('img')?.getAttribute('src');

describe('the product gallery', () => {
  beforeEach(() => {
    slider.created.length = 0;
    slider.calls.length = 0;
  });

  it('draws every slide, the first fetched first with the sizes of the server’s preload and the others lazily', () => {
    const { container } = render(<ProductGallery images={images} name="Hoodie" />);
    const slides = [...container.querySelectorAll('[aria-roledescription="slide"]')];
    expect(slides.map((s) => s.getAttribute('aria-label'))).toEqual(['Image 1 of 3', 'Image 2 of 3', 'Image 3 of 3']);
    expect(slides.map((s) => s.getAttribute('aria-hidden'))).toEqual([null, 'true', 'true']);
    const imgs = slides.map((s) => s.querySelector('img')!);
    expect(imgs[0]!.getAttribute('loading')).toBe('eager');
    expect(imgs[0]!.getAttribute('fetchpriority')).toBe('high');
    expect(imgs[0]!.getAttribute('sizes')).toBe('(min-width: 1024px) 600px, 100vw');
    expect(imgs.slice(1).map((img) => img.getAttribute('loading'))).toEqual(['lazy', 'lazy']);
    expect(shownSrc()).toBe('/media/hoodie-1.svg');
    expect(screen.getByRole('region', { name: 'Hoodie images' }).getAttribute('aria-roledescription')).toBe('carousel');
    expect(screen.getAllByRole('button', { name: /^Show image \d of 3$/ })).toHaveLength(3);
  });

  it('hands the slides to the slider once idle, which runs the slideshow until the shopper uses the gallery', async () => {
    render(<ProductGallery images={images} name="Hoodie" />);
    await waitFor(() => expect(slider.created).toHaveLength(1));
    expect(slider.created[0]!.options.startIndex).toBe(0);
    await waitFor(() => expect(slider.calls).toContain('play'));
    expect(screen.getByRole('button', { name: 'Pause slideshow' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Show image 3 of 3' }));
    expect(slider.calls).toContain('scrollTo 2');
    expect(shownSrc()).toBe('/media/hoodie-3.svg');
    expect(screen.getByRole('button', { name: 'Show image 3 of 3' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(slider.calls[slider.calls.length - 1]).toBe('stop'));
    expect(screen.getByRole('button', { name: 'Play slideshow' })).toBeTruthy();

    // Only the pause/play control starts it again.
    fireEvent.click(screen.getByRole('button', { name: 'Play slideshow' }));
    await waitFor(() => expect(slider.calls[slider.calls.length - 1]).toBe('play'));
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(slider.calls).toContain('next');
    await waitFor(() => expect(slider.calls[slider.calls.length - 1]).toBe('stop'));
  });

  it('starts the slider where a thumbnail chosen before it came left the slides', async () => {
    render(<ProductGallery images={images} name="Hoodie" />);
    fireEvent.click(screen.getByRole('button', { name: 'Show image 2 of 3' }));
    expect(shownSrc()).toBe('/media/hoodie-2.svg');
    await waitFor(() => expect(slider.created).toHaveLength(1));
    expect(slider.created[0]!.options.startIndex).toBe(1);
  });

  it("goes to a chosen variation's image, or shows it in the first slide's place", async () => {
    const { rerender } = render(<ProductGallery images={images} name="Hoodie" />);
    rerender(<ProductGallery images={images} variationImage={image(3)} name="Hoodie" />);
    await waitFor(() => expect(shownSrc()).toBe('/media/hoodie-3.svg'));

    rerender(<ProductGallery images={images} variationImage={image(9)} name="Hoodie" />);
    await waitFor(() => expect(shownSrc()).toBe('/media/hoodie-9.svg'));
    expect(screen.getByRole('button', { name: 'Show image 1 of 3' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Show image 1 of 3' }).querySelector('img')?.getAttribute('src')).toBe('/media/hoodie-9.svg');

    rerender(<ProductGallery images={images} name="Hoodie" />);
    await waitFor(() => expect(shownSrc()).toBe('/media/hoodie-1.svg'));
  });

  it('shows a single image without a slider, and a placeholder without any', () => {
    const { unmount } = render(<ProductGallery images={[image(1)]} name="Hoodie" />);
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Show image/ })).toBeNull();
    expect(shownSrc()).toBe('/media/hoodie-1.svg');
    expect(screen.getByRole('button', { name: 'View full-screen' })).toBeTruthy();
    unmount();
    render(<ProductGallery images={[]} name="Hoodie" />);
    expect(shown().querySelector('img')).toBeNull();
    expect(screen.queryByRole('button', { name: 'View full-screen' })).toBeNull();
  });
});
