// Reading the access log back in tests: its rows as stored, oldest first.
import { asc, eq } from 'drizzle-orm';
import type { AccessLogKind } from '#shared/constants';
import type { TestApp } from './app';

export async function accessLogRows(t: TestApp, kind?: AccessLogKind) {
  const l = t.db.t.accessLog;
  const query = t.db.read.select().from(l).orderBy(asc(l.id));
  return kind ? query.where(eq(l.kind, kind)) : query;
}

export async function userId(t: TestApp, code: string): Promise<number> {
  const u = t.db.t.utilisateurs;
  const [row] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.code, code));
  if (!row) throw new Error(`no user ${code}`);
  return row.id;
}
