import { describe, expect, it } from 'vitest';
import { zoomOrigin, zoomScale, zoomSource } from './gallery-zoom';

describe('hover zoom', () => {
  const box = { left: 100, top: 50, width: 600, height: 600 };

  it('magnifies about the point under the pointer', () => {
    expect(zoomOrigin({ x: 100, y: 50 }, box)).toEqual({ x: 0, y: 0 });
    expect(zoomOrigin({ x: 400, y: 350 }, box)).toEqual({ x: 50, y: 50 });
    expect(zoomOrigin({ x: 250, y: 500 }, box)).toEqual({ x: 25, y: 75 });
  });

  it('keeps the origin inside the image at its edges, and in the middle of an empty box', () => {
    expect(zoomOrigin({ x: 20, y: 900 }, box)).toEqual({ x: 0, y: 100 });
    expect(zoomOrigin({ x: 20, y: 900 }, { left: 0, top: 0, width: 0, height: 0 })).toEqual({ x: 50, y: 50 });
  });

  it('shows the large file at its own size, at least twice and at most three times', () => {
    expect(zoomScale(1500, 600)).toBe(2.5);
    expect(zoomScale(800, 600)).toBe(2);
    expect(zoomScale(6000, 600)).toBe(3);
    expect(zoomScale(undefined, 600)).toBe(2);
    expect(zoomScale(1500, 0)).toBe(2);
  });

  it('takes the smallest copy wide enough, else the largest file', () => {
    const photo = {
      src: '/media/rail.jpg',
      srcset: '/media/rail.jpg?w=640 640w, /media/rail.jpg?w=1280 1280w, /media/rail.jpg 1600w',
      width: 1600,
    };
    expect(zoomSource(photo, 1200)).toBe('/media/rail.jpg?w=1280');
    expect(zoomSource(photo, 600)).toBe('/media/rail.jpg?w=640');
    expect(zoomSource(photo, 2400)).toBe('/media/rail.jpg');
    expect(zoomSource({ src: '/media/a.svg', srcset: '', width: 800 }, 1200)).toBe('/media/a.svg');
  });
});
