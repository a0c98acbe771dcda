import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from './errors';
import {
  DownloadError,
  downloadFailureMessage,
  ensureOk,
  httpStatusMessage,
  responseFailureMessage,
} from './http-errors';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('responseFailureMessage', () => {
  it("gives the server's French message", async () => {
    expect(await responseFailureMessage(json(403, { status: 403, message: 'Accès refusé.' }))).toBe(
      'Accès refusé.',
    );
  });

  it("gives a French reason per status when the body has no message, then the spec's « Erreur HTTP: {status} »", async () => {
    expect(await responseFailureMessage(new Response('', { status: 500 }))).toBe(
      'Une erreur interne est survenue. Veuillez réessayer plus tard. (Erreur HTTP: 500)',
    );
    expect(await responseFailureMessage(new Response('<html>Bad gateway</html>', { status: 502 }))).toBe(
      'Service momentanément indisponible, réessayez dans quelques instants. (Erreur HTTP: 502)',
    );
    expect(await responseFailureMessage(json(503, { status: 503, message: '  ' }))).toBe(
      'Service momentanément indisponible, réessayez dans quelques instants. (Erreur HTTP: 503)',
    );
    expect(await responseFailureMessage(new Response(null, { status: 413 }))).toBe(
      'Requête trop volumineuse. (Erreur HTTP: 413)',
    );
    expect(await responseFailureMessage(new Response(null, { status: 429 }))).toBe(
      'Trop de requêtes. Veuillez patienter avant de réessayer. (Erreur HTTP: 429)',
    );
  });

  it('never answers « Erreur HTTP » nor English, whatever the status', () => {
    for (let status = 400; status < 600; status++) {
      const message = httpStatusMessage(status);
      expect(message).not.toMatch(/HTTP|error|\d{3}/i);
      expect(message.length).toBeGreaterThan(5);
    }
  });
});

describe('ensureOk and downloadFailureMessage', () => {
  it('lets a good answer through and turns a refused one into a French DownloadError', async () => {
    const ok = new Response('x', { status: 200 });
    expect(await ensureOk(ok)).toBe(ok);
    const refused = await ensureOk(new Response('', { status: 500 })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DownloadError);
    expect(downloadFailureMessage(refused)).toBe(
      'Une erreur interne est survenue. Veuillez réessayer plus tard. (Erreur HTTP: 500)',
    );
  });

  it("says the network failed for the browser's TypeError, and nothing it does not know", () => {
    expect(downloadFailureMessage(new TypeError('Failed to fetch'))).toBe(NETWORK_ERROR_MESSAGE);
    expect(downloadFailureMessage(new Error('something'))).toBeUndefined();
  });
});
