import { useEffect } from 'react';

export const APP_NAME = 'Signalements';

/** Sets the browser tab title to '{title} · Signalements'. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
