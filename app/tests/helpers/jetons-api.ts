import type { ApiTokenScope } from '#shared/constants';
import type { CreatedJeton } from '#server/domains/jetons-api/service';
import type { TestApp } from './app';
import { SAME_ORIGIN } from './report-fixture';

/** Creates a partner API token through the « Accès API » screen's procedure; returns it with its secret. */
export async function createToken(
  t: TestApp,
  adminCookie: string,
  input: { partenaire: string; scopes?: ApiTokenScope[]; nom?: string; dureeJours?: number },
): Promise<CreatedJeton> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/trpc/jetonsApi.create',
    headers: { cookie: adminCookie, ...SAME_ORIGIN, 'content-type': 'application/json' },
    payload: JSON.stringify({
      nom: 'Guichet des plaintes',
      scopes: ['signalements:create', 'signalements:read'],
      dureeJours: 90,
      ...input,
    }),
  });
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
  return (res.json() as { result: { data: CreatedJeton } }).result.data;
}

/** The headers of a request sent by a partner's system: the token alone, no cookie. */
export const bearer = (secret: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${secret}`,
  ...extra,
});

/**
 * Registers a webhook endpoint with a partner's token, as its system does (POST /api/webhooks, decision 0051);
 * returns its id and secret, or throws with the answer.
 */
export async function registerPartnerEndpoint(
  t: TestApp,
  secret: string,
  url = 'https://recepteur.partenaire.example/webhooks',
): Promise<{ id: number; secret: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: bearer(secret),
    payload: { url },
  });
  if (res.statusCode !== 201) throw new Error(`endpoint: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number; secret: string };
}
