// The database of a read-only thread (read tasks, exports): it has no member that writes, and its
// connections refuse a write that reaches them anyway (SQLite's query_only, PostgreSQL's
// default_transaction_read_only), while reads answer as on the server's database.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { openReadOnlyDatabase, type ReadOnlyDatabase } from '../client';

/** The engine's own words for a refused write (Drizzle wraps them in its query error). */
async function refusal(write: Promise<unknown>): Promise<string> {
  const error = await write.then(
    () => null,
    (e: unknown) => e as Error & { cause?: Error },
  );
  return error ? `${error.message} ${error.cause?.message ?? ''}` : 'accepted';
}

describe.each(await testEngines())('read-only database on %s', (engine) => {
  let tdb: TestDatabase;
  let db: ReadOnlyDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    db = openReadOnlyDatabase(tdb.url);
  });
  afterAll(async () => {
    await db?.close();
    await tdb?.drop();
  });

  it('reads, has no writing member, and its connections refuse a write', async () => {
    const [row] = await db.rows<{ one: number }>(sql`select 1 as one`);
    expect(Number(row!.one)).toBe(1);
    expect(Object.keys(db).sort()).not.toContain('transaction');
    expect(Object.keys(db)).not.toContain('execute');
    expect(await refusal(db.rows(sql`delete from canals returning id`))).toMatch(/read.only|readonly/i);
    expect(await refusal(db.read.delete(db.t.canals))).toMatch(/read.only|readonly/i);
  });
});
