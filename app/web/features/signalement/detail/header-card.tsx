import type { ReactNode } from 'react';
import type { SignalementDto } from '#shared/dto/signalements';
import { Badge } from '#web/components/ui/badge';
import { Link } from 'wouter';
import { LockIcon, MailIcon, MoreIcon, PrinterIcon, SaveIcon } from '#web/components/ui/more-icons';
import { usePopover } from '#web/components/ui/use-popover';
import { BADGE_EMPTY, IN_PROGRESS, TREATED } from '../labels';
import { PRINT_TEXT, printPath } from '../print/print-text';

export interface HeaderCardProps {
  signalement: SignalementDto;
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onMail: () => void;
}

/** Code, partner, Save, the 'Autres actions' menu and the five badges of §2. */
export function HeaderCard({ signalement: s, dirty, saving, onSave, onMail }: HeaderCardProps) {
  return (
    <section className="card border border-base-300 bg-base-100" data-testid="header-card">
      <div className="card-body gap-3 p-4 md:p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1.5">
            <h1 className="font-mono text-xl font-bold break-all md:text-2xl" data-testid="signalement-code">
              {s.code}
            </h1>
            <div>
              <Badge color={s.partenaire.color} data-testid="partner-badge">
                {s.partenaire.designation}
              </Badge>
            </div>
          </div>
          {/* At the right even when wrapped under a long partner name (phone): the menu opens leftwards. */}
          <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
            {s.canEdit && (
              <button
                type="button"
                className="btn btn-primary"
                disabled={!dirty || saving}
                data-testid="save-button"
                onClick={onSave}
              >
                {saving ? (
                  <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                ) : (
                  <SaveIcon />
                )}
                Sauvegarder
              </button>
            )}
            {/* Printing is every reader's; only who may edit writes to the partner (the server refuses others). */}
            <OtherActions
              code={s.code}
              partner={s.canEdit ? s.partenaire.designation : null}
              onMail={onMail}
            />
          </div>
        </div>
        {!s.canEdit && (
          <p className="flex items-center gap-2 text-sm text-base-content/70" data-testid="read-only-note">
            <LockIcon size={14} />
            Lecture seule - Vous ne pouvez pas modifier ce signalement
          </p>
        )}
        <div className="flex flex-wrap gap-2" data-testid="header-badges">
          <LabelledBadge label="Canal principal">{s.canalPrincipal?.designation}</LabelledBadge>
          <LabelledBadge label="Statut">{s.statut?.designation}</LabelledBadge>
          <LabelledBadge label="Niveau" color={s.niveau?.color}>
            {s.niveau?.designation}
          </LabelledBadge>
          <LabelledBadge label="Résultat">{s.resultat?.designation}</LabelledBadge>
          <LabelledBadge label="État" tone={s.isTreated ? 'green' : 'amber'}>
            {s.isTreated ? TREATED : IN_PROGRESS}
          </LabelledBadge>
        </div>
      </div>
    </section>
  );
}

function LabelledBadge({
  label,
  color,
  tone = 'gray',
  children,
}: {
  label: string;
  color?: string | null;
  tone?: 'gray' | 'green' | 'amber';
  children: ReactNode;
}) {
  const empty = children === null || children === undefined || children === '';
  return (
    <Badge color={empty ? undefined : color} tone={empty ? 'gray' : tone} data-testid={`badge-${label}`}>
      <span className="font-normal">{label} :</span> {empty ? BADGE_EMPTY : children}
    </Badge>
  );
}

function OtherActions({
  code,
  partner,
  onMail,
}: {
  code: string;
  /** The partner to write to, null when the reader may not. */
  partner: string | null;
  onMail: () => void;
}) {
  const { open, setOpen, ref } = usePopover<HTMLDivElement>();
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        className="btn btn-outline"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="other-actions"
        onClick={() => setOpen(!open)}
      >
        <MoreIcon />
        Autres actions
      </button>
      {open && (
        <ul
          role="menu"
          className="menu absolute top-full right-0 z-40 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-box border border-base-300 bg-base-100 p-1 shadow-lg"
        >
          <li role="none">
            <Link href={printPath(code)} role="menuitem" data-testid="print-action">
              <PrinterIcon />
              {PRINT_TEXT.print}
            </Link>
          </li>
          {partner !== null && (
            <li role="none">
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setOpen(false);
                  onMail();
                }}
              >
                <MailIcon />
                Envoyer un email à {partner}
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
