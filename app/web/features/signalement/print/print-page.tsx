import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { ChevronLeftIcon, PrinterIcon } from '#web/components/ui/more-icons';
import { Loading } from '#web/components/ui/loading';
import { errorCode } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { usePageTitle } from '#web/lib/use-page-title';
import { detailPath } from '../list/signalement-table';
import { FilesPart, HistoryPart, NotesPart, PeopleParts, PrintHeader, ReportParts } from './print-sections';
import { PRINT_TEXT, printPath } from './print-text';

/**
 * A report as an A4 document (docs/decisions/0043-print-view.md): outside the shell (no sidebar, no header),
 * a toolbar that the printer never sees, and the report's values as text. The server logs each load in the
 * access log, so the answer is never fetched again by itself (focus after the print dialog, staleness). The
 * history and the internal notes are printed only when their box is ticked (kept in the address).
 */
export default function SignalementPrintPage() {
  const { code = '' } = useParams<{ code: string }>();
  const search = new URLSearchParams(useSearch());
  const options = { historique: search.get('historique') === '1', notes: search.get('notes') === '1' };
  const { historique, notes } = options;
  const [, navigate] = useLocation();
  const trpc = useTRPC();
  usePageTitle(`${PRINT_TEXT.pageTitle} ${code}`);
  const print = useQuery(
    trpc.signalements.impression.queryOptions(
      { code, historique, notes },
      { staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: false },
    ),
  );

  return (
    <div className="min-h-screen bg-base-200 print:min-h-0 print:bg-transparent">
      <header className="sticky top-0 z-10 border-b border-base-300 bg-base-100 print:hidden">
        <div
          role="toolbar"
          aria-label={PRINT_TEXT.toolbar}
          className="mx-auto flex max-w-[210mm] flex-wrap items-center gap-2 px-4 py-2"
        >
          <Link href={detailPath(code)} className="btn btn-ghost btn-sm" data-testid="print-back">
            <ChevronLeftIcon />
            {PRINT_TEXT.back}
          </Link>
          <label className="label ml-auto cursor-pointer gap-2 text-sm text-base-content">
            <input
              type="checkbox"
              className="checkbox checkbox-sm checkbox-primary"
              checked={historique}
              data-testid="print-with-history"
              onChange={(e) =>
                navigate(printPath(code, { ...options, historique: e.target.checked }), { replace: true })
              }
            />
            {PRINT_TEXT.withHistory}
          </label>
          <label className="label cursor-pointer gap-2 text-sm text-base-content">
            <input
              type="checkbox"
              className="checkbox checkbox-sm checkbox-primary"
              checked={notes}
              data-testid="print-with-notes"
              onChange={(e) =>
                navigate(printPath(code, { ...options, notes: e.target.checked }), { replace: true })
              }
            />
            {PRINT_TEXT.withNotes}
          </label>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={!print.isSuccess}
            data-testid="print-button"
            onClick={() => window.print()}
          >
            <PrinterIcon />
            {PRINT_TEXT.print}
          </button>
        </div>
      </header>
      <main className="mx-auto max-w-[210mm] p-4 print:max-w-none print:p-0">
        {print.isSuccess ? (
          <article
            className="flex flex-col gap-4 bg-base-100 p-6 text-base-content shadow-sm [print-color-adjust:exact] print:p-0 print:shadow-none"
            data-testid="print-document"
          >
            <PrintHeader data={print.data} />
            <ReportParts s={print.data.signalement} />
            <PeopleParts data={print.data} />
            {print.data.notes && <NotesPart notes={print.data.notes} />}
            <FilesPart data={print.data} />
            {print.data.historique && <HistoryPart entries={print.data.historique} />}
          </article>
        ) : print.isPending ? (
          <Loading />
        ) : (
          <p className="card bg-base-100 p-6 text-center" role="alert" data-testid="print-error">
            {errorCode(print.error) === 'NOT_FOUND' ? PRINT_TEXT.notFound : PRINT_TEXT.loadFailed}
          </p>
        )}
      </main>
    </div>
  );
}
