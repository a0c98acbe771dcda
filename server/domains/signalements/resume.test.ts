import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app';
import { testEngines } from '../../../tests/helpers/db';
import { createReport, mergePatch } from '../../../tests/helpers/signalements';

describe.each(await testEngines())('public summary and partner e-mail on %s', (engine) => {
  let t: TestApp;
  let creator: string;
  let other: string;
  let code: string;
  const SECRETS = ['Rakotobe Secret', 'Auteur-Fonction-Secrète', 'source-contact@secret.mg', 'Victime Cachée', 'Description confidentielle', 'createur@example.mg', 'Créateur Nom'];
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('createur@example.mg', 'ROLE_USER', 'Créateur Nom');
    await t.user('autre@example.mg');
    creator = await t.login('createur@example.mg');
    other = await t.login('autre@example.mg');
    code = await createReport(t, creator, { subjects: ['/api/subjects/OTHERS'], autreObject: 'Trafic de bois de rose' });
    await mergePatch(t, creator, `/api/signalements/${code}`, {
      description: 'Description confidentielle',
      statut: '/api/statuts/TRAITE',
      niveau: '/api/niveaux/CRITIQUE',
      isRecurrent: true,
      actionProvisoires: ['Saisie conservatoire'],
      preuves: [],
    });
    await mergePatch(t, creator, `/api/signalements/${code}/localisation`, { region: '/api/regions/MG11', fokontany: 'Isotry' });
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: { cookie: creator }, payload });
    await post('/api/presume_auteurs', { nomPrenom: 'Rakotobe Secret', fonction: 'Auteur-Fonction-Secrète', signalement: code });
    await post('/api/sources', { nomPrenom: 'Source Anonyme', contact: 'source-contact@secret.mg', signalement: code });
    await post('/api/victimes', { nomPrenom: 'Victime Cachée', signalement: code });
  });
  afterAll(async () => t?.close());

  it('returns the summary fields without a session, and no personal data', async () => {
    const res = await t.app.inject({ url: `/api/resume/signalements-details/${code}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      code,
      canalPrincipal: { code: 'TELEPHONE', designation: 'Téléphone' },
      statut: { code: 'TRAITE' },
      niveau: { code: 'CRITIQUE' },
      isTreated: true,
      subjects: [{ code: 'OTHERS' }],
      autreObject: 'Trafic de bois de rose',
      region: 'Analamanga',
      fokontany: 'Isotry',
      isRecurrent: true,
      actionProvisoires: ['Saisie conservatoire'],
      preuves: [],
    });
    const text = res.body;
    for (const secret of [...SECRETS, 'Source Anonyme']) expect(text).not.toContain(secret);
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['description', 'createdBy']));
    const trpc = await t.app.inject({ url: `/trpc/signalements.resume?input=${encodeURIComponent(JSON.stringify({ code }))}` });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toEqual(body);
  });

  it('answers 404 for an unknown code', async () => {
    const res = await t.app.inject({ url: '/api/resume/signalements-details/SIG-ZZZZ-ZZZZ' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Signalement non trouvé');
  });

  it('limits the calls per address', async () => {
    let status = 200;
    for (let i = 0; i < 40 && status !== 429; i++) {
      status = (await t.app.inject({ url: `/api/resume/signalements-details/SIG-0000-000${i % 10}`, headers: { 'x-forwarded-for': '10.7.7.7' } })).statusCode;
    }
    expect(status).toBe(429);
    // Another address is not affected.
    expect((await t.app.inject({ url: `/api/resume/signalements-details/${code}`, headers: { 'x-forwarded-for': '10.7.7.8' } })).statusCode).toBe(200);
  });

  it('writes a default French message for the partner, with the public link and no names', async () => {
    const res = await t.app.inject({ url: `/api/signalement/${code}/default-mail-content`, headers: { cookie: other } });
    expect(res.statusCode).toBe(200);
    const { status, content } = res.json();
    expect(status).toBe('success');
    expect(content).toContain('Bonjour Ivorary,');
    expect(content).toContain(code);
    expect(content).toContain(`/admin/resume/${code}`);
    for (const secret of ['Rakotobe Secret', 'Victime Cachée', 'Source Anonyme', 'Description confidentielle']) {
      expect(content).not.toContain(secret);
    }
  });

  it('queues the e-mail to the partner in the outbox with a history entry; validates; creator or admin only', async () => {
    const url = `/api/signalement/${code}/notify-partner`;
    const bad = await t.app.inject({ method: 'POST', url, headers: { cookie: creator }, payload: { email: 'pas-un-email', content: 'court' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().violations.map((v: { message: string }) => v.message)).toEqual([
      'Veuillez saisir une adresse email valide.',
      'Le contenu du message doit contenir au moins 10 caractères.',
    ]);
    const refused = await t.app.inject({ method: 'POST', url, headers: { cookie: other }, payload: { email: 'p@partenaire.mg', content: 'Un message assez long.' } });
    expect(refused.statusCode).toBe(403);
    const ok = await t.app.inject({ method: 'POST', url, headers: { cookie: creator }, payload: { email: 'p@partenaire.mg', content: 'Un message assez long.' } });
    expect(ok.statusCode).toBe(200);
    const queued = await t.db.read.select().from(t.db.t.mailOutbox).where(eq(t.db.t.mailOutbox.to, 'p@partenaire.mg'));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: 'partner-notification', subject: `Signalement ${code}`, text: 'Un message assez long.' });
    const history = (await t.app.inject({ url: `/api/signalements/${code}/historique`, headers: { cookie: creator } })).json().member;
    expect(history[0]).toMatchObject({ action: 'notification', changes: { email: { from: null, to: 'p@partenaire.mg' } } });
  });
});
