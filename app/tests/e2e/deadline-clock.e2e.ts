import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addBusinessDays, businessDay, dayNumber, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, movableClock, useE2E } from './harness';
import { PASSWORD } from './sign-in';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const AGENT = { email: 'agent@example.mg', password: PASSWORD };

/**
 * A deadline going overdue (docs/decisions/0032-deadlines.md) with the server's clock moved, not the
 * report's filing date: a report filed today with niveau Critique (7 business days) is on time, then due
 * within 7 days, then « En retard » once its due day has passed. The list and its deadline filters are
 * answered on the server's read threads (SQLite), which must read the server's clock, not the system's:
 * with the system's, the filters would not find the report. The tab computes its own « today » (the
 * badge, the days left), so its clock is moved by as much.
 */
describe('a deadline going overdue as the server’s clock moves', () => {
  const clock = movableClock();
  const e = useE2E({}, { clock, closeTestPages: true });
  const today = businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE);
  const due = addBusinessDays(today, 7);
  const daysToDue = dayNumber(due) - dayNumber(today);
  const codes = { critique: '', sans: '' };

  beforeAll(async () => {
    await e.user(AGENT.email, 'ROLE_USER', 'Rabe Agent');
    const page = await e.newPage({ signedInAs: AGENT });
    codes.critique = await createReportByApi(page, { signalementAt: today });
    codes.sans = await createReportByApi(page, { signalementAt: today });
    const res = await page.request.patch(`/api/signalements/${codes.critique}`, {
      headers: { ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
      data: JSON.stringify({ niveau: '/api/niveaux/CRITIQUE' }),
    });
    expect(res.status(), await res.text()).toBe(200);
    expect((await res.json()).echeance).toBe(due);
    await page.context().close();
  });

  /** Moves the server's clock `days` days ahead of today, and opens a page whose tab is as far ahead. */
  async function pageOnDay(days: number): Promise<Page> {
    clock.setDaysAhead(days);
    const page = await e.newPage({ signedInAs: AGENT });
    await page.clock.setFixedTime(clock.now());
    return page;
  }
  const row = (page: Page, code: string) =>
    page.locator(`[data-testid="signalement-row"][data-code="${code}"]`);
  /** The list under a deadline filter, opened by its URL: the codes it shows once its total is `total`. */
  async function filtered(page: Page, echeance: 'en_retard' | 'sous_7_jours', total: number) {
    await page.goto(`/admin/signalement/list?echeance=${echeance}`);
    await expect
      .poll(() => page.getByTestId('pagination-total').textContent(), { timeout: 30_000 })
      .toBe(`Total: ${total} élément(s)`);
    return page.getByTestId('signalement-row').evaluateAll((rows) => rows.map((r) => r.dataset.code));
  }

  it(`is on time the day it is filed: due in ${daysToDue} calendar days, found by neither filter`, async () => {
    const page = await pageOnDay(0);
    await page.goto('/admin/signalement/list');
    // The first list read starts the server's read threads: slow on a loaded machine.
    await row(page, codes.critique).waitFor({ timeout: 30_000 });
    expect(await row(page, codes.critique).getByTestId('echeance-cell').textContent()).toContain(
      `J-${daysToDue}`,
    );
    expect(await row(page, codes.critique).getByTestId('echeance-en-retard').count()).toBe(0);
    // Seven business days always span a weekend: more than 7 calendar days away.
    expect(daysToDue).toBeGreaterThan(7);
    expect(await filtered(page, 'sous_7_jours', 0)).toEqual([]);
    expect(await filtered(page, 'en_retard', 0)).toEqual([]);
  });

  it('is « À échéance sous 7 jours », not « En retard », three days before its due day', async () => {
    const page = await pageOnDay(daysToDue - 3);
    expect(await filtered(page, 'sous_7_jours', 1)).toEqual([codes.critique]);
    expect(await row(page, codes.critique).getByTestId('echeance-cell').textContent()).toContain('J-3');
    expect(await row(page, codes.critique).getByTestId('echeance-en-retard').count()).toBe(0);
    expect(await filtered(page, 'en_retard', 0)).toEqual([]);
  });

  it('is « En retard » two days after its due day: the badge, the filter and the days overdue on the detail', async () => {
    const page = await pageOnDay(daysToDue + 2);
    await page.goto('/admin/signalement/list');
    await row(page, codes.critique).waitFor({ timeout: 30_000 });
    const badge = row(page, codes.critique).getByTestId('echeance-en-retard');
    expect(await badge.textContent()).toBe('En retard');
    expect(await row(page, codes.sans).getByTestId('echeance-en-retard').count()).toBe(0);
    const violations = await seriousViolations(page);
    expect(violations, `liste avec un signalement en retard :\n${describeViolations(violations)}`).toEqual(
      [],
    );

    // The filter panel's « En retard », as a user picks it.
    await page.getByRole('button', { name: /Filtrer par échéance/ }).click();
    await page.getByTestId('filter-echeance').getByRole('option', { name: 'En retard', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('echeance')).toBe('en_retard');
    await expect.poll(() => page.getByTestId('pagination-total').textContent()).toBe('Total: 1 élément(s)');
    expect(await row(page, codes.critique).count()).toBe(1);
    expect(await filtered(page, 'sous_7_jours', 0)).toEqual([]);

    await page.goto(`/admin/signalement/detail/${codes.critique}`);
    const value = page.getByTestId('echeance-value');
    await expect.poll(() => value.textContent(), { timeout: 30_000 }).toContain('En retard de 2 jours');
    expect(await value.getByTestId('echeance-en-retard').textContent()).toBe('En retard');
  });
});
