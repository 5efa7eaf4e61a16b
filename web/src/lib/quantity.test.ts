import { describe, expect, it } from 'vitest';
import { clampQuantity } from './quantity';

describe('clamping a quantity', () => {
  it('raises a value below the minimum to the minimum', () => {
    expect(clampQuantity(1, { min: 2, max: 10 })).toBe(2);
    expect(clampQuantity(0, { min: 1 })).toBe(1);
    expect(clampQuantity(-3, { min: 1 })).toBe(1);
  });

  it('lowers a value above the maximum to the maximum', () => {
    expect(clampQuantity(12, { min: 1, max: 5 })).toBe(5);
  });

  it('keeps a value within the limits', () => {
    expect(clampQuantity(3, { min: 1, max: 5 })).toBe(3);
  });

  it('has no upper bound when the maximum is missing or not positive', () => {
    expect(clampQuantity(500, { min: 1, max: null })).toBe(500);
    expect(clampQuantity(500, { min: 1, max: 0 })).toBe(500);
  });

  it('turns typed text into a whole number, and empty or invalid text into the minimum', () => {
    expect(clampQuantity('4', { min: 1, max: 9 })).toBe(4);
    expect(clampQuantity('2.7', { min: 1, max: 9 })).toBe(2);
    expect(clampQuantity('', { min: 2, max: 9 })).toBe(2);
    expect(clampQuantity('abc', { min: 1, max: 9 })).toBe(1);
  });

  it('never lets the maximum fall below the minimum', () => {
    expect(clampQuantity(5, { min: 3, max: 2 })).toBe(3);
  });
});
