// What an attacker holding a copy of the database would read: the SQLite file with its WAL, or a
// pg_dump of the PostgreSQL database.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { TestApp } from './app';

export async function rawCopy(t: TestApp): Promise<string> {
  if (t.db.engine === 'sqlite') {
    // Everything committed goes to the main file; the WAL is read too, whatever it still holds.
    await t.db.execute(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
    const path = t.config.DATABASE_URL.replace(/^file:/, '');
    const parts = [path, `${path}-wal`].filter(existsSync).map((p) => readFileSync(p).toString('latin1'));
    return parts.join('\n');
  }
  return execFileSync('/usr/bin/pg_dump', ['--no-owner', t.config.DATABASE_URL], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}
