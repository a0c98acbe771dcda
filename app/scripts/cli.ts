// The command-line options of every script (README « Other commands »): `--help` (or `-h`) prints the usage
// in French and exits 0; an unknown or malformed option prints one French line and the usage, and exits 1 —
// never a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from '#server/config';
import { explainStartupFailure, startupSettings } from '#server/startup-errors';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options of this run, after --help and errors have been handled. */
export function cliOptions<T extends Options>(usage: string, options: T, argv = process.argv.slice(2)) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.info(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${frenchParseError(error)}\n\n${usage}`);
    process.exit(1);
  }
}

function frenchParseError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'(-{1,2}[^' ]+)/.exec(message ?? '')?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Option inconnue : ${option}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `Valeur manquante ou invalide pour l'option ${option}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'Argument inattendu.';
    default:
      return `Options invalides : ${message ?? String(error)}`;
  }
}

/**
 * A script's failure as one French line, as the server's start prints it (server/startup-errors.ts): a
 * wrong setting, an unreachable database, a read-only path… Exits 1.
 */
export function failAndExit(error: unknown): never {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(explainStartupFailure(error, startupSettings(process.env)));
  process.exit(1);
}

/** The settings, or their French errors and exit code 1. */
export function configOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    return failAndExit(error);
  }
}
