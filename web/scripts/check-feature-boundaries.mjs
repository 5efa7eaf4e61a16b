#!/usr/bin/env node
// Enforces the layout rules that keep features independent:
//   - a feature never imports another feature (the app composes them);
//   - shared code (components, hooks, lib, config, types) never imports a feature or the app;
//   - no index.ts barrel files inside features.
// Dependency-free on purpose; run with `npm run lint`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const SHARED = ['components', 'hooks', 'lib', 'config', 'types'];

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** "features/cart", "components", "app"… for a file or import target inside src. */
function area(path) {
  const parts = relative(src, path).split(sep);
  return parts[0] === 'features' ? `features/${parts[1]}` : parts[0];
}

function target(file, specifier) {
  if (specifier.startsWith('@/')) return join(src, specifier.slice(2));
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
  return null; // a package
}

const problems = [];
const importPattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

for (const file of walk(src)) {
  const from = area(file);
  const rel = relative(root, file);
  if (from.startsWith('features/') && /^index\.tsx?$/.test(file.split(sep).pop())) {
    problems.push(`${rel}: barrel files are not used inside features`);
  }
  for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
    const specifier = match[1] ?? match[2];
    const resolved = target(file, specifier);
    if (!resolved || !resolved.startsWith(src)) continue;
    const to = area(resolved);
    if (from.startsWith('features/') && to.startsWith('features/') && to !== from) {
      problems.push(`${rel}: ${from} imports ${to} ("${specifier}"); compose features in src/app instead`);
    }
    if (SHARED.includes(from) && (to.startsWith('features/') || to === 'app')) {
      problems.push(`${rel}: shared code in src/${from} imports ${to} ("${specifier}")`);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('Feature boundaries hold.');
