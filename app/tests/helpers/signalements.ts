import type { TestApp } from './app';

/** The smallest valid report of the REST facade: a partner, a subject, a channel and a date. */
export const MINIMAL_REPORT = {
  partenaire: '/api/partenaires/IVY',
  subjects: ['/api/subjects/CORRUPTION'],
  canalPrincipal: '/api/canals/TELEPHONE',
  signalementAt: '2025-03-10',
} as const;

/** Creates a report through the REST facade as the given session and returns its code. */
export async function createReport(
  t: TestApp,
  cookie: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/signalements',
    headers: { cookie },
    payload: { ...MINIMAL_REPORT, ...overrides },
  });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json().code as string;
}

export const mergePatch = (t: TestApp, cookie: string, url: string, payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url,
    headers: { cookie, 'content-type': 'application/merge-patch+json' },
    payload: JSON.stringify(payload),
  });
