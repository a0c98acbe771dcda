// Starts read-task-worker.ts from the TypeScript sources (npm run dev, tests) through tsx's API; the
// built server starts dist/server/read-task-worker.mjs instead (read-task-pool.ts chooses).
import { tsImport } from 'tsx/esm/api';

await tsImport('./read-task-worker.ts', import.meta.url);
