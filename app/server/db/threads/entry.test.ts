// Where a thread's module is taken from (entry.ts): the tests' bundle when the run made one of that name
// (tests/server-bundle.ts), else the TypeScript source through tsx, as `npm run dev` runs it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startThread, threadEntry } from './entry';

const ECHO = new URL('./fixtures/echo-thread.ts', import.meta.url);
const bundles = process.env.SERVER_BUNDLE_DIR;

describe('thread entries from the sources', () => {
  afterEach(() => {
    if (bundles === undefined) delete process.env.SERVER_BUNDLE_DIR;
    else process.env.SERVER_BUNDLE_DIR = bundles;
  });

  it('takes the bundle of that name when the test run bundled one, else runs the source through tsx', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-entry-'));
    try {
      writeFileSync(join(dir, 'echo-thread.mjs'), '');
      process.env.SERVER_BUNDLE_DIR = dir;
      expect(threadEntry(ECHO)).toEqual({ url: pathToFileURL(join(dir, 'echo-thread.mjs')), argv: [] });
      // A module the bundle does not hold, or no bundle at all: the source, through tsx.
      const other = new URL('./fixtures/other-thread.ts', import.meta.url);
      expect(threadEntry(other)).toEqual({
        url: new URL('./tsx-entry.mjs', import.meta.url),
        argv: [other.href],
      });
      delete process.env.SERVER_BUNDLE_DIR;
      expect(threadEntry(ECHO).argv).toEqual([ECHO.href]);
      // A plain module runs as it is.
      const plain = new URL('./reader-thread.mjs', import.meta.url);
      expect(threadEntry(plain)).toEqual({ url: plain, argv: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs a TypeScript thread through tsx (npm run dev)', async () => {
    delete process.env.SERVER_BUNDLE_DIR;
    const thread = startThread(threadEntry(ECHO));
    try {
      const answer = new Promise((resolve, reject) => {
        thread.once('message', resolve);
        thread.once('error', reject);
      });
      thread.postMessage('bonjour');
      // tsx's loader names the module with a query of its own.
      expect(await answer).toEqual({
        echo: 'bonjour',
        module: expect.stringMatching(new RegExp(`^${ECHO.href}\\?`)),
      });
    } finally {
      await thread.terminate();
    }
  });
});
