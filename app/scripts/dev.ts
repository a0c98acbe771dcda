// npm run dev: the API server with reload on change (tsx watch) and Vite's dev server with hot reload
// for the client, which proxies /api and /trpc to the API server. Open http://localhost:5173/admin/.
import { spawn } from 'node:child_process';
import { cliOptions } from './cli';

cliOptions(
  `Usage : npm run dev

Lance le serveur d'API (rechargé à chaque modification) et le serveur de développement de Vite pour le
client. Ouvrez http://localhost:5173/admin/.`,
  {},
);

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/index.ts'], {
    stdio: 'inherit',
    env: { NODE_ENV: 'development', ...process.env },
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], { stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
