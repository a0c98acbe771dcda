// Starts a thread's TypeScript module from the sources (npm run dev, tests) through tsx's API: the module
// is the thread's first argument (entry.ts). The built server starts dist/server/<name>.mjs instead.
import { argv } from 'node:process';
import { tsImport } from 'tsx/esm/api';

await tsImport(argv[2], import.meta.url);
