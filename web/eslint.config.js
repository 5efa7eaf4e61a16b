// Lint rules for the storefront: TypeScript's recommended checks, the rules of hooks,
// and the layout that keeps features independent — a feature never imports another
// feature (src/app composes them), shared code never imports a feature or the app,
// and features have no index barrel files.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SHARED = ['components', 'hooks', 'lib', 'config', 'types'];

/** Feature files sit this many folders below their feature's root (0: src/features/<a>/file.ts). */
const DEPTHS = [0, 1, 2, 3];

// One block per feature and folder depth: a relative import that climbs out of the
// feature's folder would land in src/features, next to the other features.
const featureBoundaries = features.flatMap((feature) =>
  DEPTHS.map((depth) => ({
    files: [`src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/features/(?!${feature}/)`,
              message: `src/features/${feature} may not import another feature; compose features in src/app instead.`,
            },
            {
              regex: `^(\\.\\./){${depth + 1},}`,
              message: `This import leaves src/features/${feature}; import shared code by its '@/' path, and never another feature.`,
            },
            { regex: '^@/app(/|$)', message: 'Features never import the app; the app composes them.' },
          ],
        },
      ],
    },
  })),
);

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'node_modules', 'e2e', 'scripts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', '*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['eslint.config.js', 'vite.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  ...featureBoundaries,
  {
    files: SHARED.map((folder) => `src/${folder}/**/*.{ts,tsx}`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^@/(features|app)(/|$)', message: 'Shared code never imports a feature or the app.' },
            { regex: '^(\\.\\./)+(features|app)(/|$)', message: 'Shared code never imports a feature or the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='react-router'] ImportSpecifier[imported.name=/^(Link|NavLink)$/]",
          message: "Links are the shop's own (@/components/ui/link): React Router's cost a listing's render a quarter of its time.",
        },
      ],
    },
  },
  {
    files: ['src/features/**/index.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'Program', message: 'Barrel files are not used inside features; import the module itself.' }],
    },
  },
);
