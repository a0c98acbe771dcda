import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { toast, useE2E } from './harness';
import { ADMIN, signInByApi } from './sign-in';

interface Collection {
  totalItems: number;
  member: Array<{
    code: string;
    partenaire: { code: string; designation: string };
    region: { code: string; designation: string } | null;
    district: { code: string; designation: string } | null;
  }>;
}

/** What the REST facade says for a §7 query: the reference the screen must agree with. */
async function api(page: Page, query: string): Promise<Collection> {
  const res = await page.request.get(`/api/signalements?${query}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Collection;
}

const search = (page: Page) => new URL(page.url()).searchParams;
const totalText = (page: Page) => page.getByTestId('pagination-total').textContent();
const rowCodes = (page: Page) =>
  page.getByTestId('signalement-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')));

describe('report list in a real browser', () => {
  const e = useE2E();
  let page: Page;
  beforeAll(async () => {
    await seedDemo(e.running.ctx, { reports: 45, seed: 11 });
    page = await e.newPage();
    // Through the REST log-in: the login form would land on the dashboard, whose charts and map are not
    // what these tests look at.
    await signInByApi(page, ADMIN.email, ADMIN.password);
  });

  it('shows the breadcrumb, 20 rows, the total and the page links of §2, and pages through the URL', async () => {
    await page.goto('/admin/signalement/list');
    // The file's first page of a fresh server on a loaded machine can take more than the poll's 10 s
    // (a CI run saw it): wait for the first row as the other tests do (Playwright's 30 s), then poll.
    await page.getByTestId('signalement-row').first().waitFor();
    await expect.poll(() => totalText(page)).toBe('Total: 45 élément(s)');
    expect(await page.getByTestId('breadcrumb').textContent()).toContain('Signalements');
    expect(await page.getByTestId('pagination-page').textContent()).toBe('Page 1 sur 3');
    expect(await page.getByTestId('signalement-row').count()).toBe(20);
    expect(await page.getByRole('button', { name: 'Page précédente' }).isDisabled()).toBe(true);

    const firstPage = await rowCodes(page);
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect.poll(() => search(page).get('page')).toBe('2');
    await expect.poll(() => page.getByTestId('pagination-page').textContent()).toBe('Page 2 sur 3');
    await expect.poll(async () => (await rowCodes(page))[0]).not.toBe(firstPage[0]);
    await page.getByRole('button', { name: 'Page suivante' }).click();
    await expect.poll(() => page.getByTestId('pagination-page').textContent()).toBe('Page 3 sur 3');
    await expect.poll(() => page.getByTestId('signalement-row').count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Page suivante' }).isDisabled()).toBe(true);

    await page.goBack();
    await expect.poll(() => page.getByTestId('pagination-page').textContent()).toBe('Page 2 sur 3');
    await page.goBack();
    await expect.poll(() => page.getByTestId('pagination-page').textContent()).toBe('Page 1 sur 3');
    expect(await rowCodes(page)).toEqual(firstPage);
  });

  it('filters by partner, keeps the filter in a bookmarkable URL, and the back button removes it', async () => {
    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    const partner = (await api(page, 'itemsPerPage=1')).member[0]!.partenaire;
    const expected = await api(page, `partenaire.code[]=${partner.code}&itemsPerPage=100`);

    await page.getByRole('button', { name: 'Filtrer par partenaire' }).click();
    await page.getByRole('checkbox', { name: partner.designation }).check();
    await expect.poll(() => search(page).getAll('partenaire')).toEqual([partner.code]);
    await expect.poll(() => totalText(page)).toBe(`Total: ${expected.totalItems} élément(s)`);
    expect((await rowCodes(page)).sort()).toEqual(
      expected.member
        .map((m) => m.code)
        .slice(0, 20)
        .sort(),
    );

    // The same URL in a new tab shows the same filtered list.
    const bookmarked = await e.newPage();
    await signInByApi(bookmarked, ADMIN.email, ADMIN.password);
    await bookmarked.goto(page.url());
    await expect.poll(() => totalText(bookmarked)).toBe(`Total: ${expected.totalItems} élément(s)`);

    await page.goBack();
    await expect.poll(() => totalText(page)).toBe('Total: 45 élément(s)');
    expect(search(page).getAll('partenaire')).toEqual([]);
  });

  it('filters by subject and by creator (searched in the picker), both kept in the URL', async () => {
    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    await page.getByRole('button', { name: 'Filtrer par objet' }).click();
    await page.getByRole('checkbox', { name: 'Corruption', exact: true }).check();
    await page.keyboard.press('Escape');
    const bySubject = await api(page, 'subjects.code[]=CORRUPTION');
    await expect.poll(() => search(page).getAll('objet')).toEqual(['CORRUPTION']);
    await expect.poll(() => totalText(page)).toBe(`Total: ${bySubject.totalItems} élément(s)`);

    // The list does not carry the creator (decision 0027): the report's own representation does.
    const reported = (await api(page, 'subjects.code[]=CORRUPTION&itemsPerPage=1')).member[0]!.code;
    const detail = await page.request.get(`/api/signalements/${reported}`);
    const { createdBy: creator } = (await detail.json()) as {
      createdBy: { code: string; nomPrenom: string };
    };
    await page.getByRole('button', { name: 'Filtrer par créateur' }).click();
    await page.getByRole('searchbox', { name: 'Rechercher...' }).fill(creator.nomPrenom);
    await page.getByRole('checkbox', { name: creator.nomPrenom }).check();
    const both = await api(page, `subjects.code[]=CORRUPTION&createdBy.code[]=${creator.code}`);
    await expect.poll(() => search(page).getAll('createur')).toEqual([creator.code]);
    await expect.poll(() => totalText(page)).toBe(`Total: ${both.totalItems} élément(s)`);
    expect(both.totalItems).toBeGreaterThan(0);

    // The picker closes first, as a user would: open, it may cover the reset button (the panel has more filters).
    await page.keyboard.press('Escape');
    await page.getByTestId('reset-filters').click();
    await expect.poll(() => totalText(page)).toBe('Total: 45 élément(s)');
  });

  it('searches 300 ms after typing, case- and accent-insensitively, and shows the empty state', async () => {
    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    const code = (await rowCodes(page))[3]!;
    await page.getByTestId('search-input').fill(code.toLowerCase());
    expect(search(page).get('q')).toBeNull();
    await expect.poll(() => search(page).get('q')).toBe(code.toLowerCase());
    await expect.poll(() => rowCodes(page)).toEqual([code]);
    expect(await totalText(page)).toBe('Total: 1 élément(s)');
    expect(await page.getByTestId('pagination-page').textContent()).toBe('Page 1 sur 1');
    expect(await page.getByRole('button', { name: 'Page suivante' }).count()).toBe(0);

    await page.getByTestId('search-input').fill('zzzz-introuvable-zzzz');
    await expect.poll(() => page.getByTestId('empty-state').textContent()).toBe('Aucun signalement trouvé.');
    expect(await totalText(page)).toBe('Total: 0 élément(s)');
    expect(await page.getByTestId('pagination-page').textContent()).toBe('Page 1 sur 1');
  });

  it('finds reports by a part of a word, in capitals, as the whole list shows them', async () => {
    const all = (await api(page, 'itemsPerPage=45')).member;
    // A part of a partner's designation, inside one of its words: 'INISTER' for 'Ministère'.
    const word = all
      .flatMap((m) =>
        m.partenaire.designation
          .normalize('NFD')
          .replace(/\p{M}/gu, '')
          .split(/[^A-Za-z]+/),
      )
      .find((w) => w.length >= 7)!;
    const part = word.slice(1, -1).toUpperCase();
    const holders = all.filter((m) =>
      m.partenaire.designation.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().includes(part),
    );
    expect(holders.length).toBeGreaterThan(0);

    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    await page.getByTestId('search-input').fill(part);
    await expect.poll(() => search(page).get('q')).toBe(part);
    const found = await api(page, `search=${encodeURIComponent(part)}&itemsPerPage=45`);
    expect(found.member.map((m) => m.code)).toEqual(expect.arrayContaining(holders.map((m) => m.code)));
    await expect.poll(() => totalText(page)).toBe(`Total: ${found.totalItems} élément(s)`);
    expect(await rowCodes(page)).toEqual(found.member.slice(0, 20).map((m) => m.code));
  });

  it('sorts by code and by partner, always descending', async () => {
    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    await page.getByTestId('sort-select').selectOption({ label: 'Code' });
    await expect.poll(() => search(page).get('tri')).toBe('code');
    const expected = await api(page, 'order[code]=desc&itemsPerPage=20');
    await expect.poll(() => rowCodes(page)).toEqual(expected.member.map((m) => m.code));

    await page.getByTestId('sort-select').selectOption({ label: 'Partenaire' });
    const byPartner = await api(page, 'order[partenaire.designation]=desc&itemsPerPage=20');
    await expect.poll(() => rowCodes(page)).toEqual(byPartner.member.map((m) => m.code));
    const names = byPartner.member.map((m) => m.partenaire.designation);
    expect([...names].sort((a, b) => b.localeCompare(a))).toEqual(names);
  });

  it('cascades region → district → commune: each waits for the one above and a new region clears them', async () => {
    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    const located = (await api(page, 'itemsPerPage=100')).member.find((m) => m.region && m.district)!;
    expect(await page.getByRole('button', { name: 'Filtrer par district' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Filtrer par commune' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Filtrer par région' }).click();
    await page
      .getByTestId('filter-region')
      .getByRole('option', { name: located.region!.designation, exact: true })
      .click();
    await expect.poll(() => search(page).get('region')).toBe(located.region!.code);
    const inRegion = await api(page, `region.code=${located.region!.code}`);
    await expect.poll(() => totalText(page)).toBe(`Total: ${inRegion.totalItems} élément(s)`);

    await page.getByRole('button', { name: 'Filtrer par district' }).click();
    await page
      .getByTestId('filter-district')
      .getByRole('option', { name: located.district!.designation, exact: true })
      .click();
    await expect.poll(() => search(page).get('district')).toBe(located.district!.code);
    expect(await page.getByRole('button', { name: 'Filtrer par commune' }).isDisabled()).toBe(false);

    await page.getByRole('button', { name: 'Filtrer par région' }).click();
    await page
      .getByTestId('filter-region')
      .getByRole('option')
      .filter({ hasNotText: located.region!.designation })
      .first()
      .click();
    await expect.poll(() => search(page).get('district')).toBeNull();
    expect(await page.getByRole('button', { name: 'Filtrer par commune' }).isDisabled()).toBe(true);
  });

  it('filters by report date after and before', async () => {
    await page.goto('/admin/signalement/list?du=2000-01-01&au=2000-12-31');
    await expect.poll(() => page.getByTestId('empty-state').isVisible()).toBe(true);
    expect(await page.getByTestId('filter-after').inputValue()).toBe('01/01/2000');
    const all = await api(page, 'itemsPerPage=100&order[signalementAt]=desc');
    const middle = all.member[10]!.code;
    const report = (await (await page.request.get(`/api/signalements/${middle}`)).json()) as {
      signalementAt: string;
    };
    const day = report.signalementAt.slice(0, 10);
    await page.goto(`/admin/signalement/list?du=${day}`);
    const expected = await api(page, `signalementAt[after]=${day}`);
    await expect.poll(() => totalText(page)).toBe(`Total: ${expected.totalItems} élément(s)`);
    expect(expected.totalItems).toBeGreaterThan(0);
    expect(expected.totalItems).toBeLessThan(45);
  });

  it('exports the filtered list as xlsx with the §8 toast; the file has one row per report', async () => {
    const partner = (await api(page, 'itemsPerPage=1')).member[0]!.partenaire;
    const expected = await api(page, `partenaire.code[]=${partner.code}&itemsPerPage=100`);
    await page.goto(`/admin/signalement/list?partenaire=${partner.code}`);
    await expect.poll(() => totalText(page)).toBe(`Total: ${expected.totalItems} élément(s)`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-button').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^signalements_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const exported = toast(page, 'Export réussi');
    await expect
      .poll(() => exported.textContent())
      .toContain(`Export réussi ! ${expected.totalItems} signalement(s) exporté(s)`);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.getWorksheet('Signalements')!;
    expect(sheet.rowCount - 1).toBe(expected.totalItems);
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const codeCol = header.indexOf('Code');
    const partnerCol = header.indexOf('Partenaire');
    const codes: string[] = [];
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      codes.push(String(row.getCell(codeCol).value));
      expect(row.getCell(partnerCol).value).toBe(partner.designation);
    });
    expect(codes.sort()).toEqual(expected.member.map((m) => m.code).sort());
  });

  it('exports a description that looks like a formula as a string cell with the exact text, no apostrophe', async () => {
    const { signalements: s } = e.running.db.t;
    const code = (await api(page, 'itemsPerPage=1')).member[0]!.code;
    const formula = '=HYPERLINK("http://evil.example","clic")';
    await e.running.db.transaction((tx) =>
      tx.update(s).set({ description: formula }).where(eq(s.code, code)),
    );
    await page.goto(`/admin/signalement/list?q=${encodeURIComponent(code)}`);
    await expect.poll(() => totalText(page)).toBe('Total: 1 élément(s)');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-button').click(),
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.getWorksheet('Signalements')!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const cell = sheet.getRow(2).getCell(header.indexOf('Description'));
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe(formula);
    sheet.eachRow((row) => row.eachCell((c) => expect(c.type).not.toBe(ExcelJS.ValueType.Formula)));
  });

  it('says the list could not be loaded, with a retry, instead of the empty state and a total of 0', async () => {
    // tRPC batches queries in one request (/trpc/a,b?batch=1): fail every request that carries the list.
    const carriesList = (url: URL) =>
      url.pathname.startsWith('/trpc/') &&
      url.pathname.split(',').some((p) => p.endsWith('signalements.list'));
    // Loaded first: the first load asks for the session and the list together (web/preload.ts), and a failed
    // session check is another screen. A later load of the list fails alone.
    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    await page.route(carriesList, (route) => route.abort());
    e.allowConsoleErrors(/Chargement des signalements impossible|net::ERR_FAILED/);
    await page.getByTestId('search-input').fill('zz-echec');
    const error = page.getByTestId('list-error');
    await error.waitFor();
    expect(await error.getByText('Impossible de charger les signalements.').isVisible()).toBe(true);
    expect(await page.getByText('Aucun signalement trouvé.').count()).toBe(0);
    expect(await page.getByTestId('pagination-total').count()).toBe(0);
    await page.unroute(carriesList);
    await error.getByRole('button', { name: 'Réessayer' }).click();
    await page.getByTestId('empty-state').waitFor();
    expect(await page.getByTestId('list-error').count()).toBe(0);
  });

  it("shows the server's failure in the export toast", async () => {
    await page.goto('/admin/signalement/list');
    await page.route('**/api/signalements/export/xlsx**', (route) =>
      route.fulfill({ status: 503, body: '' }),
    );
    e.allowConsoleErrors(/status of 503/);
    await page.getByTestId('export-button').click();
    const failed = toast(page, "Erreur lors de l'export");
    await expect
      .poll(() => failed.textContent())
      .toContain(
        "Erreur lors de l'export: Service momentanément indisponible, réessayez dans quelques instants.",
      );
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
