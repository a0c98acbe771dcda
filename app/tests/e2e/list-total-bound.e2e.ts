// A filter the counters cannot answer, matching more reports than LIST_COUNT_CAP: the list stops
// counting and says so (decision 0022): « Total: plus de 1 000 élément(s) », « Page 1 sur plus de 50 »,
// the next button stays enabled, and deeper pages count further.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP, MAX_PAGE_LINKS, PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import { seedDemo } from '#server/db/seed/demo';
import { useE2E } from './harness';
import { ADMIN, signInByApi } from './sign-in';

const REPORTS = LIST_COUNT_CAP + 150;
const fr = (n: number) => n.toLocaleString('fr-FR');
const text = (page: Page, id: string) => page.getByTestId(id).textContent();

describe('report list beyond the counting cap in a real browser', () => {
  const e = useE2E();
  let page: Page;
  beforeAll(async () => {
    await seedDemo(e.running.ctx, { reports: REPORTS, seed: 13 });
    page = await e.newPage();
    await signInByApi(page, ADMIN.email, ADMIN.password);
  });

  it('shows « plus de » on the total and the page count, and pages on past the last page known', async () => {
    const res = await page.request.get('/api/signalements?search=sig');
    const body = (await res.json()) as { totalItems: number; totalItemsExact: boolean };
    expect(body).toMatchObject({ totalItems: LIST_COUNT_CAP, totalItemsExact: false });

    await page.goto('/admin/signalement/list?q=sig');
    const pages = LIST_COUNT_CAP / PAGE_SIZE_SIGNALEMENTS;
    await expect
      .poll(() => text(page, 'pagination-total'))
      .toBe(`Total: plus de ${fr(LIST_COUNT_CAP)} élément(s)`);
    expect(await text(page, 'pagination-page')).toBe(`Page 1 sur plus de ${fr(pages)}`);
    expect(await page.getByRole('button', { name: `Page ${pages}`, exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: `Page ${pages}`, exact: true }).click();
    // The pager now reaches a few pages further: still more, or the exact total once it is within reach.
    await expect
      .poll(() => text(page, 'pagination-page'))
      .toMatch(new RegExp(`^Page ${pages} sur (plus de )?\\d+$`));
    expect(await page.getByRole('button', { name: 'Page suivante' }).isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Page suivante' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe(String(pages + 1));
    await expect.poll(() => page.getByTestId('signalement-row').count()).toBe(PAGE_SIZE_SIGNALEMENTS);
    // Within MAX_PAGE_LINKS pages of the end the count is exact again.
    const last = Math.ceil(REPORTS / PAGE_SIZE_SIGNALEMENTS);
    await page.goto(`/admin/signalement/list?q=sig&page=${last - MAX_PAGE_LINKS + 1}`);
    await expect.poll(() => text(page, 'pagination-total')).toBe(`Total: ${fr(REPORTS)} élément(s)`);
    expect(await text(page, 'pagination-page')).toBe(`Page ${last - MAX_PAGE_LINKS + 1} sur ${last}`);
  });
});
