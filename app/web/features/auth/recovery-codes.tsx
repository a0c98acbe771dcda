import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Dialog } from '#web/components/ui/dialog';
import { useToast } from '#web/components/ui/toast';
import { useLeaveGuard } from '#web/features/signalement/detail/use-leave-guard';
import { saveBlob } from '#web/lib/download';
import { formatDate } from '#web/lib/format';
import { recoveryCodesText } from './recovery-codes-file';
import { returnPathFrom } from './return-path';
import { TwoFactorCard } from './two-factor-card';
import { TWO_FACTOR_TEXT as TEXT } from './two-factor-text';
import './recovery-codes-print.css';

/**
 * The ten recovery codes, shown once. They live in this component's state only (never a log, the URL or a
 * storage); copied, downloaded or printed by the person. Leaving before « J'ai enregistré mes codes » asks
 * first (the browser's prompt on a reload or a closed tab, a dialog for Back or a link).
 */
export function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const toast = useToast();
  const list = useRef<HTMLUListElement>(null);
  const [kept, setKept] = useState(false);
  const leave = useLeaveGuard(!kept);
  const day = formatDate(new Date());

  useEffect(() => {
    // After the guard's own clean-up (same commit, earlier effect), so this navigation is not held.
    if (!kept) return;
    void queryClient.invalidateQueries();
    navigate(returnPathFrom(window.location.search), { replace: true });
  }, [kept, navigate, queryClient]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success(TEXT.copied);
    } catch {
      // Refused (permission denied, a page not served over HTTPS has no clipboard): the codes are
      // selected, for the person to copy by hand.
      const selection = window.getSelection();
      if (list.current && selection) {
        const range = document.createRange();
        range.selectNodeContents(list.current);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      toast.info(TEXT.copyDenied);
    }
  };
  const download = () => {
    saveBlob(
      new Blob([recoveryCodesText(codes, email, day)], { type: 'text/plain;charset=utf-8' }),
      TEXT.fileName,
    );
    toast.success(TEXT.downloaded);
  };

  return (
    <TwoFactorCard title={TEXT.codesTitle} intro={TEXT.codesIntro}>
      <section data-print-recovery-codes aria-label={TEXT.codesListLabel}>
        <div className="mb-4 hidden print:block">
          <p className="font-semibold">{TEXT.fileHeader}</p>
          <p>{TEXT.fileAccount(email)}</p>
          <p>{TEXT.fileDate(day)}</p>
          <p>{TEXT.fileUse}</p>
        </div>
        {/* A code never breaks (nowrap); the grid puts as many whole codes on a row as fit. */}
        <ul
          ref={list}
          className="grid grid-cols-[repeat(auto-fill,minmax(12rem,1fr))] gap-2 font-mono text-sm"
          data-testid="recovery-codes"
        >
          {codes.map((code) => (
            <li key={code} className="rounded bg-base-200 px-2 py-1 text-center select-all">
              <span className="whitespace-nowrap" data-testid="recovery-code">
                {code}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <div className="flex flex-wrap justify-center gap-2">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void copy()}>
          {TEXT.copy}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={download}>
          {TEXT.download}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => window.print()}>
          {TEXT.print}
        </button>
      </div>
      <button type="button" className="btn btn-primary w-full" onClick={() => setKept(true)}>
        {TEXT.codesKept}
      </button>
      <Dialog
        open={leave.leaveOpen}
        onClose={leave.cancelLeave}
        title={TEXT.leaveTitle}
        description={TEXT.leaveDescription}
        size="md"
        data-testid="recovery-codes-leave-dialog"
        actions={
          <div className="flex w-full flex-wrap-reverse justify-end gap-2 sm:flex-nowrap">
            <button type="button" className="btn btn-ghost" onClick={leave.cancelLeave} autoFocus>
              {TEXT.leaveStay}
            </button>
            <button type="button" className="btn btn-error" onClick={leave.confirmLeave}>
              {TEXT.leaveAnyway}
            </button>
          </div>
        }
      />
    </TwoFactorCard>
  );
}
