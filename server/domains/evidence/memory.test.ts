// Uploading and downloading a 20 MB evidence file stays under 100 MB of extra memory, on both engines
// (docs/decisions/0033-evidence-files.md): a budget, never a time. The figure is the process's resident
// memory growth (client included), so the server's own is below it.
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { measureEvidenceMemory } from '#tests/helpers/evidence-memory';

const BUDGET = 100_000_000;

describe.each(await testEngines())('memory of a 20 MB evidence file on %s', (engine) => {
  it('uploads and downloads it, streamed, under 100 MB of extra memory', async () => {
    const m = await measureEvidenceMemory(engine, 20_000_000);
    expect(m.uploadExtra).toBeLessThan(BUDGET);
    expect(m.downloadExtra).toBeLessThan(BUDGET);
  }, 120_000);
});
