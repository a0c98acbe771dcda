// Every test file of both Vitest configurations ends by putting back what its tests stubbed or replaced.
// Vitest's own unstubGlobals/unstubEnvs put them back before each test, not after the last one: in a
// worker that runs its files in one process (isolate: false), a stub set by a file's last test would
// otherwise still hold while the next file imports its modules and runs its beforeAll.
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
