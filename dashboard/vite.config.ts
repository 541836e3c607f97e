// Builds the dashboard (Preact, TypeScript) into dist/dashboard, which the service serves at /.
// Everything is bundled and self-hosted: no CDN, no request leaves the machine.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // sanitize-html needs postcss only for style attributes, which the Markdown preview never allows.
  resolve: { alias: { postcss: fileURLToPath(new URL('./postcss-unused.ts', import.meta.url)) } },
  build: {
    outDir: '../dist/dashboard',
    emptyOutDir: true,
    // One small app: a single script and stylesheet, no inline code (the pages' CSP forbids it).
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 300,
    reportCompressedSize: false,
  },
});
