import { useSyncExternalStore } from 'react';
import { applyUpdate, updateStore } from '../lib/pwa/register';

export const UPDATE_MESSAGES = {
  available: 'Une nouvelle version est disponible',
  reload: 'Recharger',
} as const;

/**
 * Bottom of the screen, above everything, when a new version of the app is installed and waits: the page
 * keeps running the old one until the user chooses to reload (a form being typed is not lost).
 */
export function UpdatePrompt() {
  const hasUpdate = useSyncExternalStore(updateStore.subscribe, updateStore.hasUpdate, () => false);
  if (!hasUpdate) return null;
  return (
    <div className="toast toast-center toast-bottom z-[60]" data-testid="update-prompt">
      <div role="status" className="alert alert-info shadow-lg">
        <span>{UPDATE_MESSAGES.available}</span>
        <button type="button" className="btn btn-sm" onClick={applyUpdate}>
          {UPDATE_MESSAGES.reload}
        </button>
      </div>
    </div>
  );
}
