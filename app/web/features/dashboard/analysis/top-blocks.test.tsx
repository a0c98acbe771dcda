// The staff table of the period analysis (docs/decisions/0012): reports handled in the period, open and
// overdue now, mean days to close; an overdue count is flagged, a user without closed reports shows « — ».
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TopUsersTable } from './top-blocks';

const rows = (html: string) =>
  [...html.matchAll(/<tr data-testid="top-user">(.*?)<\/tr>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );

describe('top users table', () => {
  it('shows each user with handled, open, overdue and mean days to close, in the order given', () => {
    const html = renderToStaticMarkup(
      <TopUsersTable
        users={[
          {
            name: 'Rabe Hery',
            email: 'agent@example.mg',
            role: 'Utilisateur',
            complaintsHandled: 0,
            avgResolutionTime: null,
            openCases: 1234,
            overdueCases: 3,
          },
          {
            name: 'Rasoa Vola',
            email: 'analyste@example.mg',
            role: 'Analyste',
            complaintsHandled: 2,
            avgResolutionTime: 4.5,
            openCases: 0,
            overdueCases: 0,
          },
        ]}
      />,
    );
    expect(html).toContain('<th class="text-right">En retard</th>');
    expect(rows(html)).toEqual([
      'Rabe Hery Utilisateur agent@example.mg 0 1 234 3 —',
      'Rasoa Vola Analyste analyste@example.mg 2 0 0 4,5 j',
    ]);
    // Only an overdue count is flagged.
    expect(html.match(/badge-warning/g)).toHaveLength(1);
  });
});
