// Builds renderer/ into dist/renderer with relative asset paths, so the same files load from
// `weir serve` (http) and from Electron (app://). It runs in Node at build time, so it lives with
// the build scripts rather than in renderer/, which never imports Node built-ins.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('../renderer/', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    sourcemap: false,
  },
});
