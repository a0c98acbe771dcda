// The data the write-route fuzzing (write-routes.fuzz.test.ts) starts from: reports of each actor with a
// person of every kind, a note, a file, a project and a mail, and the pools of codes its values draw from.
import { getTableColumns, getTableName, sql, type Table } from 'drizzle-orm';
import type { TestApp } from '#tests/helpers/app';
import { createReport } from '#tests/helpers/signalements';
import type { Database } from '../db/client';
import type { Pools } from './write-routes.fuzz.generators';

/** The codes of each kind of entity, for the generators to draw existing ones (the actors left out). */
export async function readPools(db: Database, actorCodes: readonly string[]): Promise<Pools> {
  // In creation order (ids), so that both engines draw the same entities for the same seed although
  // their codes are random: the answers of the two runs can then be compared one by one.
  const codes = async (table: Table, limit = 12) => {
    const order = sql.identifier('id' in getTableColumns(table) ? 'id' : 'code');
    const rows = await db.rows<{ code: string }>(
      sql`SELECT code FROM ${sql.identifier(getTableName(table))} ORDER BY ${order} LIMIT ${limit}`,
    );
    return rows.map((r) => String(r.code));
  };
  /** The first numeric ids of a table without a code (mails, webhook endpoints), in creation order. */
  const ids = async (table: Table) =>
    (
      await db.rows<{ id: number | string }>(
        sql`SELECT id FROM ${sql.identifier(getTableName(table))} ORDER BY id LIMIT 12`,
      )
    ).map((r) => Number(r.id));
  const tt = db.t as unknown as Record<string, Table>;
  return {
    signalements: await codes(tt.signalements!),
    partenaires: await codes(tt.partenaires!),
    auteurs: await codes(tt.presumeAuteurs!),
    sources: await codes(tt.sources!),
    victimes: await codes(tt.victimes!),
    notes: await codes(tt.reportNotes!),
    pieces: await codes(tt.evidenceFiles!),
    utilisateurs: (await codes(tt.utilisateurs!, 50)).filter((code) => !actorCodes.includes(code)),
    projects: await codes(tt.projects!),
    mails: await ids(db.t.mailOutbox),
    subjects: await codes(tt.subjects!),
    canals: await codes(tt.canals!),
    niveaux: await codes(tt.niveaux!),
    statuts: await codes(tt.statuts!),
    resultats: await codes(tt.resultats!),
    regions: await codes(tt.regions!, 5),
    districts: await codes(tt.districts!, 5),
    communes: await codes(tt.communes!, 5),
    roles: await codes(tt.utilisateurRoles!),
    webhooks: await ids(db.t.webhookEndpoints),
  };
}

/** What the routes act on, created once per engine by the actors (`cookies`: their sessions). */
export async function seedFixtures(t: TestApp, cookies: { admin: string; user: string }): Promise<void> {
  // Reports of each actor (a user may only edit their own), each with one person of every kind.
  for (const cookie of [cookies.admin, cookies.user, cookies.user]) {
    const signalement = await createReport(t, cookie);
    for (const [path, person] of [
      ['presume_auteurs', { nomPrenom: 'Auteur Présumé' }],
      ['sources', { nomPrenom: 'Source Anonyme', canaux: ['TELEPHONE'] }],
      ['victimes', { nomPrenom: 'Victime Rasoa' }],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/${path}`,
        headers: { cookie },
        payload: { signalement, ...person },
      });
      if (res.statusCode !== 201) throw new Error(`${path}: ${res.body}`);
    }
    const note = await t.app.inject({
      method: 'POST',
      url: `/api/signalements/${signalement}/notes`,
      headers: { cookie },
      payload: { texte: 'Note interne\nsur deux lignes' },
    });
    if (note.statusCode !== 201) throw new Error(`note: ${note.body}`);
    const piece = await t.app.inject({
      method: 'POST',
      url: `/api/signalements/${signalement}/pieces-jointes`,
      headers: {
        cookie,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/octet-stream',
        'x-nom-fichier': 'pi%C3%A8ce.pdf',
      },
      payload: Buffer.from('%PDF-1.4\n%fuzz\n'),
    });
    if (piece.statusCode !== 201) throw new Error(`piece: ${piece.body}`);
  }
  const project = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: cookies.user },
    payload: { sigle: 'FZ', designation: 'Projet fuzz', owner: 'IVY' },
  });
  if (project.statusCode !== 201) throw new Error(project.body);
  // Mail in the outbox (invitation), so that retry routes find ids.
  await t.app.inject({
    method: 'POST',
    url: '/api/utilisateur/create-user',
    headers: { cookie: cookies.admin },
    payload: { email: 'invite@example.mg', nomPrenom: 'Invité Fuzz', utilisateurRole: 'ROLE_USER' },
  });
}
