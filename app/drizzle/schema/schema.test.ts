// The two engine schemas must describe the same database: same tables, columns, nullability,
// primary keys, uniques, foreign keys and indexes (after homarr's packages/db/test/schema.spec.ts).
import { getTableName, is, Table } from 'drizzle-orm';
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as pg from './pg';
import * as sqlite from './sqlite';

type AnyConfig = ReturnType<typeof pgConfig> | ReturnType<typeof sqliteConfig>;

function describeTable(config: AnyConfig) {
  return {
    name: config.name,
    columns: config.columns
      .map((c) => ({
        name: c.name,
        notNull: c.notNull,
        primary: c.primary,
        unique: c.isUnique,
        hasDefault: c.hasDefault,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    primaryKeys: config.primaryKeys.map((pk) => pk.columns.map((c) => c.name).join(',')).sort(),
    foreignKeys: config.foreignKeys
      .map((fk) => {
        const ref = fk.reference();
        return `${ref.columns.map((c) => c.name).join(',')} -> ${getTableName(ref.foreignTable)}(${ref.foreignColumns
          .map((c) => c.name)
          .join(',')}) on delete ${fk.onDelete ?? 'no action'}`;
      })
      .sort(),
    indexes: config.indexes
      .map(
        (i) =>
          `${i.config.name}${i.config.unique ? ' unique' : ''} (${i.config.columns.map((c) => ('name' in c ? c.name : '?')).join(',')})`,
      )
      .sort(),
  };
}

const tables = <T>(module: Record<string, unknown>) =>
  Object.entries(module).filter(([, value]) => is(value, Table)) as Array<[string, T]>;

describe('schema parity between SQLite and PostgreSQL', () => {
  const sqliteTables = tables<SQLiteTable>(sqlite);
  const pgTables = tables<PgTable>(pg);

  it('exports the same tables under the same names', () => {
    expect(pgTables.map(([name]) => name).sort()).toEqual(sqliteTables.map(([name]) => name).sort());
    expect(sqliteTables.length).toBeGreaterThanOrEqual(20);
  });

  for (const [exportName, sqliteTable] of sqliteTables) {
    it(`declares ${exportName} identically`, () => {
      const pgTable = (pg as unknown as Record<string, PgTable>)[exportName];
      expect(pgTable, `${exportName} missing in pg.ts`).toBeDefined();
      expect(describeTable(pgConfig(pgTable!))).toEqual(describeTable(sqliteConfig(sqliteTable)));
    });
  }

  it('would notice a drift (a column changed on one side)', () => {
    const a = describeTable(sqliteConfig(sqlite.signalements));
    const b = describeTable(pgConfig(pg.signalements));
    b.columns = b.columns.map((c) => (c.name === 'description' ? { ...c, notNull: true } : c));
    expect(b).not.toEqual(a);
  });
});
