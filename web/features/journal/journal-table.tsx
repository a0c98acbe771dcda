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

/** Columns: Date (Madagascar time), Utilisateur, Adresse, Type, Signalement, Détail. */
export function JournalTable({ entries }: { entries: AccessLogEntryDto[] }) {
  const c = JOURNAL_TEXT.columns;
  return (
    // Scrolls sideways on a phone: focusable, so the keyboard can scroll it too (axe scrollable-region-focusable).
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={JOURNAL_TEXT.title}>
      <table className="table" data-testid="journal-table">
        <thead>
          <tr>
            <th scope="col">{c.at}</th>
            <th scope="col">{c.user}</th>
            <th scope="col">{c.address}</th>
            <th scope="col">{c.kind}</th>
            <th scope="col">{c.signalement}</th>
            <th scope="col">{c.detail}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <JournalRow key={entry.id} entry={entry} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function JournalRow({ entry }: { entry: AccessLogEntryDto }) {
  return (
    <tr data-testid="journal-row" data-kind={entry.kind} className="hover:bg-base-200/50">
      <td className="whitespace-nowrap tabular-nums" data-testid="journal-row-at">
        {formatDateTimeSeconds(entry.at, JOURNAL_TEXT.none)}
      </td>
      <td data-testid="journal-row-user">
        <div className="font-medium">{entry.utilisateur?.nomPrenom ?? JOURNAL_TEXT.unknownUser}</div>
        <div className="text-sm text-base-content/70">
          {entry.utilisateur?.email ?? entry.email ?? JOURNAL_TEXT.none}
        </div>
      </td>
      <td className="whitespace-nowrap">{entry.address ?? JOURNAL_TEXT.none}</td>
      <td>
        <Badge tone={KIND_TONES[entry.kind]} size="sm" data-testid="journal-row-kind">
          {ACCESS_LOG_KIND_LABELS[entry.kind]}
        </Badge>
      </td>
      <td className="whitespace-nowrap" data-testid="journal-row-signalement">
        {entry.signalement ? (
          <Link
            href={`/signalement/detail/${encodeURIComponent(entry.signalement)}`}
            className="link link-primary"
          >
            {entry.signalement}
          </Link>
        ) : (
          JOURNAL_TEXT.none
        )}
      </td>
      <td data-testid="journal-row-detail">{entry.description}</td>
    </tr>
  );
}
