import { ConfigError } from './config';
import { start } from './start';

try {
  const running = await start();
  running.app.log.info(`Signalements à l'écoute sur ${running.config.PUBLIC_URL}/admin`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'arrêt en cours');
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Démarrage impossible :', error);
  }
  process.exit(1);
}
