// One valid request per door of the authorization matrix (authorization-matrix.test.ts), so that a success
// is really reachable and a refusal is the rule's, not a bad body. Called once per caller, so destructive
// cells get fresh rows.
// What the requests are built from is here; the REST doors' requests are in
// authorization-matrix.rest-requests.ts, the tRPC procedures' in authorization-matrix.trpc-requests.ts.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ROLE_ADMIN } from '#shared/constants';
import { createJeton } from '#server/domains/jetons-api/service';
import { insertEndpoint } from '#server/domains/webhooks/service';
import type { TestApp } from '#tests/helpers/app';
import { insertAssignment, type addPeople } from '#tests/helpers/report-fixture';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { restRequests } from './authorization-matrix.rest-requests';
import { EMAIL, type Call, type Caller } from './authorization-matrix.rules';
import { trpcRequests } from './authorization-matrix.trpc-requests';

/** The rows the cells act on, filled by the test's set-up. */
export interface MatrixData {
  report: string;
  auteur: string;
  source: string;
  victime: string;
  partner: string;
  project: string;
  user: string;
}

export interface MatrixFixture {
  t: TestApp;
  data: MatrixData;
  unique(): string;
  newPartner(): Promise<string>;
  freshPeople(): ReturnType<typeof addPeople>;
  /** A fresh internal note of the creator on the report (its author may change it for 15 minutes). */
  freshNote(): Promise<string>;
  /** A fresh session of the caller (log-out ends it), or none for the anonymous caller. */
  freshSession(caller: Caller): Promise<string | null>;
}

/** One request per door, built for a caller. */
export type MatrixRequests = Record<string, (caller: Caller) => Call | Promise<Call>>;

/** The fixture's rows and fresh-row makers, and the shapes of a call, that the requests are built from. */
export function requestHelpers(fixture: MatrixFixture) {
  const { data, unique, newPartner, freshPeople, freshNote, freshSession } = fixture;
  // The test app exists once the test's set-up has run: read it when a request is built, not before.
  const app = () => fixture.t;
  const strongPassword = () => `Lakana-${randomBytes(8).toString('hex')}-Vato`;

  const query = (path: string, input?: unknown): Call => ({
    url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
  });
  const mutation = (path: string, body: unknown = {}): Call => ({
    method: 'POST',
    url: `/trpc/${path}`,
    body,
  });

  const creation = () => ({ ...MINIMAL_REPORT });
  /** A fresh enabled account, so each caller's assignment is a first one. */
  const freshStaff = () => app().user(`assigne-${unique()}@example.mg`, 'ROLE_USER', 'Rasoa Assignée');
  /** A fresh account already assigned to the report, for each caller's unassignment. */
  const assignedStaff = async () => {
    const code = await freshStaff();
    await insertAssignment(app(), data.report, code);
    return code;
  };

  /** A fresh partner API token (its public id), created by the administrator, for each caller's revocation. */
  const freshToken = async () => {
    const u = app().db.t.utilisateurs;
    const [admin] = await app()
      .db.read.select({ id: u.id, code: u.code, email: u.email, nomPrenom: u.nomPrenom })
      .from(u)
      .where(eq(u.email, EMAIL.admin));
    const actor = {
      ...admin!,
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: ROLE_ADMIN, designation: 'Administrateur' },
      twoFactorEnrolled: true,
    };
    const input = {
      partenaire: data.partner,
      nom: `Jeton ${unique()}`,
      scopes: ['signalements:read' as const],
    };
    return (await createJeton(app().ctx, actor, { ...input, dureeJours: 30 })).jeton.id;
  };

  /** A fresh shared saved filter of the creator (docs/decisions/0046), for each caller's rename or delete. */
  const freshSharedFilter = async (): Promise<number> => {
    const { utilisateurs: u, filtresEnregistres: f } = app().db.t;
    const [creator] = await app().db.read.select({ id: u.id }).from(u).where(eq(u.email, EMAIL.creator));
    const [row] = await app().db.transaction((tx) =>
      tx
        .insert(f)
        .values({
          nom: `Partagé ${unique()}`,
          requete: 'echeance=en_retard',
          ownerId: creator!.id,
          partage: true,
        })
        .returning({ id: f.id }),
    );
    return row!.id;
  };

  /**
   * The report's partner's webhook endpoints, all deleted, then one fresh (its id): each caller's renewal or
   * deletion gets its own, and a registration never meets the partner's limit (docs/decisions/0051).
   */
  const freshPartnerEndpoint = async (): Promise<number> => {
    const { webhookEndpoints: e, partenaires: p } = app().db.t;
    const [partner] = await app().db.read.select({ id: p.id }).from(p).where(eq(p.code, data.partner));
    await app().db.transaction((tx) => tx.delete(e).where(eq(e.partenaireId, partner!.id)));
    const created = await insertEndpoint(
      app().ctx,
      partner!.id,
      `https://matrice-${unique()}.partenaire.example/webhooks`,
      'partenaire',
    );
    return created.id;
  };

  /** An evidence file's upload: a small PDF (its type is read from the content). */
  const evidenceUpload = (): Call => ({
    method: 'POST',
    url: `/api/signalements/${data.report}/pieces-jointes`,
    file: { payload: Buffer.from('%PDF-1.4\n%matrice\n'), headers: { 'x-nom-fichier': 'matrice.pdf' } },
  });
  /** A fresh evidence file of the creator on the report (its uploader may delete it for 15 minutes). */
  const freshEvidence = async (): Promise<string> => {
    const call = evidenceUpload();
    const res = await app().app.inject({
      method: 'POST',
      url: call.url,
      headers: {
        'sec-fetch-site': 'same-origin',
        cookie: await app().login(EMAIL.creator),
        'content-type': 'application/octet-stream',
        ...call.file!.headers,
      },
      payload: call.file!.payload,
    });
    if (res.statusCode !== 201) throw new Error(`evidence: ${res.statusCode} ${res.body}`);
    return res.json().code;
  };

  return {
    data,
    unique,
    newPartner,
    freshPeople,
    freshNote,
    freshSession,
    app,
    strongPassword,
    query,
    mutation,
    creation,
    freshStaff,
    assignedStaff,
    freshToken,
    freshSharedFilter,
    freshPartnerEndpoint,
    evidenceUpload,
    freshEvidence,
  };
}

export type RequestHelpers = ReturnType<typeof requestHelpers>;

export function matrixRequests(fixture: MatrixFixture): MatrixRequests {
  const helpers = requestHelpers(fixture);
  return { ...restRequests(helpers), ...trpcRequests(helpers) };
}
