import { defineConfig } from 'drizzle-kit';

// One config for both engines: `npm run db:generate` runs drizzle-kit once per dialect.
const dialect = process.env.DRIZZLE_DIALECT === 'postgresql' ? 'postgresql' : 'sqlite';

export default defineConfig(
  dialect === 'postgresql'
    ? {
        dialect: 'postgresql',
        schema: './drizzle/schema/pg.ts',
        out: './drizzle/migrations/pg',
        dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
      }
    : {
        dialect: 'sqlite',
        schema: './drizzle/schema/sqlite.ts',
        out: './drizzle/migrations/sqlite',
        dbCredentials: { url: process.env.DATABASE_URL ?? 'file:./data/signalements.db' },
      },
);
