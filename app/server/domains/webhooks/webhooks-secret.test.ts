// « Renouveler le secret » of a webhook endpoint (docs/decisions/0039-signed-webhooks.md), on both engines: a
// new secret while the former keeps signing for a grace period (both signatures), then is erased.
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { rawCopy } from '#tests/helpers/raw-copy';
import { createReport } from '#tests/helpers/signalements';
import { isEncrypted } from '#server/crypto/cipher';
import { WEBHOOK_REFUSALS, WEBHOOK_SECRET_GRACE_MS } from './service';
import { verifyStandardWebhook, webhookSuite } from './webhooks.harness';

describe.each(await testEngines())('webhook secret renewal on %s', (engine) => {
  const {
    t,
    admin,
    user,
    receiver,
    logged,
    worker,
    trpc,
    query,
    register,
    setStatut,
    pass,
    endpointRow,
    rotate,
  } = webhookSuite(engine);

  it('« Renouveler le secret »: both secrets sign during the grace period, then only the new one', async () => {
    const { id, secret: first } = await register();
    const before = Date.now();
    const renewed = await rotate(id);
    expect(renewed.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(renewed.secret).not.toBe(first);
    const until = Date.parse(renewed.ancienSecretJusquA!);
    expect(until).toBeGreaterThanOrEqual(before + WEBHOOK_SECRET_GRACE_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + WEBHOOK_SECRET_GRACE_MS);
    // Neither secret is ever shown again; the list tells until when the former one signs.
    const listed = await query('webhooks.endpoints', undefined);
    expect(listed).toMatchObject([{ id, ancienSecretJusquA: renewed.ancienSecretJusquA }]);
    for (const s of [first, renewed.secret]) expect(JSON.stringify(listed)).not.toContain(s);
    const stored = await endpointRow(id);
    expect(isEncrypted(stored.previousSecret)).toBe(true);
    const raw = await rawCopy(t);
    for (const s of [first, renewed.secret]) expect(raw).not.toContain(s.slice('whsec_'.length));

    const code = await createReport(t, admin.cookie);
    // During the grace period (its last second): two signatures, each secret verifies.
    await setStatut(code, 'EN_COURS');
    const lastSecond = until - 1000;
    expect(await pass({ now: () => new Date(lastSecond) })).toBe(1);
    const during = receiver.received.at(-1)!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(renewed.secret, during.headers, during.body, lastSecond)).toBe(true);
    expect(verifyStandardWebhook(first, during.headers, during.body, lastSecond)).toBe(true);
    expect((await endpointRow(id)).previousSecret).not.toBeNull();

    // Once it is over: one signature, the former secret fails, and it is erased from the row.
    await setStatut(code, 'TRAITE');
    const after = until + 1000;
    expect(await pass({ now: () => new Date(after) })).toBe(1);
    const later = receiver.received.at(-1)!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook(renewed.secret, later.headers, later.body, after)).toBe(true);
    expect(verifyStandardWebhook(first, later.headers, later.body, after)).toBe(false);
    expect(await endpointRow(id)).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
    expect(JSON.stringify(logged)).not.toContain(first.slice('whsec_'.length));
    expect(JSON.stringify(logged)).not.toContain(renewed.secret.slice('whsec_'.length));
  });

  it('a second renewal within the grace period keeps the secret it replaces and erases the oldest', async () => {
    const { id, secret: first } = await register();
    const second = await rotate(id);
    const third = await rotate(id);
    const code = await createReport(t, admin.cookie);
    await setStatut(code, 'EN_COURS');
    worker();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    const [r] = receiver.received;
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(third.secret, r!.headers, r!.body)).toBe(true);
    expect(verifyStandardWebhook(second.secret, r!.headers, r!.body)).toBe(true);
    expect(verifyStandardWebhook(first, r!.headers, r!.body)).toBe(false);
    // The grace period restarts from the second renewal.
    expect(Date.parse(third.ancienSecretJusquA!)).toBeGreaterThanOrEqual(
      Date.parse(second.ancienSecretJusquA!),
    );
  });

  it('refuses hostile input on « Renouveler le secret » with a French 4xx, and agents', async () => {
    const res = await trpc('webhooks.rotateSecret', { id: 2_000_000 });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).toContain(WEBHOOK_REFUSALS.endpointNotFound);
    for (const input of [
      {},
      { id: 'abc' },
      { id: -1 },
      { id: 1.5 },
      { id: null },
      { id: {} },
      { id: 1e12 },
    ]) {
      const bad = await trpc('webhooks.rotateSecret', input);
      expect(bad.status, JSON.stringify(input)).toBe(400);
      expect(JSON.stringify(bad.body), JSON.stringify(input)).toContain('Identifiant invalide.');
    }
    const { id } = await register();
    expect((await trpc('webhooks.rotateSecret', { id }, user.cookie)).status).toBe(403);
    expect((await endpointRow(id)).previousSecret).toBeNull();
  });
});
