// /api/health and /metrics (README « Health and metrics »): the outbox's backlog and the age of its oldest
// message in both; Prometheus text with request counts and durations by route pattern or procedure, the
// outbox and the database connections, readable with METRICS_TOKEN only.
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { createTestApp } from '#tests/helpers/app';
import { serverSuite } from '#tests/helpers/suite';
import { insertFailedMail, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';

const TOKEN = 'jeton-de-mesure-0123456789';

describe.each(await testEngines())('health and metrics on %s', (engine) => {
  const { app: t, admin } = serverSuite(engine, { env: { METRICS_TOKEN: TOKEN } });

  const metrics = (authorization?: string, cookie?: string) =>
    t.app.inject({
      url: '/metrics',
      headers: { ...(authorization ? { authorization } : {}), ...(cookie ? { cookie } : {}) },
    });

  it('opens /metrics to its token only: not anonymously, not with a wrong token, not with an administrator’s session', async () => {
    for (const res of [
      await metrics(),
      await metrics(`Bearer ${TOKEN}x`),
      await metrics(`Basic ${TOKEN}`),
      await metrics(undefined, admin.cookie),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Authentification requise.');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    expect((await metrics(`Bearer ${TOKEN}`)).statusCode).toBe(200);
  });

  it('counts requests by route pattern and tRPC procedure, never by a URL with its ids or search', async () => {
    const code = await createReport(t, admin.cookie);
    expect(
      (await t.app.inject({ url: `/api/signalements/${code}`, headers: { cookie: admin.cookie } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: '/api/signalements?search=Rakoto', headers: { cookie: admin.cookie } }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          url: `/trpc/signalements.get?input=${encodeURIComponent(JSON.stringify({ code }))}`,
          headers: { cookie: admin.cookie, ...SAME_ORIGIN },
        })
      ).statusCode,
    ).toBe(200);
    const res = await metrics(`Bearer ${TOKEN}`);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toContain(
      'http_requests_total{method="GET",route="/api/signalements/:code",status="200"} 1',
    );
    expect(text).toContain('http_requests_total{method="GET",route="/api/signalements",status="200"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/trpc/signalements.get",status="200"} 1');
    expect(text).toContain('http_requests_total{method="POST",route="/api/signalements",status="201"} 1');
    // Durations by bucket: the bucket series exist and the one request is counted in +Inf; which finite
    // bucket holds it depends on the machine's load, so the test does not assert it (CI failed on it).
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.15",method="GET",route="\/api\/signalements",status="200"\} [01]$/m,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/signalements",status="200"\} 1$/m,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/signalements",status="200"\} 1$/m,
    );
    expect(text).toContain('trpc_calls_total{procedure="signalements.get"} 1');
    expect(text).not.toContain(code);
    expect(text).not.toContain('Rakoto');
    expect(text).toMatch(/^db_pool_connections\{state="idle"\} \d+$/m);
    expect(text).toMatch(/^db_up 1$/m);
    // Process figures (event loop, memory) from prom-client's defaults.
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('labels a tRPC batch as one fixed route, so nobody can create series by ordering and repeating names', async () => {
    const batches = [
      'auth.session,auth.session',
      'auth.session,auth.session,auth.session',
      'auth.session,signalements.list',
      'signalements.list,auth.session',
    ];
    for (const path of batches) await t.app.inject({ url: `/trpc/${path}?batch=1&input={}` });
    await t.app.inject({
      url: `/trpc/${Array.from({ length: 40 }, () => 'auth.session').join(',')}?batch=1&input={}`,
    });
    const text = (await metrics(`Bearer ${TOKEN}`)).body;
    const routes = new Set(
      [...text.matchAll(/^http_requests_total\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]),
    );
    expect([...routes].filter((r) => r!.startsWith('/trpc'))).toEqual(
      expect.arrayContaining(['/trpc (lot)', '/trpc/inconnue']),
    );
    expect([...routes].some((r) => r!.includes(','))).toBe(false);
    // Each procedure of a batch is still counted, under its own name.
    expect(text).toMatch(/^trpc_calls_total\{procedure="auth\.session"\} (\d+)$/m);
    expect(Number(/^trpc_calls_total\{procedure="auth\.session"\} (\d+)$/m.exec(text)![1])).toBe(7);
  });

  it('reports the outbox backlog and the age of its oldest pending message, in /api/health and /metrics', async () => {
    const o = t.db.t.mailOutbox;
    await insertFailedMail(t);
    await t.db.transaction((tx) =>
      tx.insert(o).values([
        {
          kind: 'password-reset',
          to: 'a@example.mg',
          subject: 'S',
          text: 'T',
          nextAttemptAt: new Date(),
          createdAt: new Date(Date.now() - 300_000),
        },
        { kind: 'password-reset', to: 'b@example.mg', subject: 'S', text: 'T', nextAttemptAt: new Date() },
      ]),
    );
    const health = await t.app.inject({ url: '/api/health', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(health.statusCode).toBe(200);
    const body = health.json();
    expect(body).toMatchObject({ status: 'ok', database: 'ok', mail: { pending: 2, failed: 1 } });
    expect(body.mail.oldestPendingSeconds).toBeGreaterThanOrEqual(299);
    expect(body.mail.oldestPendingSeconds).toBeLessThan(3600);
    expect(JSON.stringify(body)).not.toContain('example.mg');

    const text = (await metrics(`Bearer ${TOKEN}`)).body;
    expect(text).toMatch(/^mail_outbox_pending 2$/m);
    expect(text).toMatch(/^mail_outbox_failed 1$/m);
    const age = Number(/^mail_outbox_oldest_pending_seconds (\d+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(299);
  });

  it('reports the read gate: reads served and waiting, writes being handled', async () => {
    const text = async () => (await metrics(`Bearer ${TOKEN}`)).body;
    // /metrics itself never takes a place.
    expect(await text()).toContain('http_reads{state="running"} 0');
    const gate = t.app.readGate;
    const held = Array.from({ length: gate.limit + 2 }, () => gate.enter());
    const writeDone = gate.write();
    const body = await text();
    expect(body).toContain(`http_reads{state="running"} ${gate.limit}`);
    expect(body).toContain('http_reads{state="waiting"} 2');
    expect(body).toContain('http_writes_handled 1');
    writeDone();
    held.forEach((ticket) => ticket.release());
    expect(await text()).toContain('http_reads{state="waiting"} 0');
  });

  it('without METRICS_TOKEN, /metrics does not exist', async () => {
    const other = await createTestApp(engine);
    try {
      const res = await other.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
