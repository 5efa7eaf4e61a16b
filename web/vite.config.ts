// Build, dev server and unit-test configuration for the storefront.
// In development the shop's API calls are proxied to the Rust server so the app
// runs same-origin, exactly as it does when the server serves web/dist.
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const server = process.env.FERROSHOP_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/wp-json': server,
      '/media': server,
      // Classic shop calls: any path with a wc-ajax query parameter.
      '^/[^?]*\\?(?:.*&)?wc-ajax=': server,
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Libraries change less often than the shop's code: one long-cached chunk.
        codeSplitting: { groups: [{ name: 'vendor', test: /[\\/]node_modules[\\/]/ }] },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
