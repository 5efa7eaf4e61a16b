// Notices the shop's classic calls answer as HTML (checkout failures, coupon results):
// <ul class="woocommerce-error"><li data-id="billing_email">…</li></ul>, or a
// woocommerce-message / woocommerce-info box, or the block notices (is-error…).
// Read with DOMParser for their text only; none of the server's markup is rendered.

export type NoticeTone = 'error' | 'success' | 'info';

export interface ServerNotice {
  tone: NoticeTone;
  text: string;
  /** The field the notice is about (`billing_first_name`), from data-id. */
  fieldId: string | null;
}

function toneOf(element: Element | null, fallback: NoticeTone): NoticeTone {
  const names = element?.className ?? '';
  if (/\b(woocommerce-error|is-error)\b/.test(names)) return 'error';
  if (/\b(woocommerce-message|is-success)\b/.test(names)) return 'success';
  if (/\b(woocommerce-info|is-info|woocommerce-notice)\b/.test(names)) return 'info';
  return fallback;
}

const textOf = (node: Node) => (node.textContent ?? '').replace(/\s+/g, ' ').trim();

const NOTICE_SELECTOR = '.woocommerce-error, .woocommerce-message, .woocommerce-info, .is-error, .is-success, .is-info';

/** The notices in `html`, one per list item or notice box; `fallback` is the tone of bare text. */
export function parseNotices(html: string, fallback: NoticeTone = 'error'): ServerNotice[] {
  if (!html.trim()) return [];
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const notices: ServerNotice[] = [];

  const items = doc.body.querySelectorAll('li');
  if (items.length > 0) {
    for (const item of items) {
      const text = textOf(item);
      if (text) notices.push({ tone: toneOf(item.closest(NOTICE_SELECTOR), fallback), text, fieldId: item.getAttribute('data-id') || null });
    }
    return notices;
  }

  const boxes = [...doc.body.querySelectorAll(NOTICE_SELECTOR)].filter((box) => !box.parentElement?.closest(NOTICE_SELECTOR));
  for (const box of boxes) {
    const text = textOf(box);
    if (text) notices.push({ tone: toneOf(box, fallback), text, fieldId: box.getAttribute('data-id') || null });
  }
  if (notices.length > 0) return notices;

  const text = textOf(doc.body);
  return text ? [{ tone: fallback, text, fieldId: null }] : [];
}

/** The coupon calls mark a refusal with a woocommerce-error or is-error class. */
export function isErrorHtml(html: string): boolean {
  return /\b(woocommerce-error|is-error)\b/.test(html);
}
