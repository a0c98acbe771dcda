// Starts export-worker.ts from the TypeScript sources (npm run dev, tests) through tsx's API; the
// built server starts dist/server/export-worker.mjs instead (export-runner.ts chooses).
import { tsImport } from 'tsx/esm/api';

await tsImport('./export-worker.ts', import.meta.url);
