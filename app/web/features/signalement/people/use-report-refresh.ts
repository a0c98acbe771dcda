import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '#web/lib/trpc';

/** After a change to a report's people: its history and last-action date moved on the server. */
export function useReportRefresh(code: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.historique.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.get.queryKey({ code }) });
  };
}
