// The precompression of the built client by hand (the build runs it already, scripts/vite-plugins.ts).
import { resolve } from 'node:path';
import { cliOptions } from './cli';
import { compressAssets, summary } from './compress-assets';

const { positionals } = cliOptions(
  `Usage : tsx scripts/precompress.ts [<dossier>]

Écrit à côté de chaque fichier texte du client (plus de 512 octets) une copie brotli et une copie gzip.
« npm run build » le fait déjà ; dossier par défaut : dist/web.`,
  {},
);
console.info(summary(await compressAssets(resolve(positionals[0] ?? 'dist/web'))));
