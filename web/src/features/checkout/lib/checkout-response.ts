// The classic checkout call's answer: {result, redirect?, messages?, reload?, refresh?}.
// Plugins on the original shop sometimes print before or after the JSON; as the
// original's script does, the object that begins with {"result" is cut out and read.

export interface CheckoutResult {
  result: 'success' | 'failure';
  redirect?: string;
  /** HTML: a list of notices, items may name a field with data-id. */
  messages?: string;
  reload?: boolean;
  refresh?: boolean;
  order_id?: number;
}

function isCheckoutResult(value: unknown): value is CheckoutResult {
  if (!value || typeof value !== 'object') return false;
  const result = (value as { result?: unknown }).result;
  return result === 'success' || result === 'failure';
}

function tryParse(text: string): CheckoutResult | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isCheckoutResult(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The index of the brace closing the object that opens at `start`, or -1. Strings are skipped. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** The answer as an object, repaired when stray output surrounds it; null when there is none. */
export function parseCheckoutResponse(text: string): CheckoutResult | null {
  const direct = tryParse(text.trim());
  if (direct) return direct;

  const start = text.search(/\{\s*"result"/);
  if (start < 0) return null;
  const end = closingBrace(text, start);
  const repaired = end > start ? tryParse(text.slice(start, end + 1)) : null;
  if (repaired) return repaired;
  // Unbalanced braces inside a broken string: try up to the last brace instead.
  return tryParse(text.slice(start, text.lastIndexOf('}') + 1));
}
