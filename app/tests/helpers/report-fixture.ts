// Real rows for the security tests: a report's people, a failed e-mail, a password link. Names and
// contacts are distinctive so a test can assert that none of them leaks into an answer.
import { asc, eq, ne } from 'drizzle-orm';
import { ROLE_ADMIN } from '#shared/constants';
import { issuePasswordToken } from '#server/domains/auth/password-tokens';
import type { TestApp } from './app';

export const PEOPLE = {
  auteur: 'Randrianarisoa Auteur-Témoin',
  source: 'Rasoanirina Source-Protégée',
  sourceContact: 'source.protegee@example.mg',
  victime: 'Rabearivelo Victime-Témoin',
} as const;

/** What a browser sends with every call from the application's own pages (CSRF check). */
export const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' } as const;

async function post(t: TestApp, cookie: string, url: string, payload: object): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url, headers: { cookie, ...SAME_ORIGIN }, payload });
  if (res.statusCode !== 201) throw new Error(`POST ${url} failed: ${res.statusCode} ${res.body}`);
  return res.json().code as string;
}

/** Adds one presumed author, one source (with a contact) and one victim to a report; returns their codes. */
export async function addPeople(t: TestApp, cookie: string, report: string, suffix = '') {
  const signalement = `/api/signalements/${report}`;
  return {
    auteur: await post(t, cookie, '/api/presume_auteurs', {
      signalement,
      nomPrenom: PEOPLE.auteur + suffix,
      fonction: 'Chef de service',
    }),
    source: await post(t, cookie, '/api/sources', {
      signalement,
      nomPrenom: PEOPLE.source + suffix,
      contact: PEOPLE.sourceContact,
      canaux: ['/api/canals/TELEPHONE'],
    }),
    victime: await post(t, cookie, '/api/victimes', {
      signalement,
      nomPrenom: PEOPLE.victime + suffix,
      contact: '034 00 000 00',
    }),
  };
}

/** A message the delivery worker gave up on, as the outbox screen lists it; returns its id. */
export async function insertFailedMail(t: TestApp, to = 'injoignable@example.mg'): Promise<number> {
  const o = t.db.t.mailOutbox;
  const [row] = await t.db.transaction((tx) =>
    tx
      .insert(o)
      .values({
        kind: 'password-reset',
        to,
        subject: 'Réinitialisation',
        text: 'Lien',
        status: 'failed',
        attempts: 10,
        nextAttemptAt: new Date(),
        lastError: '550 refusé',
      })
      .returning({ id: o.id }),
  );
  return Number(row!.id);
}

/** A webhook endpoint of a partner (IVY unless said), written straight into the table; returns its id. */
export async function insertWebhookEndpoint(t: TestApp, partenaire = 'IVY'): Promise<number> {
  const { webhookEndpoints: e, partenaires: p } = t.db.t;
  const [row] = await t.db.transaction(async (tx) => {
    const [partner] = await tx.select({ id: p.id }).from(p).where(eq(p.code, partenaire));
    return tx
      .insert(e)
      .values({
        partenaireId: partner!.id,
        url: 'https://partenaire.example.mg/webhooks',
        secret: 'whsec_AAAA',
      })
      .returning({ id: e.id });
  });
  return Number(row!.id);
}

/** A dead letter (« lettre morte ») of the report's partner's new endpoint; returns its id. */
export async function insertDeadWebhookDelivery(t: TestApp, reportCode: string): Promise<number> {
  const { webhookDeliveries: d, signalements: s } = t.db.t;
  const [report] = await t.db.read
    .select({ id: s.id, partenaireId: s.partenaireId })
    .from(s)
    .where(eq(s.code, reportCode));
  const [partner] = await t.db.read
    .select({ code: t.db.t.partenaires.code })
    .from(t.db.t.partenaires)
    .where(eq(t.db.t.partenaires.id, report!.partenaireId));
  const endpointId = await insertWebhookEndpoint(t, partner!.code);
  // Disabled, so that no worker of the test sends it again.
  await t.db.transaction((tx) =>
    tx
      .update(t.db.t.webhookEndpoints)
      .set({ isEnabled: false })
      .where(eq(t.db.t.webhookEndpoints.id, endpointId)),
  );
  const [row] = await t.db.transaction((tx) =>
    tx
      .insert(d)
      .values({
        eventId: `msg_matrice_${endpointId}`,
        endpointId,
        signalementId: report!.id,
        eventType: 'signalement.modifie',
        payload: '{}',
        status: 'dead',
        attempts: 12,
        nextAttemptAt: new Date(),
        lastStatus: 500,
        lastError: 'Réponse HTTP 500.',
      })
      .returning({ id: d.id }),
  );
  return Number(row!.id);
}

/**
 * An unseen alert on unusual reading about the first user who is not an administrator (an administrator
 * may not mark seen an alert about themselves), as the dashboard lists it; returns its id.
 */
export async function insertAlert(t: TestApp): Promise<number> {
  const { accessAlerts: a, utilisateurs: u, utilisateurRoles: r } = t.db.t;
  const [user] = await t.db.read
    .select({ id: u.id })
    .from(u)
    .innerJoin(r, eq(r.id, u.roleId))
    .where(ne(r.code, ROLE_ADMIN))
    .orderBy(asc(u.id))
    .limit(1);
  const [row] = await t.db.transaction((tx) =>
    tx
      .insert(a)
      .values({
        kind: 'lecture_massive',
        userId: user!.id,
        details: { signalements: 20, fenetreMinutes: 10, seuil: 20 },
        createdAt: new Date(),
      })
      .returning({ id: a.id }),
  );
  return Number(row!.id);
}

/** A fresh password link's secret for the user (the user's earlier unused links stop working). */
export async function passwordLinkToken(t: TestApp, email: string): Promise<string> {
  const u = t.db.t.utilisateurs;
  const [user] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.email, email)).limit(1);
  if (!user) throw new Error(`no user ${email}`);
  return (await issuePasswordToken(t.db, user.id, 'reset')).token;
}

/** Assigns a user to a report straight in the table (no e-mail, no history), for tests of what follows. */
export async function insertAssignment(t: TestApp, report: string, userCode: string): Promise<void> {
  const { signalementAssignees: a, signalements: s, utilisateurs: u } = t.db.t;
  const [r] = await t.db.read.select({ id: s.id }).from(s).where(eq(s.code, report)).limit(1);
  const [user] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.code, userCode)).limit(1);
  await t.db.transaction((tx) =>
    tx
      .insert(a)
      .values({ signalementId: r!.id, userId: user!.id, assignedById: null, assignedAt: new Date() }),
  );
}
