import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createAppContext } from '../context';
import { seed } from '../db/seed/index';
import { createUser } from '../domains/utilisateurs/service';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { maskDriverMessage, serializeError } from './log-serializers';

const SECRET_NAME = 'Rakoto-SECRET-42';
const SECRET_CONTACT = 'rakoto.secret@example.mg';
const PASSWORD = 'mot-de-passe-de-test-42';

describe.each(await testEngines())('database errors in the logs (%s)', (engine) => {
  let tdb: TestDatabase;
  let app: FastifyInstance;
  let headers: Record<string, string>;
  let report: string;
  const lines: string[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    await seed(tdb.db);
    await createUser(tdb.db, {
      email: 'agent-logs@example.mg',
      nomPrenom: 'Agent',
      roleCode: 'ROLE_USER',
      password: PASSWORD,
    });
    // A constraint the services do not expect: the second victim of that name fails in the database
    // with the name in the query's parameters (and, on PostgreSQL, in the error's detail).
    await tdb.db.execute(sql`CREATE UNIQUE INDEX victimes_nom_prenom_test ON victimes (nom_prenom)`);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildApp({
      ctx: createAppContext(loadConfig({ LOG_LEVEL: 'info', DATABASE_URL: tdb.url }), {
        db: tdb.db,
        cipher: tdb.cipher,
      }),
      logStream: stream,
    });
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'agent-logs@example.mg', password: PASSWORD },
    });
    headers = {
      cookie: `session=${login.cookies.find((c) => c.name === 'session')!.value}`,
      'sec-fetch-site': 'same-origin',
    };
    const created = await app.inject({
      method: 'POST',
      url: '/api/signalements',
      headers,
      payload: {
        partenaire: 'IVY',
        subjects: ['CORRUPTION'],
        canalPrincipal: 'TELEPHONE',
        signalementAt: '2025-03-10',
      },
    });
    report = created.json().code;
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.drop();
  });

  const victim = { nomPrenom: SECRET_NAME, contact: SECRET_CONTACT };
  type Logged = {
    level: number;
    msg: string;
    err: { type: string; message: string; stack: string; sql?: string; driver?: unknown };
  };
  const errorLines = () => lines.map((l) => JSON.parse(l) as Logged).filter((l) => l.level >= 50);

  it('logs a failed query of the REST facade and of tRPC with its SQL, its driver code, and none of its values', async () => {
    const first = await app.inject({
      method: 'POST',
      url: '/api/victimes',
      headers,
      payload: { signalement: report, ...victim },
    });
    expect(first.statusCode, first.body).toBe(201);

    const rest = await app.inject({
      method: 'POST',
      url: '/api/victimes',
      headers,
      payload: { signalement: report, ...victim },
    });
    expect(rest.statusCode).toBe(500);
    const trpc = await app.inject({
      method: 'POST',
      url: '/trpc/victimes.create',
      headers,
      payload: { signalement: report, ...victim },
    });
    expect(trpc.statusCode).toBe(500);

    const logged = errorLines();
    expect(logged.map((l) => l.msg)).toEqual(['request failed', 'tRPC procedure failed']);
    for (const { err } of logged) {
      if (engine === 'postgres') {
        // node-postgres errors come wrapped by Drizzle, with the query and its parameters.
        expect(err.type).toBe('DrizzleQueryError');
        expect(err.sql).toMatch(/^insert into "victimes"/);
        expect(err.message).toBe(`Failed query: ${err.sql}`);
        expect(err.driver).toEqual({
          type: 'DatabaseError',
          code: '23505',
          message: 'duplicate key value violates unique constraint "victimes_nom_prenom_test"',
        });
      } else {
        // Drizzle's synchronous better-sqlite3 driver throws SQLite's own error: no query, no values.
        expect(err).toMatchObject({
          type: 'SqliteError',
          code: 'SQLITE_CONSTRAINT_UNIQUE',
          message: 'UNIQUE constraint failed: victimes.nom_prenom',
        });
      }
      expect(err.stack).toMatch(/^\s+at /);
      expect(JSON.stringify(err)).not.toMatch(/detail|params/);
    }
    const all = lines.join('\n');
    expect(all).not.toContain(SECRET_NAME);
    expect(all).not.toContain(SECRET_CONTACT);
  });

  it('serializes the real DrizzleQueryError of a failed query without its parameters', async () => {
    let caught: unknown;
    try {
      await tdb.db.transaction((tx) =>
        tx
          .insert(tdb.db.t.victimes)
          .values({ code: 'V-LOG', signalementId: 999_999, nomPrenom: `${SECRET_NAME} bis` }),
      );
    } catch (error) {
      caught = error;
    }
    const serialized = JSON.stringify(serializeError(caught));
    if (engine === 'postgres') {
      // The unserialized error does carry the values: the test would fail without the serializer.
      expect(String((caught as Error).message)).toContain(SECRET_NAME);
      expect(serialized).toContain('insert into \\"victimes\\"');
      expect(serialized).toContain('23503');
    } else {
      expect(serialized).toContain('SQLITE_CONSTRAINT_FOREIGNKEY');
    }
    expect(serialized).not.toContain(SECRET_NAME);
    expect(serialized).not.toContain('V-LOG');
    expect(serialized).not.toContain('999999');
  });
});

describe('maskDriverMessage', () => {
  it('removes the values PostgreSQL names in detail and quoted literals, keeps identifiers', () => {
    expect(
      maskDriverMessage(
        'duplicate key value violates unique constraint "utilisateurs_email_unique"',
        'Key (email)=(rakoto@example.mg) already exists.',
      ),
    ).toBe('duplicate key value violates unique constraint "utilisateurs_email_unique"');
    expect(maskDriverMessage('invalid input syntax for type integer: "Rakoto-SECRET-42"')).toBe(
      'invalid input syntax for type integer: "***"',
    );
    expect(maskDriverMessage('value "99999999999" is out of range for type integer')).toBe(
      'value "***" is out of range for type integer',
    );
    expect(
      maskDriverMessage(
        'custom failure for Rakoto-SECRET-42',
        'Failing row contains (7, Rakoto-SECRET-42, null).',
      ),
    ).toBe('custom failure for ***');
    expect(
      maskDriverMessage(
        'null value in column "nom_prenom" of relation "victimes" violates not-null constraint',
      ),
    ).toBe('null value in column "nom_prenom" of relation "victimes" violates not-null constraint');
  });

  it('leaves other errors as pino would log them: type, message with causes, stack, own fields', () => {
    const error = Object.assign(new Error('outer', { cause: new Error('inner') }), { statusCode: 418 });
    const serialized = serializeError(error) as Record<string, unknown>;
    expect(serialized).toMatchObject({ type: 'Error', message: 'outer: inner', statusCode: 418 });
    expect(serialized.stack).toContain('caused by: Error: inner');
    expect(serializeError('not an error')).toBe('not an error');
  });
});
