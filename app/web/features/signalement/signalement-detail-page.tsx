import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'wouter';
import { Breadcrumb } from '#web/components/ui/breadcrumb';
import { Loading } from '#web/components/ui/loading';
import { useToast } from '#web/components/ui/toast';
import { errorCode } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { DetailScreen } from './detail/detail-screen';
import { OfflineBanner } from '#web/features/offline/offline-banner';
import { isRestoredAnswer } from '#web/lib/offline/cache';
import { TOASTS } from './labels';

export default function SignalementDetailPage() {
  const { code = '' } = useParams<{ code: string }>();
  const trpc = useTRPC();
  const toast = useToast();
  const report = useQuery(trpc.signalements.get.queryOptions({ code }));
  const failed = report.isError && errorCode(report.error) !== 'NOT_FOUND';

  useEffect(() => {
    if (failed) toast.error(TOASTS.reportLoadFailed);
  }, [failed, toast]);

  // A report kept on the device is shown only when the server cannot give the current one (offline, or the
  // read failed on the network): editing a kept copy while the fresh one is on its way would start from old
  // values (the save's version precondition would refuse it, docs/decisions/0047).
  const waitingForFresh = isRestoredAnswer(report.dataUpdatedAt) && report.fetchStatus === 'fetching';
  const shown =
    report.data !== undefined && !waitingForFresh && (report.isSuccess || (report.isError && failed));
  const banner = <OfflineBanner dataUpdatedAt={report.dataUpdatedAt} hasData={report.data !== undefined} />;
  if (shown)
    return (
      <div className="flex flex-col gap-4">
        {banner}
        <DetailScreen key={code} signalement={report.data} />
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      <Breadcrumb
        items={[{ label: 'Signalements', href: '/signalement/list' }, { label: `Détail (${code})` }]}
      />
      {banner}
      {report.isPending || waitingForFresh ? (
        <Loading />
      ) : (
        <div className="card border border-base-300 bg-base-100">
          <p className="card-body items-center text-base-content/70" data-testid="not-found">
            Signalement non trouvé.
          </p>
        </div>
      )}
    </div>
  );
}
