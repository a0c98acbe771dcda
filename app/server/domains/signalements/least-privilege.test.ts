// Least privilege (docs/decisions/0015): who may create a project and for which partner, to whom the
// partner e-mail may go, and what a non-admin reads about other users. Each rule by both doors.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { PROJECT_FORBIDDEN_MESSAGE } from '../projects/service';
import { PARTNER_MAIL_FORBIDDEN_MESSAGE } from './partner-mail';

const EMAIL = {
  creator: 'createur@example.mg',
  other: 'autre@example.mg',
  admin: 'admin@example.mg',
} as const;
const PARTNER_EMAIL = 'Contact@Partenaire-A.example.mg';
const CONTENT = 'Bonjour, un signalement vous concerne. Merci de nous répondre.';

describe.each(await testEngines())('least privilege on %s', (engine) => {
  const suite = serverSuite(engine, { user: { email: EMAIL.creator, nomPrenom: 'Rabe Createur' } });
  const t = suite.app;
  const cookie: Record<keyof typeof EMAIL, string> = { creator: '', other: '', admin: '' };
  let partnerA: string; // has an e-mail; the creator has a report with it
  let partnerB: string; // the creator has no report with it
  let reportA: string;
  let reportIvy: string; // IVY has no e-mail
  let serial = 0;

  type Caller = keyof typeof EMAIL;
  function send(caller: Caller, method: 'GET' | 'POST', url: string, body?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: {
        cookie: cookie[caller],
        ...SAME_ORIGIN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }
  const trpcQuery = (caller: Caller, path: string, input?: unknown) =>
    send(
      caller,
      'GET',
      `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
    );
  async function newPartner(email: string): Promise<string> {
    const res = await send('admin', 'POST', '/api/partenaires', {
      designation: `Partenaire ${serial++}`,
      email,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().code;
  }

  beforeAll(async () => {
    await t.user(EMAIL.other, 'ROLE_USER', 'Rakoto Autre');
    cookie.creator = suite.user.cookie;
    cookie.other = await t.login(EMAIL.other);
    cookie.admin = suite.admin.cookie;
    partnerA = await newPartner(PARTNER_EMAIL);
    partnerB = await newPartner('contact@partenaire-b.example.mg');
    reportA = await createReport(t, cookie.creator, { partenaire: `/api/partenaires/${partnerA}` });
    reportIvy = await createReport(t, cookie.creator);
  });

  describe('creating a project', () => {
    const rest = (caller: Caller, owner: string) =>
      send(caller, 'POST', '/api/projects', {
        sigle: `P${serial++}`,
        designation: 'Projet de test',
        owner: `/api/partenaires/${owner}`,
      });
    const trpc = (caller: Caller, owner: string) =>
      send(caller, 'POST', '/trpc/projects.create', {
        sigle: `P${serial++}`,
        designation: 'Projet de test',
        owner,
      });

    it("lets a report's creator create one for that report's partner, by both doors", async () => {
      expect((await rest('creator', partnerA)).statusCode).toBe(201);
      expect((await trpc('creator', partnerA)).statusCode).toBe(200);
    });

    it('refuses it with 403 and a French message for a partner of none of their reports, by both doors', async () => {
      for (const caller of ['creator', 'other'] as const) {
        const viaRest = await rest(caller, partnerB);
        expect(viaRest.statusCode).toBe(403);
        expect(viaRest.json().message).toBe(PROJECT_FORBIDDEN_MESSAGE);
        const viaTrpc = await trpc(caller, partnerB);
        expect(viaTrpc.statusCode).toBe(403);
        expect(viaTrpc.json().error.message).toBe(PROJECT_FORBIDDEN_MESSAGE);
      }
      // The other user sees the creator's report but may not edit it: no project for its partner either.
      expect((await rest('other', partnerA)).statusCode).toBe(403);
      const p = t.db.t.projects;
      const [owner] = await t.db.read
        .select({ id: t.db.t.partenaires.id })
        .from(t.db.t.partenaires)
        .where(eq(t.db.t.partenaires.code, partnerB));
      expect(await t.db.read.select().from(p).where(eq(p.ownerId, owner!.id))).toEqual([]);
    });

    it('lets an administrator create one for any partner, by both doors', async () => {
      expect((await rest('admin', partnerB)).statusCode).toBe(201);
      expect((await trpc('admin', partnerB)).statusCode).toBe(200);
    });
  });

  describe('the e-mail to the partner', () => {
    const outboxSize = async () => (await t.db.read.select().from(t.db.t.mailOutbox)).length;
    const rest = (caller: Caller, report: string, email: string) =>
      send(caller, 'POST', `/api/signalement/${report}/notify-partner`, { email, content: CONTENT });
    const trpc = (caller: Caller, report: string, email: string) =>
      send(caller, 'POST', '/trpc/signalements.notifyPartner', { code: report, email, content: CONTENT });

    it("lets the report's creator write to the partner's own address (any case), by both doors", async () => {
      const before = await outboxSize();
      expect((await rest('creator', reportA, PARTNER_EMAIL.toLowerCase())).statusCode).toBe(200);
      expect((await trpc('creator', reportA, PARTNER_EMAIL)).statusCode).toBe(200);
      expect(await outboxSize()).toBe(before + 2);
    });

    it('refuses any other address to a non-admin with 403 and a French message, queuing nothing, by both doors', async () => {
      const before = await outboxSize();
      for (const [report, email] of [
        [reportA, 'quelquun@ailleurs.example.mg'],
        [reportIvy, 'contact@ivorary.mg'], // IVY has no address: only an administrator may choose one
      ] as const) {
        const viaRest = await rest('creator', report, email);
        expect(viaRest.statusCode).toBe(403);
        expect(viaRest.json().message).toBe(PARTNER_MAIL_FORBIDDEN_MESSAGE);
        const viaTrpc = await trpc('creator', report, email);
        expect(viaTrpc.statusCode).toBe(403);
        expect(viaTrpc.json().error.message).toBe(PARTNER_MAIL_FORBIDDEN_MESSAGE);
      }
      expect(await outboxSize()).toBe(before);
    });

    it('lets an administrator write to any address, by both doors', async () => {
      expect((await rest('admin', reportA, 'quelquun@ailleurs.example.mg')).statusCode).toBe(200);
      expect((await trpc('admin', reportIvy, 'contact@ivorary.mg')).statusCode).toBe(200);
    });
  });

  describe('what a non-admin reads about other users', () => {
    it('gives the creator picker codes and names only, and searches names, not e-mails', async () => {
      const names = await trpcQuery('other', 'utilisateurs.options', { search: 'rabe' });
      expect(names.statusCode).toBe(200);
      const options = names.json().result.data as Array<Record<string, unknown>>;
      expect(options.map((o) => o.nomPrenom)).toEqual(['Rabe Createur']);
      expect(Object.keys(options[0]!).sort()).toEqual(['code', 'nomPrenom']);
      const all = await trpcQuery('other', 'utilisateurs.options');
      expect(all.body).not.toContain(EMAIL.creator);
      expect(all.body).not.toContain(EMAIL.admin);
      // Probing by e-mail finds nobody.
      expect(
        (await trpcQuery('other', 'utilisateurs.options', { search: 'createur@' })).json().result.data,
      ).toEqual([]);
    });

    it('gives an administrator the e-mails in the picker', async () => {
      const res = await trpcQuery('admin', 'utilisateurs.options', { search: 'createur@' });
      expect(res.json().result.data).toEqual([
        { code: expect.any(String), nomPrenom: 'Rabe Createur', email: EMAIL.creator },
      ]);
    });

    it("names the history's authors without their e-mail, by both doors", async () => {
      for (const res of [
        await send('other', 'GET', `/api/signalements/${reportA}/historique`),
        await trpcQuery('other', 'signalements.historique', { code: reportA }),
      ]) {
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('Rabe Createur');
        expect(res.body).not.toContain(EMAIL.creator);
      }
    });

    it("keeps the report's createdBy e-mail, as the specification's Signalement carries it", async () => {
      const res = await send('other', 'GET', `/api/signalements/${reportA}`);
      expect(res.json().createdBy).toMatchObject({ email: EMAIL.creator, nomPrenom: 'Rabe Createur' });
    });
  });
});
