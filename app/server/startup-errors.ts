// What a start-up failure prints: one French line naming the setting at fault and the cause
// (unreachable, unknown database, authentication, read-only path, disk full…), instead of a driver's stack
// whose cause sits ten lines down. The database address is shown without its password.
import { dialectFor } from './db/dialect';

export interface StartupSettings {
  DATABASE_URL?: string;
  PORT?: number | string;
  HOST?: string;
  DATABASE_CONNECT_TIMEOUT_SECONDS?: number;
}

interface ErrorLike {
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
  path?: unknown;
  address?: unknown;
  port?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first (DrizzleQueryError → pg's error → …). */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && out.length < 10) {
    out.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  if (error instanceof AggregateError) for (const inner of error.errors) out.push(...chain(inner));
  return out;
}

/** The SQLite file, or postgres://user:secret@host:port/db → « db » sur host:port (never the password). */
export function describeDatabase(url: string): string {
  return dialectFor(url).describeTarget(url);
}

function pgUser(url: string): string {
  try {
    return decodeURIComponent(new URL(url).username) || 'postgres';
  } catch {
    return '?';
  }
}

/** The settings a start-up failure may name, read leniently (a failure may come before they are parsed). */
export function startupSettings(env: Record<string, string | undefined>): StartupSettings {
  const seconds = Number(env.DATABASE_CONNECT_TIMEOUT_SECONDS);
  return {
    DATABASE_URL: env.DATABASE_URL || 'file:./data/signalements.db',
    PORT: env.PORT || '3000',
    HOST: env.HOST || '127.0.0.1',
    DATABASE_CONNECT_TIMEOUT_SECONDS: Number.isInteger(seconds) && seconds > 0 ? seconds : 10,
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** One line, in French, for any error thrown while the server starts. */
export function explainStartupFailure(error: unknown, settings: StartupSettings): string {
  const errors = chain(error);
  const codes = errors.map((e) => str(e.code));
  const has = (code: string) => codes.includes(code);
  const hasPrefix = (prefix: string) => codes.some((c) => c.startsWith(prefix));
  const messages = errors.map((e) => str(e.message)).join(' | ');
  const url = settings.DATABASE_URL ?? '';
  const target = url ? describeDatabase(url) : 'la base de données';
  const db = (cause: string) => `Démarrage impossible (DATABASE_URL) : ${target} — ${cause}.`;
  const listenError = errors.find((e) => str(e.syscall) === 'listen');

  if (listenError) {
    const where = `${settings.HOST ?? '127.0.0.1'}:${settings.PORT ?? ''}`;
    if (has('EADDRINUSE'))
      return `Démarrage impossible (PORT) : l'adresse ${where} est déjà utilisée par un autre programme.`;
    if (has('EACCES'))
      return `Démarrage impossible (PORT) : pas le droit d'écouter sur ${where} (port réservé).`;
    if (has('EADDRNOTAVAIL'))
      return `Démarrage impossible (HOST) : l'adresse ${where} n'appartient pas à cette machine.`;
    return `Démarrage impossible (PORT, HOST) : écoute sur ${where} refusée (${str(listenError.code) || str(listenError.message)}).`;
  }

  // PostgreSQL's own answers (SQLSTATE codes).
  if (has('3D000')) return db("cette base n'existe pas (créez-la avec « createdb » ou corrigez son nom)");
  if (has('28P01'))
    return db(`authentification refusée pour l'utilisateur « ${pgUser(url)} » (mot de passe incorrect)`);
  if (hasPrefix('28')) return db(`authentification refusée pour l'utilisateur « ${pgUser(url)} »`);
  if (has('53100') || has('SQLITE_FULL') || has('ENOSPC')) return db('disque plein, libérez de la place');
  if (has('25006')) return db('le serveur est en lecture seule (réplique ?)');
  if (has('42501'))
    return db("l'utilisateur n'a pas les droits nécessaires (création de schéma ou de table)");
  if (has('57P03')) return db('le serveur PostgreSQL démarre ou s’arrête, réessayez dans un instant');

  // The network.
  if (has('ECONNREFUSED'))
    return db('serveur injoignable (connexion refusée : est-il démarré, sur ce port ?)');
  if (has('ENOTFOUND') || has('EAI_AGAIN')) return db('nom d’hôte inconnu');
  if (has('EHOSTUNREACH') || has('ENETUNREACH')) return db('serveur injoignable (réseau)');
  if (has('ETIMEDOUT') || /timeout/i.test(messages)) {
    const seconds = settings.DATABASE_CONNECT_TIMEOUT_SECONDS;
    return db(
      `aucune réponse du serveur${seconds ? ` en ${seconds} s (DATABASE_CONNECT_TIMEOUT_SECONDS)` : ''}`,
    );
  }
  if (has('ECONNRESET') || /Connection terminated/i.test(messages))
    return db('connexion coupée par le serveur');

  // Files (SQLite, its folder).
  const fileError = errors.find((e) => typeof e.path === 'string');
  const where = fileError ? ` (${str(fileError.path)})` : '';
  if (has('EROFS') || has('SQLITE_READONLY') || hasPrefix('SQLITE_READONLY_')) {
    return db(`emplacement en lecture seule${where}`);
  }
  // Node reports a recursive mkdir refused by a read-only file system as ENOENT.
  if (has('ENOENT') && errors.some((e) => str(e.syscall) === 'mkdir')) {
    return db(`le dossier ne peut pas être créé (emplacement en lecture seule ou absent)${where}`);
  }
  if (has('EACCES') || has('EPERM')) return db(`accès refusé à l'emplacement${where}`);
  if (has('SQLITE_CANTOPEN'))
    return db(
      "le fichier ne peut pas être ouvert ni créé (dossier absent, en lecture seule ou sans droit d'écriture)",
    );
  if (has('SQLITE_NOTADB') || has('SQLITE_CORRUPT'))
    return db("ce fichier n'est pas une base SQLite valide ou il est endommagé");
  if (has('SQLITE_BUSY') || has('SQLITE_LOCKED')) return db('la base est verrouillée par un autre programme');
  if (hasPrefix('SQLITE_IOERR')) return db("erreur d'entrée-sortie du disque");

  // The innermost message is the cause (the outer ones repeat a query and its parameters).
  const innermost =
    errors
      .map((e) => str(e.message))
      .filter((m) => m)
      .pop() ?? String(error);
  return `Démarrage impossible : ${innermost.split('\n')[0]}`;
}
