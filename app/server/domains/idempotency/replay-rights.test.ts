// A create repeated with its Idempotency-Key answers under today's rights, and is logged like a read
// (decision 0020, "A replay answers under today's rights"): a user demoted after adding a source to an
// anonymous report does not get the source's name and contact back by replaying the key, through REST or
// tRPC, on both engines.
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { accessLogRows } from '#tests/helpers/journal';
import { PEOPLE, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';

describe.each(await testEngines())('idempotent replays under today’s rights on %s', (engine) => {
  const { app: t, admin, user: agent } = serverSuite(engine, { user: { roleCode: 'ROLE_GESTIONNAIRE' } });
  let promoted: string;
  let promotedCode: string;
  let report: string;
  let keyNumber = 0;
  const newKey = () => `rejeu-${engine}-${++keyNumber}-${Date.now()}`;

  beforeAll(async () => {
    promotedCode = await t.user('promu@example.mg', 'ROLE_ADMIN');
    promoted = await t.login('promu@example.mg');
    report = await createReport(t, agent.cookie);
    expect(
      (await mergePatch(t, agent.cookie, `/api/signalements/${report}`, { isAnonyme: true })).statusCode,
    ).toBe(200);
  });

  const rest = (url: string, cookie: string, payload: object, key: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { cookie, ...SAME_ORIGIN, 'idempotency-key': key },
      payload,
    });
  const trpc = (path: string, cookie: string, payload: object, key: string) =>
    t.app.inject({
      method: 'POST',
      url: `/trpc/${path}`,
      headers: { cookie, ...SAME_ORIGIN, 'idempotency-key': key },
      payload,
    });
  const restSource = (nomPrenom: string) => ({
    signalement: `/api/signalements/${report}`,
    nomPrenom,
    contact: PEOPLE.sourceContact,
    canaux: ['/api/canals/TELEPHONE'],
  });
  const lastLogId = async () => (await accessLogRows(t)).at(-1)?.id ?? 0;
  const logSince = async (id: number) => (await accessLogRows(t)).filter((r) => r.id > id);

  it('a user demoted after adding a source to an anonymous report replays both doors: no name, no contact, one access-log row each', async () => {
    const restKey = newKey();
    const trpcKey = newKey();
    const userKey = newKey();
    const restName = `${PEOPLE.source} REST`;
    const trpcName = `${PEOPLE.source} tRPC`;
    const trpcInput = {
      signalement: report,
      nomPrenom: trpcName,
      contact: PEOPLE.sourceContact,
      canaux: ['TELEPHONE'],
    };
    const invitation = {
      email: `invite-${engine}@example.mg`,
      nomPrenom: 'Rabe Invité',
      utilisateurRole: '/api/utilisateur_roles/ROLE_USER',
    };

    const first = await rest('/api/sources', promoted, restSource(restName), restKey);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().nomPrenom).toBe(restName);
    const firstTrpc = await trpc('sources.create', promoted, trpcInput, trpcKey);
    expect(firstTrpc.statusCode, firstTrpc.body).toBe(200);
    expect((await rest('/api/utilisateur/create-user', promoted, invitation, userKey)).statusCode).toBe(201);

    const demote = await trpc(
      'utilisateurs.update',
      admin.cookie,
      { code: promotedCode, utilisateurRole: 'ROLE_GESTIONNAIRE' },
      newKey(),
    );
    expect(demote.statusCode, demote.body).toBe(200);

    const before = await lastLogId();
    const again = await rest('/api/sources', promoted, restSource(restName), restKey);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().code).toBe(first.json().code);
    for (const secret of [restName, PEOPLE.sourceContact]) expect(again.body).not.toContain(secret);
    const againTrpc = await trpc('sources.create', promoted, trpcInput, trpcKey);
    expect(againTrpc.statusCode, againTrpc.body).toBe(200);
    expect(againTrpc.headers['idempotent-replayed']).toBe('true');
    for (const secret of [trpcName, PEOPLE.sourceContact]) expect(againTrpc.body).not.toContain(secret);

    const logged = await logSince(before);
    expect(logged.map((r) => [r.kind, r.userEmail, r.signalementCode, r.details])).toEqual([
      [
        'lecture_personnes',
        'promu@example.mg',
        report,
        { personnes: 'sources', protegees: true, masquees: 1 },
      ],
      [
        'lecture_personnes',
        'promu@example.mg',
        report,
        { personnes: 'sources', protegees: true, masquees: 1 },
      ],
    ]);

    // Accounts are read by administrators only: the invitation's replay is refused now.
    const invited = await rest('/api/utilisateur/create-user', promoted, invitation, userKey);
    expect(invited.statusCode).toBe(403);
    expect(invited.body).not.toContain(invitation.email);
  });

  it('a replay still allowed answers the person as stored today and is logged like a read', async () => {
    const key = newKey();
    const name = `${PEOPLE.source} créateur`;
    const first = await rest('/api/sources', agent.cookie, restSource(name), key);
    expect(first.statusCode, first.body).toBe(201);
    const auteurKey = newKey();
    const auteur = { signalement: report, nomPrenom: PEOPLE.auteur };
    expect((await trpc('auteurs.create', agent.cookie, auteur, auteurKey)).statusCode).toBe(200);

    const before = await lastLogId();
    const again = await rest('/api/sources', agent.cookie, restSource(name), key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const auteurAgain = await trpc('auteurs.create', agent.cookie, auteur, auteurKey);
    expect(auteurAgain.json().result.data.nomPrenom).toBe(PEOPLE.auteur);
    const logged = await logSince(before);
    expect(logged.map((r) => [r.kind, r.userEmail, r.signalementCode, r.details])).toEqual([
      ['lecture_personnes', 'agent@example.mg', report, { personnes: 'sources', nombre: 1 }],
      ['lecture_personnes', 'agent@example.mg', report, { personnes: 'auteurs', nombre: 1 }],
    ]);
  });

  it('a person deleted since the create is not found on replay (its name is not kept by the key)', async () => {
    const key = newKey();
    const name = `${PEOPLE.source} supprimée`;
    const first = await rest('/api/sources', agent.cookie, restSource(name), key);
    expect(first.statusCode).toBe(201);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/sources/${first.json().code}`,
      headers: { cookie: agent.cookie, ...SAME_ORIGIN },
    });
    expect(removed.statusCode).toBe(204);
    const again = await rest('/api/sources', agent.cookie, restSource(name), key);
    expect(again.statusCode).toBe(404);
    expect(again.body).not.toContain(name);
  });
});
