// Shows short HTML the shop's settings carry (privacy and terms texts, payment
// instructions) without handing any markup to the browser: the HTML is read into a
// tree by a small tokenizer (the same on the server, which has no DOMParser, and in
// the browser) and rebuilt as React elements from a short list of harmless tags;
// links keep only web and mail addresses; everything else becomes its text.
import { createElement, type ReactNode } from 'react';
import { decodeEntities } from '@/lib/html-text';

const BLOCK_TAGS = new Set(['p', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'blockquote']);
const INLINE_TAGS = new Set(['strong', 'b', 'em', 'i', 'small', 'span', 'code']);
/** Dropped with everything inside them. */
const DROPPED_TAGS = new Set(['script', 'style', 'template', 'iframe', 'object', 'noscript', 'textarea', 'title']);
const VOID_TAGS = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'track', 'wbr']);

interface ElementNode {
  tag: string;
  attrs: Map<string, string>;
  children: HtmlNode[];
}
type HtmlNode = string | ElementNode;

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<\/([a-zA-Z][\w-]*)[^>]*>|<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g;
const ATTRIBUTE = /([^\s/>"'=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function parseAttributes(text: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attrs;
}

/** The HTML as a tree of elements and text, forgiving as browsers are. */
export function parseHtml(html: string): HtmlNode[] {
  const root: ElementNode = { tag: '', attrs: new Map(), children: [] };
  const open: ElementNode[] = [root];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKEN.exec(html))) {
    const [token, closing, opening, attrText] = match;
    const parent = open[open.length - 1]!;
    if (token.startsWith('<!--')) continue;
    if (closing) {
      const tag = closing.toLowerCase();
      const at = open.findLastIndex((node) => node.tag === tag);
      if (at > 0) open.length = at;
      continue;
    }
    if (opening) {
      const tag = opening.toLowerCase();
      if (DROPPED_TAGS.has(tag)) {
        const end = html.toLowerCase().indexOf(`</${tag}`, TOKEN.lastIndex);
        const close = end < 0 ? -1 : html.indexOf('>', end);
        TOKEN.lastIndex = close < 0 ? html.length : close + 1;
        continue;
      }
      const node: ElementNode = { tag, attrs: parseAttributes(attrText ?? ''), children: [] };
      parent.children.push(node);
      if (!VOID_TAGS.has(tag) && !(attrText ?? '').trimEnd().endsWith('/')) open.push(node);
      continue;
    }
    parent.children.push(decodeEntities(token));
  }
  return root.children;
}

function safeHref(href: string | undefined): string | null {
  if (!href) return null;
  try {
    // Only the scheme matters: a relative link is a web link.
    const url = new URL(href, 'https://shop.invalid/');
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? href : null;
  } catch {
    return null;
  }
}

function convert(node: HtmlNode, key: string): ReactNode {
  if (typeof node === 'string') return node;
  const { tag } = node;
  const children = node.children.map((child, index) => convert(child, `${key}.${index}`));
  if (tag === 'br') return createElement('br', { key });
  if (tag === 'a') {
    const href = safeHref(node.attrs.get('href'));
    if (!href) return createElement('span', { key }, ...children);
    const external = node.attrs.get('target') === '_blank';
    return createElement('a', { key, href, ...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {}) }, ...children);
  }
  if (BLOCK_TAGS.has(tag) || INLINE_TAGS.has(tag)) return createElement(tag, { key }, ...children);
  return children;
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const content = parseHtml(html).map((child, index) => convert(child, String(index)));
  return <div className={className}>{content}</div>;
}
