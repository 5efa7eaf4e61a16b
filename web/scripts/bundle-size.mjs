#!/usr/bin/env node
// Reports the JavaScript a product page loads before it can render: the entry
// chunk, the product route's chunk and every chunk they import statically
// (read from dist/.vite/manifest.json), each gzipped. Exits with 1 over budget.
//
// Usage: node scripts/bundle-size.mjs [route source] [budget in KB]
//   default route: src/app/routes/product.tsx, default budget: 90 KB
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const route = process.argv[2] ?? 'src/app/routes/product.tsx';
const budgetKb = Number(process.argv[3] ?? 90);

let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
} catch {
  console.error('dist/.vite/manifest.json not found: run `npm run build` first.');
  process.exit(2);
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('The manifest has no entry chunk.');
if (!manifest[route]) throw new Error(`The manifest has no chunk for ${route}.`);

// Static imports only: dynamic ones (other pages) load later, if ever.
const files = new Set();
const css = new Set();
function collect(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const sheet of chunk.css ?? []) css.add(sheet);
  for (const imported of chunk.imports ?? []) collect(imported);
}
collect(entryKey);
// The app itself, which the entry (boot.ts) loads once the page has painted.
collect('src/main.tsx');
collect(route);

const gzipSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

let total = 0;
console.log(`Initial JavaScript for ${route} (gzip):`);
for (const file of [...files].filter((name) => name.endsWith('.js'))) {
  const size = gzipSize(file);
  total += size;
  console.log(`  ${kb(size).padStart(9)}  ${file}`);
}
console.log(`  ${kb(total).padStart(9)}  total (budget ${budgetKb} KB)`);

const cssTotal = [...css].reduce((sum, file) => sum + gzipSize(file), 0);
console.log(`  ${kb(cssTotal).padStart(9)}  CSS, for reference`);

if (total > budgetKb * 1024) {
  console.error(`Over budget by ${kb(total - budgetKb * 1024)}.`);
  process.exit(1);
}
