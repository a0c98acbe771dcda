// The fixture of the doors test (doors.test.ts): an app with every kind of record a door can name, routes
// registered the way a new module would (declaring nothing), three sessions, a raw socket client, and the
// probe that sends requests over it and collects every answer that breaks a rule (a 5xx, an anonymous
// 2xx, a secret in the body, or the caller's own check).
import { createTestApp, type TestApp } from '#tests/helpers/app';
import type { Engine } from '../db/client';
import { rawClient, type RawClient, type RawResponse } from '#tests/helpers/raw-http';
import {
  addPeople,
  insertFailedMail,
  passwordLinkToken,
  PEOPLE,
  SAME_ORIGIN,
} from '#tests/helpers/report-fixture';
import { createToken, registerPartnerEndpoint } from '#tests/helpers/jetons-api';
import { createReport } from '#tests/helpers/signalements';
import { expect } from 'vitest';

// Routes this test registers the way a new module would, declaring nothing: they must be private.
export const UNDECLARED = [
  '/api/zz-test-undeclared',
  '/api/zz-test-plugin/scoped',
  '/api/zz-test-empty-config',
  '/zz-test-outside-api',
];
export const UNDECLARED_ANSWER = { leaked: 'données privées' };

export interface Failure {
  request: string;
  spelling: string;
  status: number;
  body: string;
}

/** An internal note's text: never in an answer to an anonymous caller. */
const NOTE_TEXT = 'Note interne des portes : le témoin rappelle lundi';

export async function openDoors(engine: Engine) {
  const data = {
    report: '',
    auteur: '',
    source: '',
    victime: '',
    note: '',
    piece: '',
    partner: '',
    user: '',
    project: '',
    mail: '',
    token: '',
    webhook: '',
  };
  let address = 0;
  /** Each anonymous request comes from its own address, so the public look-up limit never answers instead of the gate. */
  const from = () => {
    address++;
    return { 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` };
  };

  const t = await createTestApp(
    engine,
    {},
    {
      beforeReady(app) {
        // As a new module would: no config at all, an empty config, inside a plugin with a prefix, outside /api.
        app.get(UNDECLARED[0]!, async () => UNDECLARED_ANSWER);
        app.post(UNDECLARED[0]!, async () => UNDECLARED_ANSWER);
        app.register(async (scope) => scope.get('/scoped', async () => UNDECLARED_ANSWER), {
          prefix: '/api/zz-test-plugin',
        });
        app.route({
          method: 'GET',
          url: UNDECLARED[2]!,
          config: {},
          handler: async () => UNDECLARED_ANSWER,
        });
        app.get(UNDECLARED[3]!, async () => UNDECLARED_ANSWER);
      },
    },
  );
  await t.user('agent@example.mg', 'ROLE_USER', 'Rakoto Agent');
  await t.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
  await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
  data.user = await t.user('cible@example.mg', 'ROLE_USER', 'Randria Cible');
  const userCookie = await t.login('agent@example.mg');
  const creatorCookie = await t.login('createur@example.mg');
  const adminCookie = await t.login('admin@example.mg');
  data.report = await createReport(t, creatorCookie);
  Object.assign(data, await addPeople(t, creatorCookie, data.report));
  const note = await t.app.inject({
    method: 'POST',
    url: `/api/signalements/${data.report}/notes`,
    headers: { cookie: creatorCookie, ...SAME_ORIGIN },
    payload: { texte: NOTE_TEXT },
  });
  data.note = note.json().code;
  // An evidence file (docs/decisions/0033): its body is the file, application/octet-stream.
  const piece = await t.app.inject({
    method: 'POST',
    url: `/api/signalements/${data.report}/pieces-jointes`,
    headers: {
      cookie: creatorCookie,
      ...SAME_ORIGIN,
      'content-type': 'application/octet-stream',
      'x-nom-fichier': 'portes.pdf',
    },
    payload: Buffer.from('%PDF-1.4\n%portes\n'),
  });
  data.piece = piece.json().code;
  const partner = await t.app.inject({
    method: 'POST',
    url: '/api/partenaires',
    headers: { cookie: adminCookie, ...SAME_ORIGIN },
    payload: { designation: 'Partenaire Des Portes', email: 'portes@partenaire.example.mg' },
  });
  data.partner = partner.json().code;
  const project = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    // A project for a partner of none of the creator's reports: an administrator's (0015).
    headers: { cookie: adminCookie, ...SAME_ORIGIN },
    payload: {
      sigle: 'PORTES',
      designation: 'Projet des portes',
      owner: `/api/partenaires/${data.partner}`,
    },
  });
  data.project = project.json().code;
  data.mail = String(await insertFailedMail(t));
  data.token = await passwordLinkToken(t, 'cible@example.mg');
  // A partner's token and its own webhook endpoint: the doors only a token opens (docs/decisions/0051).
  const partnerToken = (
    await createToken(t, adminCookie, { partenaire: data.partner, scopes: ['webhooks:manage'] })
  ).secret;
  data.webhook = String(
    (await registerPartnerEndpoint(t, partnerToken, 'https://portes.partenaire.example/webhooks')).id,
  );
  expect(Object.values(data).every(Boolean), JSON.stringify(data)).toBe(true);
  const client = await rawClient(t.app);

  /** Text that must never appear in an answer to an anonymous caller. */
  const secrets = () => [
    PEOPLE.auteur,
    PEOPLE.source,
    PEOPLE.sourceContact,
    PEOPLE.victime,
    'cible@example.mg',
    'portes@partenaire.example.mg',
    NOTE_TEXT,
    UNDECLARED_ANSWER.leaked,
  ];

  /** The real value of each path parameter, chosen by the segment that names the collection. */
  function concreteSegments(url: string): string[] {
    const byCollection: Record<string, string> = {
      signalements: data.report,
      signalement: data.report,
      'signalements-details': data.report,
      presume_auteurs: data.auteur,
      sources: data.source,
      victimes: data.victime,
      notes: data.note,
      'pieces-jointes': data.piece,
      partenaires: data.partner,
      utilisateurs: data.user,
      'reset-password': data.user,
      projects: data.project,
      mail_outbox: data.mail,
      'definir-mot-de-passe': data.token,
      // A niveau's handling deadline (docs/decisions/0032).
      delais_traitement: 'CRITIQUE',
      webhooks: data.webhook,
    };
    const segments = url.split('/').slice(1);
    // A new collection without an entry above still gets a real, existing code.
    return segments.map((s, i) =>
      s.startsWith(':') ? (byCollection[segments[i - 1] ?? ''] ?? data.report) : s,
    );
  }

  /** A body of the type the route takes: JSON, or a file's bytes where the route declares `binaryBody`. */
  const bodyFor = (
    method: string,
    binary = false,
  ): { headers: Record<string, string>; body: string | undefined } =>
    ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)
      ? {
          headers: {
            'content-type': binary
              ? 'application/octet-stream'
              : method === 'PATCH'
                ? 'application/merge-patch+json'
                : 'application/json',
          },
          body: binary ? '%PDF-1.4\n' : '{}',
        }
      : { headers: {}, body: undefined };

  /** Runs the requests a few at a time; collects every answer that breaks a rule. */
  async function probe(
    requests: Array<{
      method: string;
      path: string;
      label: string;
      headers?: Record<string, string>;
      body?: string;
    }>,
    check: (res: RawResponse, request: { method: string; path: string; label: string }) => boolean,
  ): Promise<Failure[]> {
    const failures: Failure[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const res = await client.send(
          request.method,
          request.path,
          { ...SAME_ORIGIN, ...from(), ...request.headers },
          request.body,
        );
        const leaks = secrets().some((s) => res.body.includes(s));
        const ok =
          res.status < 500 &&
          !(res.status >= 200 && res.status < 300 && request.label !== 'mixed batch') &&
          !leaks &&
          check(res, request);
        if (!ok)
          failures.push({
            request: `${request.method} ${request.path}`,
            spelling: request.label,
            status: res.status,
            body: res.body.slice(0, 200),
          });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return failures;
  }

  return {
    t,
    client,
    userCookie,
    creatorCookie,
    adminCookie,
    partnerToken,
    data,
    from,
    secrets,
    concreteSegments,
    bodyFor,
    probe,
    async close() {
      client.close();
      await t.close();
    },
  };
}

export type Doors = Awaited<ReturnType<typeof openDoors>>;
export type { RawClient, RawResponse, TestApp };
