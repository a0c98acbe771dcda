import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { useE2E } from './harness';
import { ADMIN, signInByApi } from './sign-in';

/** A report with a bit of everything, made through the REST facade as the admin. */
async function makeReport(page: Page): Promise<string> {
  const created = await page.request.post('/api/signalements', {
    data: {
      partenaire: '/api/partenaires/IVY',
      subjects: ['/api/subjects/CORRUPTION', '/api/subjects/OTHERS'],
      autreObject: 'Vente de terrains communaux',
      canalPrincipal: '/api/canals/TELEPHONE',
      signalementAt: '2025-03-10',
    },
  });
  expect(created.status()).toBe(201);
  const { code } = (await created.json()) as { code: string };
  const patched = await page.request.patch(`/api/signalements/${code}`, {
    headers: { 'content-type': 'application/merge-patch+json' },
    data: JSON.stringify({
      niveau: '/api/niveaux/ELEVE',
      statut: '/api/statuts/EN_COURS',
      isRecurrent: true,
      description: 'Texte interne qui ne doit pas sortir',
      actionProvisoires: ['Gel de la procédure'],
      preuves: [],
    }),
  });
  expect(patched.status()).toBe(200);
  const author = await page.request.post('/api/presume_auteurs', {
    data: { nomPrenom: 'Randria Secret', signalement: `/api/signalements/${code}` },
  });
  expect(author.status()).toBe(201);
  return code;
}

describe('public summary page in a real browser', () => {
  const e = useE2E();
  let code: string;
  beforeAll(async () => {
    const admin = await e.newPage();
    // Through the REST log-in: the login form would land on the dashboard, whose charts and map are not
    // what these tests look at.
    await signInByApi(admin, ADMIN.email, ADMIN.password);
    code = await makeReport(admin);
  });

  it('shows the summary of §2 without a session, outside the app shell, and nothing personal', async () => {
    const page = await e.newPage({ width: 375, height: 740 });
    await page.goto(`/admin/resume/${code}`);
    await page.getByTestId('resume-header').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/resume/${code}`);
    expect(await page.getByTestId('app-shell').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Résumé du signalement' }).isVisible()).toBe(true);
    expect(await page.getByTestId('resume-code').textContent()).toBe(code);
    const header = (await page.getByTestId('resume-header').textContent())!;
    expect(header).toContain('Signalé le 10/03/2025');
    expect(header).toContain('Canal : Téléphone');
    expect(header).toContain('Statut : En cours de traitement');
    expect(header).toContain('Niveau : Élevé');
    expect(header).toContain('État : En cours');

    expect(await page.getByTestId('resume-subjects').textContent()).toContain(
      'Précision : Vente de terrains communaux',
    );
    expect(await page.getByTestId('resume-projects').textContent()).toContain('Aucun projet spécifié');
    expect(await page.getByTestId('resume-location').textContent()).toContain('Non renseigné');
    const traits = await page.getByTestId('resume-traits').textContent();
    for (const word of ['Non anonyme', 'Pas de conflit', 'Récurrent', 'En cours'])
      expect(traits).toContain(word);
    expect(await page.getByTestId('resume-actions').textContent()).toContain('Gel de la procédure');
    expect(await page.getByTestId('resume-preuves').count()).toBe(0);
    // Today in the business calendar (Madagascar), not the machine's: from 21:00 UTC they differ.
    expect(await page.getByTestId('resume-footer').textContent()).toBe(
      `Résumé généré le ${businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE).split('-').reverse().join('/')}`,
    );
    const body = (await page.locator('body').textContent())!;
    expect(body).not.toContain('Randria Secret');
    expect(body).not.toContain('Texte interne');
    expect(body).not.toContain(ADMIN.email);
  });

  it("shows 'Chargement du résumé...' while the summary loads", async () => {
    const page = await e.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/trpc/signalements.resume**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/admin/resume/${code}`);
    await expect.poll(() => page.getByText('Chargement du résumé...').isVisible()).toBe(true);
    release();
    await page.getByTestId('resume-header').waitFor();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it("shows the 'Erreur' card for an unknown code", async () => {
    e.allowConsoleErrors(/status of 404/);
    const page = await e.newPage();
    await page.goto('/admin/resume/SIG-INCONNU');
    const card = page.getByTestId('resume-error');
    await card.waitFor();
    expect(await card.getByRole('heading', { name: 'Erreur' }).isVisible()).toBe(true);
    expect(await card.textContent()).toContain('Impossible de charger les détails du signalement');
  });
});
