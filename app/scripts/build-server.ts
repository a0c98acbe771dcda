// npm run build:server: the server and its threads' modules, bundled by esbuild into dist/server/*.mjs, run
// by `npm start` as plain node. The packages stay in node_modules (external) but one: drizzle-orm is bundled
// in. Under Node 24, every module file Node loads from a package reads that package's package.json again
// (node:internal/modules/package_json_reader), and drizzle-orm's is 179 KB for its 448 files: importing it
// took about a second and 250 MB of heap in each process and thread (the server, each read-task and export
// thread) against 150 ms and 11 MB on Node 20. Bundled, it is read from one file (docs/decisions/0050).
import { build } from 'esbuild';
import { cliOptions } from './cli';
import { SERVER_ENTRIES, serverBundleOptions } from './server-entries';

cliOptions(
  `Usage : npm run build:server

Construit le serveur et les modules de ses fils (lecture, exports) dans dist/server/*.mjs, que « npm start »
lance avec node. drizzle-orm y est inclus ; les autres paquets restent dans node_modules.`,
  {},
);

await build({ ...serverBundleOptions(SERVER_ENTRIES, 'dist/server'), sourcemap: true });
