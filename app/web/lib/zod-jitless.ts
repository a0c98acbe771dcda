// Zod compiles object parsers with `new Function` when it may, and probes for it once: the
// Content-Security-Policy (server/http/security-headers.ts) has no 'unsafe-eval', and the browser reports
// even that guarded probe as a violation. Imported first by main.tsx, before any schema is built.
import { config } from 'zod';

config({ jitless: true });
