// Printing (docs/decisions/0043-print-view.md): the detail's « Imprimer » opens the print view, which prints
// as a clean A4 document (no button or link on paper, « Imprimé le … par … », a usual report on two pages),
// logs the print (the history and the internal notes only when asked), and the list prints as its table alone.
import { asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { useE2E } from './harness';
import { PASSWORD } from './sign-in';
import { pdfPages, pdfText } from './pdf';

const CREATOR = { email: 'imprimeur@example.mg', password: PASSWORD };
const AUTEUR = 'Randrianarisoa Auteur-Imprimé';
const SOURCE = 'Rasoanirina Source-Imprimée';
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const NOTE = 'Témoin rappelé le lendemain.';

/** Elements a reader could click that the printed page still shows (a visually hidden skip link is 1 px). */
const visibleControls = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('button, a, input, select, textarea, [role="button"]')].filter((el) => {
        const box = (el as HTMLElement).getBoundingClientRect();
        return box.width > 1 && box.height > 1 && getComputedStyle(el).visibility !== 'hidden';
      }).length,
  );

describe('printing a report and the list', () => {
  const e = useE2E({}, { closeTestPages: true });
  let code: string;

  beforeAll(async () => {
    await e.user(CREATOR.email, 'ROLE_USER', 'Rabe Imprimeur');
    const setup = await e.newPage({ signedInAs: CREATOR });
    const post = async (url: string, data: object) => {
      const res = await setup.request.post(url, { headers: SAME_ORIGIN, data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { code: string };
    };
    ({ code } = await post('/api/signalements', {
      partenaire: '/api/partenaires/IVY',
      subjects: ['/api/subjects/CORRUPTION'],
      canalPrincipal: '/api/canals/TELEPHONE',
      signalementAt: '2025-03-10',
      description: 'Un agent demande de l’argent pour délivrer un acte de naissance.',
    }));
    const signalement = `/api/signalements/${code}`;
    await post('/api/presume_auteurs', { signalement, nomPrenom: AUTEUR, fonction: 'Agent d’état civil' });
    await post('/api/sources', { signalement, nomPrenom: SOURCE, canaux: ['/api/canals/TELEPHONE'] });
    await post('/api/victimes', { signalement, nomPrenom: 'Rabearivelo Victime', contact: '034 00 000 00' });
    await post(`${signalement}/notes`, { texte: NOTE });
    // The detail's first read starts the server's read thread, whose start on a loaded machine can pass the
    // read's deadline (a 503 the detail shows as a failed load): started here, outside the tests.
    await vi.waitFor(async () => expect((await setup.request.get(signalement)).status()).toBe(200), {
      timeout: 100_000,
      interval: 2000,
    });
    await setup.context().close();
  });

  async function printEntries() {
    const { db } = e.running;
    const l = db.t.accessLog;
    return db.read.select().from(l).where(eq(l.kind, 'impression')).orderBy(asc(l.id));
  }

  it('opens from the detail menu, prints no control, names the reader, fits a usual report on two A4 pages and logs it', async () => {
    const before = (await printEntries()).length;
    const page = await e.newPage({ signedInAs: CREATOR });
    await page.goto(`/admin/signalement/detail/${code}`);
    await page.getByTestId('other-actions').click();
    await page.getByTestId('print-action').click();
    await page.waitForURL(`**/admin/signalement/imprimer/${code}`);
    const document = page.getByTestId('print-document');
    await expect.poll(() => document.isVisible()).toBe(true);
    const text = (await document.textContent()) ?? '';
    expect(text).toContain(code);
    expect(text).toMatch(/Imprimé le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} par Rabe Imprimeur/);
    for (const shown of [AUTEUR, SOURCE, 'Ivorary']) expect(text).toContain(shown);
    // The history and the internal notes only when asked: both boxes unticked by default.
    expect(await page.getByTestId('print-history').count()).toBe(0);
    expect(await page.getByTestId('print-notes').count()).toBe(0);
    expect(text).not.toContain(NOTE);
    expect(await page.getByTestId('print-with-notes').isChecked()).toBe(false);
    expect(await page.getByTestId('print-with-history').isChecked()).toBe(false);
    // On screen, the toolbar; on paper, nothing to click.
    expect(await visibleControls(page)).toBeGreaterThan(0);
    await page.emulateMedia({ media: 'print' });
    expect(await visibleControls(page)).toBe(0);
    // Without the notes and the history (not asked), at most two numbered pages.
    const pdf = await page.pdf({ format: 'A4' });
    const pages = pdfPages(pdf);
    expect(pages).toBeLessThanOrEqual(2);
    expect(await pdfText(pdf)).toContain(`Page ${pages} / ${pages}`);

    const entries = (await printEntries()).slice(before);
    expect(entries.map((r) => [r.signalementCode, r.userEmail])).toEqual([[code, CREATOR.email]]);
    expect(entries[0]!.details).toMatchObject({ auteurs: { nombre: 1 }, sources: { nombre: 1 } });
    expect(entries[0]!.details).not.toHaveProperty('notes');
  });

  it('adds the internal notes when « Inclure les notes internes » is ticked, and logs that they were printed', async () => {
    const before = (await printEntries()).length;
    const page = await e.newPage({ signedInAs: CREATOR });
    await page.goto(`/admin/signalement/imprimer/${code}`);
    await expect.poll(() => page.getByTestId('print-document').isVisible()).toBe(true);
    await page.getByRole('checkbox', { name: 'Inclure les notes internes' }).check();
    await page.waitForURL(`**/admin/signalement/imprimer/${code}?notes=1`);
    const notes = page.getByTestId('print-notes');
    await expect.poll(() => notes.textContent()).toContain(NOTE);
    expect(await page.getByTestId('print-history').count()).toBe(0);
    await expect
      .poll(async () => (await printEntries()).slice(before).map((r) => r.details.notes))
      .toEqual([undefined, { nombre: 1 }]);
  });

  it('adds the history and the notes when asked, still within two numbered pages', async () => {
    const page = await e.newPage({ signedInAs: CREATOR });
    await page.goto(`/admin/signalement/imprimer/${code}`);
    await page.getByTestId('print-with-history').check();
    await page.waitForURL(`**/admin/signalement/imprimer/${code}?historique=1`);
    await page.getByTestId('print-with-notes').check();
    await page.waitForURL(`**/admin/signalement/imprimer/${code}?historique=1&notes=1`);
    await expect.poll(() => page.getByTestId('print-notes').textContent()).toContain(NOTE);
    const history = page.getByTestId('print-history');
    await expect.poll(() => history.textContent()).toContain('Rabe Imprimeur');
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdfPages(pdf)).toBe(2);
    expect(await pdfText(pdf)).toContain('Page 2 / 2');
  });

  it('has no serious accessibility violation on a desktop and a phone', async () => {
    for (const size of [{}, { width: 375, height: 812 }]) {
      const page = await e.newPage({ ...size, signedInAs: CREATOR });
      await page.goto(`/admin/signalement/imprimer/${code}?historique=1&notes=1`);
      await expect.poll(() => page.getByTestId('print-history').isVisible()).toBe(true);
      await expect.poll(() => page.getByTestId('print-notes').isVisible()).toBe(true);
      await settleAnimations(page);
      const violations = await seriousViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
  });

  it('prints the list as its table alone, on landscape pages without the sidebar', async () => {
    const page = await e.newPage({ signedInAs: CREATOR });
    await page.goto('/admin/signalement/list');
    await expect.poll(() => page.getByTestId('signalement-row').count()).toBe(1);
    const sidebarText = 'Tableau de bord';
    expect(await page.getByText(sidebarText).first().isVisible()).toBe(true);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('signalement-table').isVisible()).toBe(true);
    expect(await page.getByText(sidebarText).first().isVisible()).toBe(false);
    // Only the rows' links to their detail are left.
    expect(await visibleControls(page)).toBe(1);
    const pdf = await page.pdf({ preferCSSPageSize: true });
    expect(pdfPages(pdf)).toBe(1);
    const [width, height] = pdfMediaBox(pdf);
    expect(width).toBeGreaterThan(height);
    const printed = await pdfText(pdf);
    expect(printed).toContain(code);
    expect(printed).not.toContain(sidebarText);
    expect(printed).not.toContain('Nouveau signalement');
  });
});

function pdfMediaBox(pdf: Buffer): [number, number] {
  const box = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
  if (!box) throw new Error('PDF sans /MediaBox');
  return [Number(box[1]), Number(box[2])];
}
