// The server bundle: the storefront's pages for the server's embedded script engine
// (QuickJS). One self-contained script, no imports, that defines `FerroshopServer`;
// the server loads it once per engine and calls `load()` for the renderer.
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { preactAliases } from './vite.preact.ts';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }, ...preactAliases],
  },
  ssr: { noExternal: true, target: 'webworker' },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    ssr: 'src/entry-server.tsx',
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    copyPublicDir: false,
    rolldownOptions: {
      output: { format: 'iife', name: 'FerroshopServer', entryFileNames: 'server.js' },
    },
  },
});
