// Quantity rules shared by the product page and the cart: a value below the
// minimum is raised to it, one above the maximum is lowered to it.

export interface QuantityLimits {
  min: number;
  /** Absent or non-positive when there is no upper limit. */
  max?: number | null;
}

export function clampQuantity(value: number | string, { min, max }: QuantityLimits): number {
  const lower = Math.max(1, Math.trunc(min) || 1);
  const parsed = typeof value === 'number' ? value : Number.parseInt(value, 10);
  if (!Number.isFinite(parsed)) return lower;
  const whole = Math.trunc(parsed);
  const upper = max && max > 0 ? Math.max(lower, Math.trunc(max)) : Number.POSITIVE_INFINITY;
  return Math.min(Math.max(whole, lower), upper);
}
