import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chunkSizes, LARGE_CHUNKS, precompress, serviceWorker } from './scripts/vite-plugins.ts';

// The API server's port in development (npm run dev starts both with the same environment).
const backend = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  // The server serves the built SPA under /admin (spec §2, BASE_PATH).
  base: '/admin/',
  plugins: [
    react(),
    tailwindcss(),
    chunkSizes(),
    // dist/web/sw.js, the installable app's service worker (docs/decisions/0049-installable-offline-shell.md).
    serviceWorker(fileURLToPath(new URL('./web/sw/sw.ts', import.meta.url))),
    precompress(),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // dist/web/.vite/manifest.json: the chunks each screen loads, read by scripts/bundle-budget.ts.
    manifest: true,
    // The 500 kB line is held by chunkSizes() (scripts/vite-plugins.ts), file by file, with the deliberate
    // exceptions and their reasons; Vite's own check, one limit for every chunk, only above the largest of them.
    chunkSizeWarningLimit: Math.max(...LARGE_CHUNKS.map((chunk) => chunk.maxBytes)) / 1000,
    rolldownOptions: {
      // Rolldown's [PLUGIN_TIMINGS] notice reports how long plugins took: on a loaded 2-core CI machine the
      // precompression plugin passes its threshold, and a timing is not a defect of the build (timings are
      // measured by benchmarks, never judged in the build). Other rolldown notices stay, and build:check fails on them.
      checks: { bundlerTimings: false },
      output: {
        // zod and the module that sets it jitless in one chunk, evaluated before any chunk that builds a
        // schema: a chunk merging zod with shared schemas built objects (and probed eval, refused by the CSP)
        // before web/lib/zod-jitless.ts could run.
        codeSplitting: {
          groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|web[\\/]lib[\\/]zod-jitless/ }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/trpc': backend,
      '/api': backend,
    },
  },
});
