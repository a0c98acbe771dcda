import { ConfigError } from './config';
import { start } from './start';
import { explainStartupFailure, startupSettings } from './startup-errors';

try {
  const running = await start();
  running.app.log.info(`Signalements à l'écoute sur ${running.config.PUBLIC_URL}/admin`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'arrêt en cours');
    // A safety net: whatever still holds the process when the budget is spent, it exits.
    setTimeout(() => {
      console.error(
        `Arrêt forcé : le serveur ne s'est pas arrêté en ${running.config.SHUTDOWN_TIMEOUT_SECONDS} s (SHUTDOWN_TIMEOUT_SECONDS).`,
      );
      process.exit(1);
    }, running.config.SHUTDOWN_TIMEOUT_SECONDS * 1000).unref();
    await running.close();
    running.app.log.info('arrêté');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    // One French line naming the setting and the cause; the stack only on demand.
    console.error(explainStartupFailure(error, startupSettings(process.env)));
    if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(error);
  }
  process.exit(1);
}
