import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_PAGE_SIZE } from '#shared/schemas/journal';
import { toast, useE2E } from './harness';
import { ADMIN, loginAs, PASSWORD, signInByApi } from './sign-in';

const READER = { email: 'lecteur@example.mg', nomPrenom: 'Rakoto Lecteur' };
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
/** Distinct reports whose people, read within the window, raise an alert (the server's ACCESS_ALERT_READS). */
const ALERT_READS = 3;

async function createReport(page: Page): Promise<string> {
  const created = await page.request.post('/api/signalements', {
    headers: SAME_ORIGIN,
    data: {
      partenaire: '/api/partenaires/IVY',
      subjects: ['/api/subjects/CORRUPTION'],
      canalPrincipal: '/api/canals/TELEPHONE',
      signalementAt: '2025-03-10',
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { code: string }).code;
}

/** The user reads a report's sources, as its detail screen does. */
async function readSources(page: Page, code: string): Promise<void> {
  const input = encodeURIComponent(JSON.stringify({ signalement: code }));
  const res = await page.request.get(`/trpc/sources.list?input=${input}`);
  expect(res.status()).toBe(200);
}

/**
 * Decision 0015, "Alerts": a plain user reading the people of many reports raises an alert; the administrator
 * sees it on the dashboard, follows it to the user's entries in 'Journal des accès', narrows and exports
 * them, then marks the alert seen. The log and its entry stay out of a plain user's reach.
 */
describe("the access log ('Journal des accès') and the dashboard alerts, in a real browser", () => {
  const e = useE2E({ ACCESS_ALERT_READS: String(ALERT_READS) });
  const reports: string[] = [];
  beforeAll(async () => {
    await e.user(READER.email, 'ROLE_USER', READER.nomPrenom);
    const reader = await e.newPage();
    await signInByApi(reader, READER.email, PASSWORD);
    for (let i = 0; i < ALERT_READS; i++) reports.push(await createReport(reader));
    // Enough reads for more than one page of the reader's entries; the distinct reports raise the alert.
    const rounds = Math.ceil((JOURNAL_PAGE_SIZE + 1) / ALERT_READS);
    for (let round = 0; round < rounds; round++) {
      for (const code of reports) await readSources(reader, code);
    }
  });

  it('leads the administrator from the alert to the filtered log, its pages, its export, and marks the alert seen', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);

    // The alert at the top of the dashboard.
    const alerts = page.getByTestId('access-alert');
    await alerts.first().waitFor();
    expect(await alerts.count()).toBe(1);
    const alert = alerts.first();
    expect(await alert.getByTestId('access-alert-kind').textContent()).toBe(
      'Lecture inhabituelle de personnes',
    );
    const message = await alert.getByTestId('access-alert-message').textContent();
    expect(message).toContain(READER.nomPrenom);
    expect(message).toContain(READER.email);

    // 'Voir le journal': the reader's entries only.
    await alert.getByRole('link', { name: 'Voir le journal' }).click();
    await page.waitForURL(/\/admin\/journal-acces\?utilisateur=[^&]+$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Journal des accès' }).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByTestId('journal-filter-utilisateur').textContent())
      .toContain(READER.nomPrenom);
    const rows = page.getByTestId('journal-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(JOURNAL_PAGE_SIZE);
    for (const user of await page.getByTestId('journal-row-user').allTextContents())
      expect(user).toContain(READER.email);
    // formatNumber groups thousands with a narrow no-break space: « 1 234 entrée(s) au total ».
    const total = Number(
      /^(\d[\d\u202f\u00a0 ]*) entrée\(s\) au total$/
        .exec((await page.getByTestId('journal-total').textContent()) ?? '')?.[1]
        ?.replace(/\D/g, ''),
    );
    expect(total).toBeGreaterThan(JOURNAL_PAGE_SIZE);
    // One total, in one format: the pagination below the table does not repeat it.
    expect(await page.getByTestId('pagination-total').count()).toBe(0);
    expect(await page.getByText(/au total|Total\s?:/).count()).toBe(1);
    const reads = page.locator('[data-testid="journal-row"][data-kind="lecture_personnes"]');
    expect(await reads.first().getByTestId('journal-row-kind').textContent()).toBe('Lecture des personnes');
    const link = reads.first().getByTestId('journal-row-signalement').getByRole('link');
    expect(reports).toContain(await link.textContent());
    expect(await link.getAttribute('href')).toBe(`/admin/signalement/detail/${await link.textContent()}`);
    expect(await reads.first().getByTestId('journal-row-at').textContent()).toMatch(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/,
    );

    // The second page, kept in the address bar.
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.waitForURL(/[?&]page=2/);
    await expect
      .poll(() => page.getByTestId('pagination-page').textContent())
      .toBe(`Page 2 sur ${Math.ceil(total / JOURNAL_PAGE_SIZE)}`);
    await expect.poll(() => rows.count()).toBe(total - JOURNAL_PAGE_SIZE);

    // A period ending before it starts is refused with the shared schema's message.
    await page.getByLabel('Du', { exact: true }).fill('10/03/2025');
    await page.getByLabel('Au', { exact: true }).fill('01/03/2025');
    await page.getByRole('button', { name: 'Filtrer', exact: true }).click();
    await expect
      .poll(() =>
        page.getByText('La date de fin doit être postérieure ou égale à la date de début.').isVisible(),
      )
      .toBe(true);
    expect(new URL(page.url()).searchParams.get('du')).toBeNull();
    await page.getByLabel('Du', { exact: true }).fill('');
    await page.getByLabel('Au', { exact: true }).fill('');

    // By kind: the reader's log-in only, back on page 1.
    await page.getByLabel("Type d'accès").selectOption({ label: 'Connexion' });
    await page.getByRole('button', { name: 'Filtrer', exact: true }).click();
    await page.waitForURL(
      (url) => url.searchParams.get('kind') === 'connexion' && !url.searchParams.has('page'),
    );
    await expect.poll(() => page.getByTestId('journal-total').textContent()).toBe('1 entrée(s) au total');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getByTestId('journal-row-kind').textContent()).toBe('Connexion');

    // The xlsx of these filters.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exporter (xlsx)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    // An xlsx is a zip archive.
    expect(
      readFileSync((await file.path())!)
        .subarray(0, 2)
        .toString('latin1'),
    ).toBe('PK');
    await toast(page, 'Export réussi ! 1 entrée(s) exportée(s)').waitFor();

    // A filter that matches nothing says so.
    await page.getByLabel('Code du signalement').fill('SIG-INEXISTANT');
    await page.getByRole('button', { name: 'Filtrer', exact: true }).click();
    await expect.poll(() => page.getByTestId('journal-empty').textContent()).toBe('Aucune entrée trouvée.');

    // Back on the dashboard, the alert marked seen goes away.
    await page.getByTestId('sidebar').getByRole('link', { name: 'Tableau de bord' }).click();
    await page.waitForURL('**/admin/dashboard');
    await alert.getByRole('button', { name: 'Marquer comme vue' }).click();
    await toast(page, 'Alerte marquée comme vue.').waitFor();
    await expect.poll(() => page.getByTestId('access-alerts').count()).toBe(0);
  });

  it('shows a plain user neither the entry nor the log, and never asks for the alerts', async () => {
    const page = await e.newPage();
    const journalCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/trpc\/.*journal\./.test(request.url())) journalCalls.push(request.url());
    });
    await loginAs(page, READER.email, PASSWORD);
    await expect.poll(() => page.getByTestId('metrics-block').getAttribute('data-state')).toBe('ready');
    expect(await page.getByRole('link', { name: 'Liste des signalements' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Journal des accès' }).count()).toBe(0);

    await page.goto('/admin/journal-acces?utilisateur=USR1');
    await page.waitForURL('**/admin/dashboard');
    await expect.poll(() => page.getByTestId('metrics-block').getAttribute('data-state')).toBe('ready');
    expect(await page.getByTestId('journal-table').count()).toBe(0);
    expect(journalCalls).toEqual([]);
  });
});
