// What the form's scripts need of the browser, as the original checks it before it
// takes a form over. A browser without one of them keeps the form as a plain form
// (it posts to the feedback call as is), and the console says what was missing.

export interface BrowserParts {
  fetch?: unknown;
  FormData?: unknown;
  NodeList?: { prototype: { forEach?: unknown } };
}

/** What the browser lacks, in the original's words, or null when it has it all. */
export function missingSupport(browser: BrowserParts, strings: { replaceAll?: unknown } = String.prototype): string | null {
  if (typeof browser.fetch !== 'function') return 'Your browser does not support window.fetch().';
  if (typeof browser.FormData !== 'function') return 'Your browser does not support window.FormData().';
  if (typeof browser.NodeList?.prototype.forEach !== 'function') return 'Your browser does not support NodeList.forEach().';
  if (typeof strings.replaceAll !== 'function') return 'Your browser does not support String.replaceAll().';
  return null;
}

/** The console's message for a form whose definition came without what it needs. */
export const MISSING_SETTINGS = 'The contact form’s settings are missing.';

/** Whether a definition has what drawing and sending the form take. */
export function hasSettings(definition: unknown): boolean {
  if (!definition || typeof definition !== 'object') return false;
  const { id, fields, version, locale } = definition as Record<string, unknown>;
  return typeof id === 'number' && Array.isArray(fields) && typeof version === 'string' && typeof locale === 'string';
}
