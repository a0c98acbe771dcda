import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createReportByApi, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

const LATE = '2025-11-20T20:30:00.000Z'; // 23:30 on 20 November in Madagascar
const EARLY = '2025-11-20T21:30:00.000Z'; // 00:30 on 21 November in Madagascar

/**
 * Decision 0018: the screens, the list filters and the public summary use the same Madagascar
 * days, whatever the browser's own time zone (here New York, where both reports fall on the 20th).
 */
describe('one business calendar in the browser', () => {
  const e = useE2E();
  let page: Page;
  let late: string;
  let early: string;
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Agent Calendrier');
    page = await e.newPage({ timezoneId: 'America/New_York' });
    await signInByApi(page, 'agent@example.mg', PASSWORD);
    late = await createReportByApi(page, { signalementAt: LATE });
    early = await createReportByApi(page, { signalementAt: EARLY });
  });

  const rowOf = (code: string) => page.locator('table').getByRole('row').filter({ hasText: code });

  it('lists each report on its Madagascar day, and the day filter agrees with the dates shown', async () => {
    await page.goto('/admin/signalement/list');
    await expect.poll(() => rowOf(late).textContent()).toContain('20/11/2025');
    expect(await rowOf(early).textContent()).toContain('21/11/2025');

    await page.goto('/admin/signalement/list?du=2025-11-20&au=2025-11-20');
    await expect.poll(() => rowOf(late).count()).toBe(1);
    expect(await rowOf(early).count()).toBe(0);

    await page.goto('/admin/signalement/list?du=2025-11-21&au=2025-11-21');
    await expect.poll(() => rowOf(early).count()).toBe(1);
    expect(await rowOf(late).count()).toBe(0);
  });

  it('dates the detail and the public summary on the Madagascar day', async () => {
    await page.goto(`/admin/signalement/detail/${early}`);
    await expect.poll(() => page.getByText('21/11/2025').count()).toBeGreaterThan(0);

    const visitor = await e.newPage({ timezoneId: 'America/Los_Angeles' });
    await visitor.goto(`/admin/resume/${early}`);
    await expect.poll(() => visitor.getByText(/Signalé le/).textContent()).toBe('Signalé le 21/11/2025');
  });

  it('counts the dashboard per Madagascar day', async () => {
    const res = await page.request.get(
      '/api/dashboard/signalement-per-jour?dateStart=2025-11-20&dateEnd=2025-11-21',
    );
    expect(await res.json()).toEqual({ '2025-11-20': 1, '2025-11-21': 1 });
  });
});
