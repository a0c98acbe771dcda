// Uploading and downloading a 20 MB evidence file stays under 100 MB of extra memory, on both engines
// (docs/decisions/0033-evidence-files.md): a budget, never a time. The figure is the growth of the memory the
// process's JavaScript holds (client included, garbage collected before each sample), so the server's own
// is below it; an upload that is streamed holds far less than the file, one that buffers it holds all of it.
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { measureEvidenceMemory } from '#tests/helpers/evidence-memory';

const BUDGET = 100_000_000;

describe.each(await testEngines())('memory of a 20 MB evidence file on %s', (engine) => {
  it('uploads and downloads it, streamed, under 100 MB of extra memory', async () => {
    const m = await measureEvidenceMemory(engine, 20_000_000);
    console.info(
      `pièce de 20 Mo (${engine}) : envoi +${(m.uploadExtra / 1e6).toFixed(1)} Mo, lecture +${(m.downloadExtra / 1e6).toFixed(1)} Mo`,
    );
    expect(m.uploadExtra).toBeLessThan(BUDGET);
    // Streamed: at most a few blocks at a time (read whole, the file alone added 22 MB here).
    expect(m.uploadExtra).toBeLessThan(m.bytes / 2);
    expect(m.downloadExtra).toBeLessThan(BUDGET);
  }, 120_000);
});
