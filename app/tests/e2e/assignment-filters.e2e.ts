import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '#server/domains/utilisateurs/service';
import { createReportByApi, useE2E } from './harness';
import { ADMIN, PASSWORD } from './sign-in';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const LIST = '/admin/signalement/list';

const search = (page: Page) => new URL(page.url()).searchParams;
const totalText = (page: Page) => page.getByTestId('pagination-total').textContent();
const rowCodes = (page: Page) =>
  page.getByTestId('signalement-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')));
const assigneesOf = (page: Page, code: string) =>
  page.locator(`[data-testid="signalement-row"][data-code="${code}"]`).getByTestId('assignees-cell');

/**
 * The list's « Assigné à » filter and « Échéance » sort, and an administrator's « Mes dossiers » cards
 * (docs/decisions/0028, 0032), on six reports of this file only: two assigned to Rakoto (one of them also
 * to Rasoa), one to Rasoa alone, three to nobody, one of which is treated; four with a niveau filed long ago
 * (overdue), two without (no deadline). Filing order and due order differ, so a sort that ignored the due
 * day would show.
 */
describe('« Assigné à », « Échéance » and the administrator’s « Mes dossiers »', () => {
  const e = useE2E({}, { closeTestPages: true });
  const codes = { r1: '', r2: '', r3: '', r4: '', r5: '', r6: '' };
  const echeances = new Map<string, string | null>();
  const users = { rakoto: '', rasoa: '' };

  const adminPage = () => e.newPage({ width: 1440, height: 900, signedInAs: ADMIN });

  beforeAll(async () => {
    for (const [key, email, nomPrenom] of [
      ['rakoto', 'rakoto@example.mg', 'Rakoto Assigne'],
      ['rasoa', 'rasoa@example.mg', 'Rasoa Collegue'],
    ] as const) {
      users[key] = (
        await createUser(e.running.db, { email, roleCode: 'ROLE_USER', nomPrenom, password: PASSWORD })
      ).code;
    }
    const page = await adminPage();
    const plan: Array<[keyof typeof codes, string, string | null | 'TRAITE', Array<keyof typeof users>]> = [
      ['r1', '2025-03-10', 'CRITIQUE', ['rakoto']],
      ['r2', '2025-02-03', 'FAIBLE', ['rakoto', 'rasoa']],
      ['r3', '2025-01-06', 'CRITIQUE', []],
      ['r4', '2025-03-12', null, []],
      ['r5', '2025-03-11', 'ELEVE', ['rasoa']],
      // Treated: listed under « Non assigné » but not counted among the open unassigned reports.
      ['r6', '2025-01-02', 'TRAITE', []],
    ];
    for (const [key, signalementAt, niveau, assignees] of plan) {
      const code = await createReportByApi(page, { signalementAt });
      if (niveau) {
        const res = await page.request.patch(`/api/signalements/${code}`, {
          headers: { ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
          data: JSON.stringify(
            niveau === 'TRAITE' ? { statut: '/api/statuts/TRAITE' } : { niveau: `/api/niveaux/${niveau}` },
          ),
        });
        expect(res.status(), await res.text()).toBe(200);
      }
      codes[key] = code;
      for (const who of assignees) {
        const res = await page.request.post(`/api/signalements/${code}/assignes`, {
          headers: SAME_ORIGIN,
          data: { utilisateur: `/api/utilisateurs/${users[who]}` },
        });
        expect(res.status(), await res.text()).toBe(201);
      }
      const res = await page.request.get(`/api/signalements/${code}`);
      expect(res.status(), await res.text()).toBe(200);
      echeances.set(code, ((await res.json()) as { echeance: string | null }).echeance);
    }
    await page.context().close();
  });

  it('filters on a colleague, then on « Non assigné »: rows, total and URL agree, and a reload keeps the filter', async () => {
    const page = await adminPage();
    await page.goto(LIST);
    // The first list read starts the server's read threads: slow on a loaded machine.
    await expect.poll(() => totalText(page), { timeout: 30_000 }).toBe('Total: 6 élément(s)');

    await page.getByRole('button', { name: /^Filtrer par assigné/ }).click();
    await page
      .getByTestId('filter-assignee')
      .getByRole('option', { name: /Rakoto Assigne/ })
      .click();
    await expect.poll(() => search(page).get('assigne')).toBe(users.rakoto);
    await expect.poll(() => totalText(page)).toBe('Total: 2 élément(s)');
    expect((await rowCodes(page)).sort()).toEqual([codes.r1, codes.r2].sort());
    expect(await assigneesOf(page, codes.r1).textContent()).toBe('Rakoto Assigne');
    expect(await assigneesOf(page, codes.r2).textContent()).toContain('Rakoto Assigne');

    await page.reload();
    await expect.poll(() => totalText(page), { timeout: 30_000 }).toBe('Total: 2 élément(s)');
    expect(search(page).get('assigne')).toBe(users.rakoto);
    expect((await rowCodes(page)).sort()).toEqual([codes.r1, codes.r2].sort());
    await expect
      .poll(() => page.getByRole('button', { name: /^Filtrer par assigné/ }).getAttribute('aria-label'))
      .toBe('Filtrer par assigné : Rakoto Assigne');

    await page.getByRole('button', { name: /^Filtrer par assigné/ }).click();
    await page
      .getByTestId('filter-assignee')
      .getByRole('option', { name: 'Non assigné', exact: true })
      .click();
    await expect.poll(() => search(page).get('assigne')).toBe('aucun');
    await expect.poll(() => totalText(page)).toBe('Total: 3 élément(s)');
    const unassigned = [codes.r3, codes.r4, codes.r6].sort();
    await expect.poll(async () => (await rowCodes(page)).sort()).toEqual(unassigned);
    for (const code of unassigned) expect(await assigneesOf(page, code).textContent()).toBe('Non assigné');

    await page.reload();
    await expect.poll(() => totalText(page), { timeout: 30_000 }).toBe('Total: 3 élément(s)');
    expect(search(page).get('assigne')).toBe('aucun');
    expect((await rowCodes(page)).sort()).toEqual(unassigned);
    expect(await page.getByRole('button', { name: /^Filtrer par assigné/ }).getAttribute('aria-label')).toBe(
      'Filtrer par assigné : Non assigné',
    );
  });

  it('shows an administrator the unassigned and overdue counts, each opening the list so filtered', async () => {
    const page = await adminPage();
    const open = async (key: 'unassigned' | 'all-overdue', expected: number, params: string) => {
      await page.goto('/admin/dashboard');
      const card = page.getByTestId(`my-cases-${key}`);
      await expect
        .poll(() => card.getByTestId('my-cases-value').textContent(), { timeout: 30_000 })
        .toBe(String(expected));
      await card.click();
      await page.waitForURL((url) => url.pathname === LIST && url.search === `?${params}`);
      // The card's number is the opened list's total.
      await expect.poll(() => totalText(page), { timeout: 30_000 }).toBe(`Total: ${expected} élément(s)`);
      return (await rowCodes(page)).sort();
    };
    // Open and without an assignee: r3 and r4, not the treated r6; the list shows the state it is filtered on.
    expect(await open('unassigned', 2, 'assigne=aucun&etat=ouvert')).toEqual([codes.r3, codes.r4].sort());
    expect(await page.getByRole('button', { name: /^Filtrer par état/ }).getAttribute('aria-label')).toBe(
      'Filtrer par état : Ouverts',
    );
    // « Mes dossiers ouverts » opens my open cases too (the sidebar's « Mes dossiers » keeps all of them).
    await page.goto('/admin/dashboard');
    expect(await page.getByTestId('my-cases-mine').getAttribute('href')).toMatch(
      /\?assigne=[^&]+&etat=ouvert$/,
    );
    // Every report with a niveau was due long ago: all but r4 (and r6, treated).
    expect(await open('all-overdue', 4, 'echeance=en_retard')).toEqual(
      [codes.r1, codes.r2, codes.r3, codes.r5].sort(),
    );
  });

  it('sorts by due day, nearest first and reports without a deadline last, from a URL a reload keeps', async () => {
    const byDue = Object.values(codes)
      .filter((c) => echeances.get(c))
      .sort((a, b) => echeances.get(a)!.localeCompare(echeances.get(b)!));
    expect(new Set(byDue.map((c) => echeances.get(c))).size, 'distinct due days').toBe(4);
    // Without a deadline: by id, r4 filed in this file before r6.
    const expected = [...byDue, codes.r4, codes.r6];

    const page = await adminPage();
    await page.goto(LIST);
    await expect.poll(() => totalText(page), { timeout: 30_000 }).toBe('Total: 6 élément(s)');
    // The default sort (most recent filing first) is another order.
    const recent = await rowCodes(page);
    expect(recent).toEqual([codes.r4, codes.r5, codes.r1, codes.r2, codes.r3, codes.r6]);
    expect(recent).not.toEqual(expected);

    const listCall = page.waitForRequest(
      (req) =>
        req.url().includes('signalements.list') &&
        decodeURIComponent(req.url()).includes('"order":{"echeance":"asc"}'),
    );
    await page.getByTestId('sort-select').selectOption({ label: 'Échéance' });
    await listCall;
    await expect.poll(() => search(page).get('tri')).toBe('echeance');
    await expect.poll(() => rowCodes(page)).toEqual(expected);
    const cells = await page.getByTestId('signalement-table').getByTestId('echeance-cell').allTextContents();
    expect(cells.slice(0, 4).every((t) => t.includes('En retard'))).toBe(true);

    await page.reload();
    await expect.poll(() => rowCodes(page), { timeout: 30_000 }).toEqual(expected);
    expect(await page.getByTestId('sort-select').inputValue()).toBe('echeance');
  });
});
