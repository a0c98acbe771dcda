import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server's port in development (npm run dev starts both with the same environment).
const backend = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  // The server serves the built SPA under /admin (spec §2, BASE_PATH).
  base: '/admin/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/trpc': backend,
      '/api': backend,
    },
  },
});
