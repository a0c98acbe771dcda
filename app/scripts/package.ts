// `npm run package` (README « A single executable », docs/decisions/0041-single-executable.md): builds
// dist/signalements, a Node single-executable application made from the Node that runs this script
// (process.execPath). The built client (dist/web, from `vite build`, which `npm run package` runs first),
// the server bundled with every JavaScript dependency, its thread modules, the migrations of both engines,
// the geography the seed reads and the native modules (those of node_modules, which must be built for this
// same Node: they are loaded here, which proves it and tells their files) travel as assets;
// server/sea/main.ts writes them to data/.runtime/<id>/ at the first start and runs the server from there.
// Prints the executable's size.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { cliOptions } from './cli';
import { SERVER_ENTRIES } from './server-entries';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/** The Node fuse that marks an injected blob (Node's single-executable documentation). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export interface Packaged {
  file: string;
  bytes: number;
  /** Files carried, and their bytes. */
  assets: number;
  assetBytes: number;
  id: string;
  node: string;
  /** Bytes of the Node binary the executable is made from. */
  nodeBytes: number;
}

/** The native modules the server loads, each under the name the bundle's loaders ask for (below). */
const NATIVE = { 'better-sqlite3': 'better_sqlite3.node', argon2: 'argon2.node' } as const;

/**
 * The addon file each native module loads in this very Node, found by loading it here (which proves it was
 * built for this Node): whatever file the package picks (its build, a prebuild), it is in require.cache.
 */
function nativeModules(): Record<string, string> {
  try {
    const Sqlite = require('better-sqlite3') as new (file: string) => { close(): void };
    new Sqlite(':memory:').close();
    require('argon2');
  } catch (error) {
    throw new Error(
      `Modules natifs inutilisables avec Node ${process.version} : ${(error as Error).message}\n` +
        'Reconstruisez-les avec ce Node (« npm ci » ou « npm rebuild better-sqlite3 argon2 »).',
      { cause: error },
    );
  }
  const addons = Object.keys(require.cache).filter((file) => file.endsWith('.node'));
  const modules: Record<string, string> = {};
  for (const [pkg, name] of Object.entries(NATIVE)) {
    const dir = dirname(require.resolve(`${pkg}/package.json`)) + sep;
    const file = addons.find((addon) => addon.startsWith(dir));
    if (!file) throw new Error(`Module natif de ${pkg} introuvable après son chargement (${dir}).`);
    modules[name] = file;
  }
  return modules;
}

/**
 * The native modules' loaders in the bundle, replaced by a load from the runtime's native/ folder:
 * better-sqlite3 12 asks `bindings`, 13 its own `./binding` module; argon2 asks `node-gyp-build`.
 * `__seaNative` is declared by the banner of every output file (dist/server/ → ../../native/).
 */
const SHIMS: Record<string, string> = {
  bindings: 'module.exports = (name) => require(__seaNative + name);',
  'node-gyp-build': `module.exports = () => require(__seaNative + '${NATIVE.argon2}');`,
  'better-sqlite3-binding':
    "exports.getBinding = (given) => (typeof given === 'object' && given !== null ? given : " +
    `require(__seaNative + '${NATIVE['better-sqlite3']}'));\nexports.getPrebuildPath = () => null;`,
};

const nativeShims: Plugin = {
  name: 'native-shims',
  setup(b) {
    b.onResolve({ filter: /^(bindings|node-gyp-build)$/ }, (args) => ({
      path: args.path,
      namespace: 'native',
    }));
    b.onResolve({ filter: /^\.\/binding$/ }, (args) =>
      args.importer.includes(`${sep}better-sqlite3${sep}`)
        ? { path: 'better-sqlite3-binding', namespace: 'native' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'native' }, (args) => ({ loader: 'js', contents: SHIMS[args.path] }));
  },
};

/** Every file under `dir`, as paths relative to it. */
function walk(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const visit = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (skip(rel)) continue;
      if (entry.isDirectory()) visit(rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  visit('');
  return out.sort();
}

export async function packageExecutable(out = join(root, 'dist', 'signalements')): Promise<Packaged> {
  const webRoot = join(root, 'dist', 'web');
  if (!existsSync(join(webRoot, 'index.html')))
    throw new Error(
      'Client non construit (dist/web) : lancez « npm run package », qui le construit d’abord.',
    );
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const native = nativeModules();
  const stage = join(root, 'dist', 'sea');
  rmSync(stage, { recursive: true, force: true });
  const app = join(stage, 'app');
  mkdirSync(app, { recursive: true });

  await build({
    entryPoints: [join(root, 'server/sea/main.ts')],
    outfile: join(stage, 'main.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    logLevel: 'warning',
  });
  await build({
    entryPoints: SERVER_ENTRIES.map((entry) => join(root, entry)),
    outdir: join(app, 'dist', 'server'),
    entryNames: '[name]',
    // Code the server and its threads share is written once; chunks stay beside the entries (the
    // banner's paths are relative to dist/server/).
    splitting: true,
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // No source maps (they would double the size): the bundle is not minified, its stack traces read as is.
    // pg's optional native driver is never asked for (no `native` option).
    external: ['pg-native'],
    // CommonJS modules' own folder, where one is asked for: the bundle's.
    define: { __dirname: '__seaDirname', __filename: '__seaFilename' },
    plugins: [nativeShims],
    // The CommonJS dependencies bundled into ES modules call require() (builtins, the native modules).
    banner: {
      js: [
        "import { createRequire as __seaCreateRequire } from 'node:module';",
        'const require = __seaCreateRequire(import.meta.url);',
        'const __seaDirname = import.meta.dirname;',
        'const __seaFilename = import.meta.filename;',
        "const __seaNative = import.meta.dirname + '/../../native/';",
      ].join('\n'),
    },
    logLevel: 'warning',
  });
  // The runtime folder mirrors the project (server/paths.ts finds package.json above the bundle).
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: 'module' }, null, 2)}\n`,
  );
  writeFileSync(
    join(app, 'launch.cjs'),
    "// Loaded by the executable's main script: imports the server bundle (which listens, or exits).\n" +
      "exports.start = () => import(require('node:url').pathToFileURL(require('node:path').join(__dirname, 'dist/server/index.mjs')).href);\n",
  );

  /** Asset key (its path under the runtime folder) → file to read. */
  const files = new Map<string, string>();
  for (const rel of walk(app)) files.set(rel, join(app, rel));
  for (const rel of walk(webRoot, (r) => r === '.vite')) files.set(`dist/web/${rel}`, join(webRoot, rel));
  for (const engine of ['sqlite', 'pg']) {
    const dir = join(root, 'drizzle', 'migrations', engine);
    // The migrator reads the journal and the SQL; the schema snapshots are drizzle-kit's alone.
    for (const rel of walk(dir, (r) => r.startsWith('meta/') && r !== 'meta/_journal.json'))
      files.set(`drizzle/migrations/${engine}/${rel}`, join(dir, rel));
  }
  const geo = join(root, 'server', 'db', 'seed', 'geo-data');
  for (const rel of walk(geo)) files.set(`server/db/seed/geo-data/${rel}`, join(geo, rel));
  for (const [name, file] of Object.entries(native)) files.set(`native/${name}`, file);

  const keys = [...files.keys()].sort();
  const hash = createHash('sha256');
  let assetBytes = 0;
  for (const key of keys) {
    const content = readFileSync(files.get(key)!);
    assetBytes += content.length;
    hash.update(`${key}\0${content.length}\0`).update(content);
  }
  const id = `${pkg.version}-${hash.digest('hex').slice(0, 16)}`;
  const manifestFile = join(stage, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify({ name: pkg.name, version: pkg.version, id, files: keys }));
  const blob = join(stage, 'sea-prep.blob');
  const config = join(stage, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        main: join(stage, 'main.cjs'),
        output: blob,
        disableExperimentalSEAWarning: true,
        assets: { 'manifest.json': manifestFile, ...Object.fromEntries(keys.map((k) => [k, files.get(k)!])) },
      },
      null,
      2,
    ),
  );
  quietly(process.execPath, ['--experimental-sea-config', config]);

  // The executable is this Node with the blob injected; written beside, then renamed into place.
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  copyFileSync(process.execPath, partial);
  chmodSync(partial, 0o755);
  quietly(process.execPath, [
    require.resolve('postject/dist/cli.js'),
    partial,
    'NODE_SEA_BLOB',
    blob,
    '--sentinel-fuse',
    SEA_FUSE,
  ]);
  renameSync(partial, out);
  return {
    file: out,
    bytes: statSync(out).size,
    assets: keys.length,
    assetBytes,
    id,
    node: process.version,
    nodeBytes: statSync(process.execPath).size,
  };
}

/** Runs a build step; its output (postject's section warnings) is shown only when it fails. */
function quietly(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { cwd: root, stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`${[command, ...args].join(' ')} a échoué :\n${stdout ?? ''}${stderr ?? ''}`, {
      cause: error,
    });
  }
}

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1).replace('.', ',')} Mo`;

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  cliOptions(
    'Utilisation : npm run package\n\n' +
      'Construit dist/signalements : le client (vite build), puis un exécutable unique (Node ' +
      `${process.version}) avec le serveur, le client, les migrations et les modules natifs.\n` +
      'Écrit aussi dist/signalements.build.json (taille, contenu, durée), que « npm run bench:startup » reprend.',
    {},
  );
  const started = Date.now();
  try {
    const made = await packageExecutable();
    const buildSeconds = (Date.now() - started) / 1000;
    writeFileSync(
      join(root, 'dist', 'signalements.build.json'),
      `${JSON.stringify({ ...made, file: relative(root, made.file), buildSeconds }, null, 2)}\n`,
    );
    console.info(
      `${relative(process.cwd(), made.file).split(sep).join('/')} : ${megabytes(made.bytes)} ` +
        `(Node ${made.node} : ${megabytes(made.nodeBytes)} ; ${made.assets} fichiers intégrés : ${megabytes(made.assetBytes)} ; ` +
        `version ${made.id}) construit en ${buildSeconds.toFixed(1)} s.`,
    );
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
