// The storefront is written against React's API and runs on Preact's compatible
// implementation: the same components, hooks, React Router and TanStack Query, for
// about a fifth of react-dom's weight. The page's JavaScript budget depends on it.
import { fileURLToPath, URL } from 'node:url';
import type { Alias, Plugin } from 'vite';

export const preactAliases: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

const REACT_DEFAULT = fileURLToPath(new URL('./src/lib/react-default.ts', import.meta.url));

/**
 * The payment provider's React components import React's default export, which in
 * preact/compat is an object of its whole API: tree-shaking cannot drop any of it, and
 * the shared vendor chunk would carry it to every page. They get a default export of
 * what they use instead (src/lib/react-default.ts).
 */
export const reactDefaultForPayments: Plugin = {
  name: 'ferroshop:react-default-for-payments',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer && /[\\/]@stripe[\\/]react-stripe-js[\\/]/.test(importer) && (source === 'react' || source === 'preact/compat')) return REACT_DEFAULT;
    return null;
  },
};
