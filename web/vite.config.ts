// Build, dev server and unit-test configuration for the storefront.
// In development the shop's API calls are proxied to the Rust server so the app
// runs same-origin, exactly as it does when the server serves web/dist.
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { preactAliases, reactDefaultForPayments } from './vite.preact.ts';
import { defineConfig } from 'vitest/config';

const routerBuild = (file: string) =>
  fileURLToPath(new URL(`./node_modules/react-router/dist/development/${file}`, import.meta.url));

const server = process.env.FERROSHOP_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), reactDefaultForPayments],
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }, ...preactAliases],
  },
  server: {
    proxy: {
      '/wp-json': server,
      '/media': server,
      // The newsletter sign-up, at the original plugin's address.
      '/wp-admin/admin-ajax.php': server,
      // Classic shop calls: any path with a wc-ajax query parameter.
      '^/[^?]*\\?(?:.*&)?wc-ajax=': server,
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    // The app's code loads after the first paint (boot.ts) and the browser finds each
    // chunk's imports itself: preloading them all from one call would add a link per
    // chunk to the page in one long task, just as the app starts.
    modulePreload: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Libraries change less often than the shop's code: one long-cached chunk. The
        // payment provider's libraries stay out of it, in the chunks of the payment pages
        // that load them, and so do the product gallery's slider and viewer, fetched by
        // the product page after it has painted (the main bundle never carries them).
        codeSplitting: { groups: [{ name: 'vendor', test: /[\\/]node_modules[\\/](?!@stripe[\\/]|prop-types[\\/]|react-is[\\/]|embla-carousel(-autoplay)?[\\/]|photoswipe[\\/])/ }] },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // Libraries that import React go through the aliases too, so the tests run on
    // what the shop ships.
    server: { deps: { inline: [/react-router/, /@tanstack\/react-query/, /preact/, /@stripe\/react-stripe-js/] } },
    // Node would take React Router's CommonJS build, whose require('react') no alias sees.
    alias: [
      { find: /^react-router$/, replacement: routerBuild('index.mjs') },
      { find: /^react-router\/dom$/, replacement: routerBuild('dom-export.mjs') },
    ],
  },
});
