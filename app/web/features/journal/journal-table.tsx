import { Link } from 'wouter';
import type { AccessLogKind } from '#shared/constants';
import { ACCESS_LOG_KIND_LABELS, type AccessLogEntryDto } from '#shared/dto/journal';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { formatDateTimeSeconds } from '#web/lib/format';
import { JOURNAL_TEXT } from './journal-text';

// Reads of people and exports stand out; log-ins stay quiet.
const KIND_TONES: Record<AccessLogKind, BadgeTone> = {
  lecture_personnes: 'amber',
  lecture_historique: 'yellow',
  lecture_notes: 'yellow',
  ecriture_notes: 'yellow',
  lecture_pieces_jointes: 'yellow',
  export: 'violet',
  droits: 'red',
  connexion: 'gray',
  echec_connexion: 'orange',
  purge: 'blue',
  action_groupee: 'red',
  parametres: 'blue',
  jeton_api: 'violet',
  impression: 'amber',
};

/**
 * Columns: Date (Madagascar time), Utilisateur, Adresse, Type, Signalement, Détail. Below lg (phones, and a
 * tablet beside the sidebar) each entry is a card, as the users' and partners' lists do (the
 * table was 1,008 px wide in a 309 px box): the user on the first line, the date, kind, address and report
 * on the next ones with their column's name, the detail last, nothing to scroll sideways.
 */
export function JournalTable({ entries }: { entries: AccessLogEntryDto[] }) {
  const c = JOURNAL_TEXT.columns;
  return (
    // From lg the table may scroll sideways: focusable, so the keyboard can scroll it too (axe scrollable-region-focusable).
    <div className="lg:overflow-x-auto" tabIndex={0} role="region" aria-label={JOURNAL_TEXT.title}>
      <table className="table max-lg:block" data-testid="journal-table">
        <thead className="max-lg:hidden">
          <tr>
            <th scope="col">{c.at}</th>
            <th scope="col">{c.user}</th>
            <th scope="col">{c.address}</th>
            <th scope="col">{c.kind}</th>
            <th scope="col">{c.signalement}</th>
            <th scope="col">{c.detail}</th>
          </tr>
        </thead>
        <tbody className="max-lg:block">
          {entries.map((entry) => (
            <JournalRow key={entry.id} entry={entry} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

// A card's cell: a block in a wrapping row, no table padding or border.
const CELL = 'max-lg:block max-lg:border-0 max-lg:px-1 max-lg:py-0.5 min-w-0';

/** The column's name in front of the value, on a card only (the table has its header). */
function CardLabel({ children }: { children: string }) {
  return <span className="text-xs text-base-content/75 lg:hidden">{children} : </span>;
}

function JournalRow({ entry }: { entry: AccessLogEntryDto }) {
  const c = JOURNAL_TEXT.columns;
  return (
    <tr
      data-testid="journal-row"
      data-kind={entry.kind}
      className="hover:bg-base-200/50 max-lg:flex max-lg:flex-wrap max-lg:items-center max-lg:gap-x-3 max-lg:gap-y-1 max-lg:border-b max-lg:border-base-300 max-lg:py-3"
    >
      <td className={`${CELL} whitespace-nowrap tabular-nums`} data-testid="journal-row-at">
        {formatDateTimeSeconds(entry.at, JOURNAL_TEXT.none)}
      </td>
      <td className={`${CELL} max-lg:order-first max-lg:basis-full`} data-testid="journal-row-user">
        <div className="font-medium [overflow-wrap:anywhere]">
          {entry.utilisateur?.nomPrenom ?? JOURNAL_TEXT.unknownUser}
        </div>
        <div className="text-sm text-base-content/70 [overflow-wrap:anywhere]">
          {entry.utilisateur?.email ?? entry.email ?? JOURNAL_TEXT.none}
        </div>
      </td>
      <td className={`${CELL} whitespace-nowrap max-lg:order-1`}>
        <CardLabel>{c.address}</CardLabel>
        {entry.address ?? JOURNAL_TEXT.none}
      </td>
      <td className={CELL}>
        {/* One line: the badge's own overflow-wrap would let a narrow column break « Connexion » mid-word. */}
        <Badge
          tone={KIND_TONES[entry.kind]}
          size="sm"
          className="whitespace-nowrap"
          data-testid="journal-row-kind"
        >
          {ACCESS_LOG_KIND_LABELS[entry.kind]}
        </Badge>
      </td>
      <td className={`${CELL} whitespace-nowrap`} data-testid="journal-row-signalement">
        {entry.signalement ? (
          <>
            <CardLabel>{c.signalement}</CardLabel>
            <Link
              href={`/signalement/detail/${encodeURIComponent(entry.signalement)}`}
              className="link link-primary"
            >
              {entry.signalement}
            </Link>
          </>
        ) : (
          <span className="max-lg:hidden">{JOURNAL_TEXT.none}</span>
        )}
      </td>
      <td
        className={`${CELL} max-lg:order-2 max-lg:basis-full [overflow-wrap:anywhere]`}
        data-testid="journal-row-detail"
      >
        {entry.description}
      </td>
    </tr>
  );
}
