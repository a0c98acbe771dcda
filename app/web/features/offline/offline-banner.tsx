import { formatDateTime } from '#web/lib/format';
import { useOnline } from '#web/lib/offline/hooks';
import { OFFLINE_TEXT } from './offline-text';

/**
 * Offline, above a page's data: « Hors ligne — données du {date heure} » (when the shown answer was fetched,
 * Madagascar time), or that nothing of this page is kept on the device. Nothing while online.
 */
export function OfflineBanner({ dataUpdatedAt, hasData }: { dataUpdatedAt: number; hasData: boolean }) {
  const online = useOnline();
  if (online) return null;
  return (
    <div role="status" className="alert alert-warning alert-soft" data-testid="offline-banner">
      <span>
        {hasData && dataUpdatedAt > 0
          ? OFFLINE_TEXT.banner(formatDateTime(new Date(dataUpdatedAt)))
          : OFFLINE_TEXT.nothingCached}
      </span>
    </div>
  );
}
