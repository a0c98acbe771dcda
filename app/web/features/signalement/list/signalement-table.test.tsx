// Every column and mobile card of the report list shows, from the list's rows, exactly what it shows from
// the whole reports (docs/decisions/0027-list-rows.md): the table is rendered twice, once with the rows
// of tRPC signalements.list and once with each report's own signalements.get, and the markup must match.
import { renderToStaticMarkup } from 'react-dom/server';
import { Router } from 'wouter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignalementDto, SignalementListItemDto } from '#shared/dto/signalements';
import { seedDemo } from '#server/db/seed/demo';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { SignalementTable } from './signalement-table';

const render = (items: SignalementListItemDto[]) =>
  renderToStaticMarkup(
    <Router base="/admin" ssrPath="/admin/signalement/list">
      <SignalementTable items={items} />
    </Router>,
  );

// A rendering question: one engine is enough (the rows' equality on both is list-row.test.ts).
describe('report list columns', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await seedDemo(t.ctx, { reports: 20, seed: 31 });
    await t.user('colonnes@example.mg', 'ROLE_USER', 'Rabe Colonnes');
    cookie = await t.login('colonnes@example.mg');
  });
  afterAll(async () => t?.close());

  const query = async <T,>(path: string, input: object): Promise<T> => {
    const url = `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
    const res = await t.app.inject({ url, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.data as T;
  };

  it('renders from the list rows what it renders from the whole reports', async () => {
    const { items } = await query<{ items: SignalementListItemDto[] }>('signalements.list', {
      page: 1,
      itemsPerPage: 20,
    });
    expect(items).toHaveLength(20);
    // A whole report is a list row with more fields (the compiler checks it here).
    const whole: SignalementListItemDto[] = await Promise.all(
      items.map((item) => query<SignalementDto>('signalements.get', { code: item.code })),
    );

    const markup = render(items);
    expect(markup).toBe(render(whole));
    // Each column had something to show on some row, so an empty column would differ.
    for (const shown of [
      (s: SignalementListItemDto) => s.canalPrincipal,
      (s: SignalementListItemDto) => s.commune ?? s.district ?? s.region,
      (s: SignalementListItemDto) => s.statut,
      (s: SignalementListItemDto) => s.niveau,
    ]) {
      expect(whole.some((s) => shown(s) !== null)).toBe(true);
    }
    expect(markup.match(/data-testid="signalement-row"/g)).toHaveLength(20);
    expect(markup.match(/data-testid="signalement-card"/g)).toHaveLength(20);
  });
});
