import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compressAssets, summary } from './scripts/compress-assets';

// The API server's port in development (npm run dev starts both with the same environment).
const backend = `http://localhost:${process.env.PORT ?? 3000}`;

/** After the client is written, a .br and a .gz beside each compressible file (scripts/compress-assets.ts). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'signalements-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      this.info(summary(await compressAssets(outDir)));
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  // The server serves the built SPA under /admin (spec §2, BASE_PATH).
  base: '/admin/',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // dist/web/.vite/manifest.json: the chunks each screen loads, read by scripts/bundle-budget.ts.
    manifest: true,
    rolldownOptions: {
      output: {
        // zod and the module that sets it jitless in one chunk, evaluated before any chunk that builds a
        // schema: a chunk merging zod with shared schemas built objects (and probed eval, refused by the CSP)
        // before web/lib/zod-jitless.ts could run.
        advancedChunks: {
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
