// The server's pid file beside a SQLite database: SQLite is served by one process, and db:restore and
// db:rotate-key refuse while it runs. Moved from server/ops/backup.ts, which re-exports it.
import { readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '#server/config';

export function sqliteFile(url: string): string {
  return resolve(url.replace(/^file:/, ''));
}

/** The server's pid file beside a SQLite database (written at start, removed at a clean stop). */
export function pidFile(url: string): string {
  return `${sqliteFile(url)}.pid`;
}

/** Whether the process named in the pid file runs (a file left by a crash names a dead process). */
export function runningServerPid(url: string): number | null {
  let text: string;
  try {
    text = readFileSync(pidFile(url), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  // After a reboot the number may belong to an unrelated program: only a Node.js process or the single
  // executable (by its name, or as this very executable under another name) counts (where the system
  // tells, as Linux does in /proc; elsewhere any live process counts).
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!/node|signalements/i.test(command) && !sameExecutable(pid)) return null;
  } catch {
    // No /proc, or not readable: keep the cautious answer.
  }
  return pid;
}

function sameExecutable(pid: number): boolean {
  try {
    return readlinkSync(`/proc/${pid}/exe`) === readlinkSync('/proc/self/exe');
  } catch {
    return false;
  }
}

/**
 * Marks the SQLite database as served by this process (restore refuses to replace it meanwhile). A live
 * server of another process on the same file stops this start: SQLite is served by one process.
 */
export function claimPidFile(url: string): void {
  const other = runningServerPid(url);
  if (other !== null && other !== process.pid) {
    throw new ConfigError(
      `Démarrage impossible (DATABASE_URL) : un autre serveur (processus ${other}) utilise déjà ${sqliteFile(url)}.`,
    );
  }
  writeFileSync(pidFile(url), `${process.pid}\n`, { mode: 0o600 });
}

export function releasePidFile(url: string): void {
  if (runningServerPid(url) === process.pid) rmSync(pidFile(url), { force: true });
}
