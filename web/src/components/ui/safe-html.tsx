// Shows short HTML the shop's settings carry (privacy and terms texts, payment
// instructions) without handing any markup to the browser: the HTML is parsed with
// DOMParser and rebuilt as React elements from a short list of harmless tags; links
// keep only web and mail addresses; everything else becomes its text.
import { createElement, type ReactNode } from 'react';

const BLOCK_TAGS = new Set(['p', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'blockquote']);
const INLINE_TAGS = new Set(['strong', 'b', 'em', 'i', 'small', 'span', 'code']);
const DROPPED_TAGS = new Set(['script', 'style', 'template', 'iframe', 'object', 'noscript']);

function safeHref(href: string | null): string | null {
  if (!href) return null;
  try {
    const url = new URL(href, window.location.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? href : null;
  } catch {
    return null;
  }
}

function convert(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED_TAGS.has(tag)) return null;
  const children = [...element.childNodes].map((child, index) => convert(child, `${key}.${index}`));
  if (tag === 'br') return createElement('br', { key });
  if (tag === 'a') {
    const href = safeHref(element.getAttribute('href'));
    if (!href) return createElement('span', { key }, ...children);
    const external = element.getAttribute('target') === '_blank';
    return createElement('a', { key, href, ...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {}) }, ...children);
  }
  if (BLOCK_TAGS.has(tag) || INLINE_TAGS.has(tag)) return createElement(tag, { key }, ...children);
  return children;
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const content = [...doc.body.childNodes].map((child, index) => convert(child, String(index)));
  return <div className={className}>{content}</div>;
}
