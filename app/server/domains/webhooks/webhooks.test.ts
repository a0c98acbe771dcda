// Signed webhooks end to end (docs/decisions/0039-signed-webhooks.md), on both engines: a receiver on
// loopback checks every signature with its own implementation of Standard Webhooks, a report's statut,
// résultat or niveau changed by a single edit or a bulk action reaches it, a 500 is retried, the last
// failure becomes a dead letter that an administrator sends again, and a report's events stay in order.
// The secret is stored encrypted (bound to its column and endpoint); its renewal is in webhooks-secret.test.ts.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { rawCopy } from '#tests/helpers/raw-copy';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { isEncrypted } from '#server/crypto/cipher';
import { WEBHOOK_MESSAGES } from '#shared/schemas/webhooks';
import { webhookRetryDelayMs } from './delivery';
import { purgeDeliveredWebhooks } from './worker';
import { verifyStandardWebhook, webhookSuite } from './webhooks.harness';

describe.each(await testEngines())('signed webhooks on %s', (engine) => {
  const {
    t,
    admin,
    receiver,
    logged,
    worker,
    workers,
    trpc,
    query,
    register,
    setStatut,
    deliveries,
    pass,
    endpointRow,
    payloadOf,
  } = webhookSuite(engine);

  it('refuses an address that is not HTTPS, or HTTP other than to loopback, with a French message', async () => {
    const refused: Array<[string, string]> = [
      ['http://partenaire.example.mg/hook', WEBHOOK_MESSAGES.urlHttpNotLoopback],
      ['http://localhost:8080/hook', WEBHOOK_MESSAGES.urlHttpNotLoopback],
      ['http://10.0.0.1/hook', WEBHOOK_MESSAGES.urlHttpNotLoopback],
      ['ftp://partenaire.example.mg/hook', WEBHOOK_MESSAGES.urlScheme],
      ['pas une adresse', WEBHOOK_MESSAGES.urlInvalid],
      ['https://moi:secret@partenaire.example.mg/hook', WEBHOOK_MESSAGES.urlCredentials],
      ['', WEBHOOK_MESSAGES.urlRequired],
    ];
    for (const [url, message] of refused) {
      const res = await trpc('webhooks.createEndpoint', { partenaire: 'IVY', url });
      expect(res.status, url).toBe(400);
      expect(JSON.stringify(res.body), url).toContain(message);
    }
    const unknown = await trpc('webhooks.createEndpoint', {
      partenaire: 'NOPE',
      url: 'https://x.example.mg/',
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('Partenaire introuvable : NOPE.');
    for (const url of [
      'https://partenaire.example.mg/hook',
      'http://127.0.0.2:9/hook',
      'http://[::1]:9/hook',
    ]) {
      const { secret } = await register(url);
      // whsec_ and 32 random bytes in base64, shown once: the list never carries it.
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
      expect(JSON.stringify(await query('webhooks.endpoints', undefined))).not.toContain(secret);
    }
  });

  it('POSTs a signed event with codes and statuses only when a report changes statut, résultat or niveau', async () => {
    const { secret } = await register();
    worker();
    const code = await createReport(t, admin.cookie, { description: 'Texte confidentiel du signalement' });
    expect(
      (await trpc('auteurs.create', { signalement: code, nomPrenom: 'Rakotomalala Présumé' })).status,
    ).toBe(200);
    expect((await trpc('sources.create', { signalement: code, nomPrenom: 'Rasoanaivo Source' })).status).toBe(
      200,
    );
    // A change of another field is no event.
    expect(
      (await mergePatch(t, admin.cookie, `/api/signalements/${code}`, { description: 'Autre texte' }))
        .statusCode,
    ).toBe(200);
    await setStatut(code, 'EN_COURS');
    expect(
      (
        await trpc('signalements.update', {
          code,
          patch: { niveau: 'ELEVE', resultat: 'RESULTAT_AVERE' },
        })
      ).status,
    ).toBe(200);
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    const [first, second] = receiver.received;
    for (const request of receiver.received) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(verifyStandardWebhook(secret, request.headers, request.body)).toBe(true);
      // A changed byte, or another secret, fails the check: the check is real.
      expect(verifyStandardWebhook(secret, request.headers, `${request.body} `)).toBe(false);
      expect(
        verifyStandardWebhook(`whsec_${Buffer.alloc(32).toString('base64')}`, request.headers, request.body),
      ).toBe(false);
      for (const text of [
        'confidentiel',
        'Autre texte',
        'Rakotomalala',
        'Rasoanaivo',
        'Rasoa Admin',
        admin.email,
      ])
        expect(request.body).not.toContain(text);
    }
    expect(JSON.parse(first!.body)).toEqual({
      type: 'signalement.modifie',
      timestamp: expect.any(String),
      data: {
        signalement: code,
        partenaire: 'IVY',
        changements: { statut: { avant: null, apres: 'EN_COURS' } },
      },
    });
    expect(payloadOf(second!).data).toEqual({
      signalement: code,
      partenaire: 'IVY',
      changements: {
        niveau: { avant: null, apres: 'ELEVE' },
        resultat: { avant: null, apres: 'RESULTAT_AVERE' },
      },
    });
    await expect
      .poll(async () => (await deliveries()).map((d) => d.status), { timeout: 5000 })
      .toEqual(['delivered', 'delivered']);
    const rows = await deliveries();
    expect(rows.map((d) => d.eventId)).toEqual(receiver.received.map((r) => r.headers['webhook-id']));
    // The worker logged each delivery, never the secret nor the signature.
    expect(logged.filter((entry) => entry === 'webhook livré')).toHaveLength(2);
    const logText = JSON.stringify(logged);
    expect(logText).not.toContain(secret.slice('whsec_'.length));
    for (const request of receiver.received)
      expect(logText).not.toContain(String(request.headers['webhook-signature']).slice(3));
    expect(rows.every((d) => d.attempts === 1 && d.lastStatus === 204)).toBe(true);
  });

  it('queues one event per changed report of a bulk action, in its transaction, and none for a refused change', async () => {
    await register();
    const codes = [await createReport(t, admin.cookie), await createReport(t, admin.cookie)];
    await setStatut(codes[0]!, 'EN_COURS');
    const before = (await deliveries()).length;
    // A refused patch (unknown niveau) rolls back with its event.
    expect((await trpc('signalements.update', { code: codes[1], patch: { niveau: 'INCONNU' } })).status).toBe(
      400,
    );
    expect(await deliveries()).toHaveLength(before);
    const bulk = await trpc('signalements.bulk', { codes, action: { type: 'statut', statut: 'EN_COURS' } });
    expect(bulk.status).toBe(200);
    expect(bulk.body.result.data.modifies).toBe(1);
    const niveau = await trpc('signalements.bulk', { codes, action: { type: 'niveau', niveau: 'CRITIQUE' } });
    expect(niveau.body.result.data.modifies).toBe(2);
    worker();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(4);
    const changes = receiver.received.map((r) => payloadOf(r).data);
    expect(changes.slice(1)).toEqual([
      {
        signalement: codes[1],
        partenaire: 'IVY',
        changements: { statut: { avant: null, apres: 'EN_COURS' } },
      },
      {
        signalement: codes[0],
        partenaire: 'IVY',
        changements: { niveau: { avant: null, apres: 'CRITIQUE' } },
      },
      {
        signalement: codes[1],
        partenaire: 'IVY',
        changements: { niveau: { avant: null, apres: 'CRITIQUE' } },
      },
    ]);
  });

  it('retries after a 500 with the same id, and records the delivery once the receiver accepts it', async () => {
    const { secret } = await register();
    let failures = 2;
    receiver.answerWith(() => (failures-- > 0 ? { status: 500, body: 'indisponible' } : { status: 200 }));
    worker(5);
    const code = await createReport(t, admin.cookie);
    await setStatut(code, 'EN_ENQUETE');
    await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 10_000 }).toBe('delivered');
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received.every((r) => verifyStandardWebhook(secret, r.headers, r.body))).toBe(true);
    expect(await deliveries()).toMatchObject([{ attempts: 3, lastStatus: 200, lastError: null }]);
  });

  it('makes a dead letter of the last failure, holds the report’s later events behind it, and sends both again on « Relancer »', async () => {
    await register();
    receiver.answerWith(() => ({ status: 500, body: 'x'.repeat(5000) }));
    const w = worker(3);
    const code = await createReport(t, admin.cookie);
    const other = await createReport(t, admin.cookie);
    await setStatut(code, 'EN_COURS');
    await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 10_000 }).toBe('dead');
    await w.stop();
    expect(receiver.received).toHaveLength(3);
    const [dead] = await deliveries();
    expect(dead).toMatchObject({ attempts: 3, lastStatus: 500, lastError: 'Réponse HTTP 500.' });
    // Only a short excerpt of the answer is kept.
    expect(dead!.lastResponse!.length).toBeLessThanOrEqual(200);

    // A later event of the same report waits behind the dead letter; another report's goes.
    receiver.answerWith(() => ({ status: 204 }));
    await setStatut(code, 'TRAITE');
    await setStatut(other, 'EN_COURS');
    expect(await pass()).toBe(1);
    expect(await pass()).toBe(0);
    expect(payloadOf(receiver.received.at(-1)!).data.signalement).toBe(other);
    expect((await deliveries()).map((d) => d.status)).toEqual(['dead', 'pending', 'delivered']);

    const listed = await query('webhooks.deliveries', { state: 'dead' });
    expect(listed).toMatchObject([
      { id: dead!.id, signalement: code, state: 'dead', attempts: 3, lastStatus: 500 },
    ]);
    expect((await trpc('webhooks.retryDelivery', { id: dead!.id })).status).toBe(200);
    // Only a dead letter is sent again.
    expect((await trpc('webhooks.retryDelivery', { id: dead!.id })).status).toBe(404);
    expect(await pass()).toBe(1);
    expect(await pass()).toBe(1);
    const last = receiver.received.slice(-2).map((r) => payloadOf(r).data.changements);
    expect(last).toEqual([
      { statut: { avant: null, apres: 'EN_COURS' } },
      { statut: { avant: 'EN_COURS', apres: 'TRAITE' } },
    ]);
    expect((await deliveries()).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('keeps each report’s events in order through retries, while another report’s go on', async () => {
    await register();
    const [a, b] = [await createReport(t, admin.cookie), await createReport(t, admin.cookie)];
    let failFirstOfA = 2;
    receiver.answerWith((r) => {
      const data = payloadOf(r).data;
      return data.signalement === a && failFirstOfA-- > 0 ? { status: 503 } : { status: 204 };
    });
    await setStatut(a, 'EN_COURS');
    await setStatut(a, 'EN_ENQUETE');
    await setStatut(b, 'EN_COURS');
    await setStatut(a, 'TRAITE');
    worker(5);
    await expect
      .poll(async () => (await deliveries()).every((d) => d.status === 'delivered'), { timeout: 10_000 })
      .toBe(true);
    const ofA = receiver.received
      .filter((r) => payloadOf(r).data.signalement === a)
      .map((r) => (payloadOf(r).data.changements as { statut: { apres: string } }).statut.apres);
    expect(ofA).toEqual(['EN_COURS', 'EN_COURS', 'EN_COURS', 'EN_ENQUETE', 'TRAITE']);
    expect(receiver.received.filter((r) => payloadOf(r).data.signalement === b)).toHaveLength(1);
  });

  it('follows no redirect, and never calls an HTTP address that is not loopback even when stored', async () => {
    await register();
    receiver.answerWith((r) =>
      r.path === '/webhooks' ? { status: 302, headers: { location: '/ailleurs' } } : { status: 204 },
    );
    const code = await createReport(t, admin.cookie);
    await setStatut(code, 'EN_COURS');
    worker(1);
    await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 10_000 }).toBe('dead');
    expect(receiver.received.map((r) => r.path)).toEqual(['/webhooks']);
    expect((await deliveries())[0]).toMatchObject({ lastStatus: 302 });

    // An address written around the registration's check (here straight into the table) is refused again.
    const e = t.db.t.webhookEndpoints;
    await t.db.transaction((tx) => tx.update(e).set({ url: 'http://192.0.2.1/hook' }));
    await setStatut(await createReport(t, admin.cookie), 'TRAITE');
    await expect
      .poll(async () => (await deliveries())[1]?.lastError, { timeout: 10_000 })
      .toMatch(/HTTPS obligatoire/);
  });

  it('delivers each event exactly once with two workers on one outbox, and purges old deliveries', async () => {
    await register();
    const codes = [await createReport(t, admin.cookie), await createReport(t, admin.cookie)];
    for (const statut of ['EN_COURS', 'EN_ENQUETE', 'TRAITE'])
      for (const code of codes) await setStatut(code, statut);
    worker();
    worker();
    await expect
      .poll(async () => (await deliveries()).filter((d) => d.status === 'delivered').length, {
        timeout: 10_000,
      })
      .toBe(6);
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(6);
    for (const code of codes) {
      const order = receiver.received
        .filter((r) => payloadOf(r).data.signalement === code)
        .map((r) => (payloadOf(r).data.changements as { statut: { apres: string } }).statut.apres);
      expect(order).toEqual(['EN_COURS', 'EN_ENQUETE', 'TRAITE']);
    }
    expect(await purgeDeliveredWebhooks(t.db, new Date(Date.now() - 60_000))).toBe(0);
    expect(await purgeDeliveredWebhooks(t.db, new Date(Date.now() + 60_000))).toBe(6);
  });

  it('stores the secret encrypted and bound to its endpoint: no copy of the database holds it', async () => {
    const { id, secret } = await register();
    const other = await register(receiver.url('/autre'));
    const stored = await endpointRow(id);
    expect(isEncrypted(stored.secret)).toBe(true);
    expect(stored.secret).not.toContain(secret.slice('whsec_'.length));
    const raw = await rawCopy(t);
    expect(raw).toContain(receiver.url('/autre'));
    for (const s of [secret, other.secret]) {
      expect(raw).not.toContain(s.slice('whsec_'.length));
      expect(raw).not.toContain(Buffer.from(s.slice('whsec_'.length), 'base64').toString('hex'));
    }
    // The signing works from the sealed value.
    const code = await createReport(t, admin.cookie);
    await setStatut(code, 'EN_COURS');
    expect(await pass()).toBe(2);
    expect(receiver.received).toHaveLength(2);
    for (const r of receiver.received)
      expect(verifyStandardWebhook(r.path === '/autre' ? other.secret : secret, r.headers, r.body)).toBe(
        true,
      );
    // A sealed secret moved onto another endpoint does not open there: nothing is sent, the reason is kept.
    const e = t.db.t.webhookEndpoints;
    await t.db.transaction((tx) => tx.update(e).set({ secret: stored.secret }).where(eq(e.id, other.id)));
    await setStatut(code, 'TRAITE');
    expect(await pass()).toBe(2);
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]!.path).toBe('/webhooks');
    const refused = (await deliveries()).find((d) => d.endpointId === other.id && d.status === 'pending');
    expect(refused?.lastError).toMatch(/^Secret de signature illisible/);
    expect(JSON.stringify(logged)).not.toContain(secret.slice('whsec_'.length));
  });

  it('waits longer after each failure, with jitter, up to the cap', () => {
    const policy = { retryBaseMs: 1000, retryMaxMs: 8000 };
    expect(webhookRetryDelayMs(1, { ...policy, random: () => 0 })).toBe(500);
    expect(webhookRetryDelayMs(1, { ...policy, random: () => 0.5 })).toBe(750);
    expect(webhookRetryDelayMs(3, { ...policy, random: () => 0 })).toBe(2000);
    expect(webhookRetryDelayMs(10, { ...policy, random: () => 1 })).toBe(8000);
  });
});
