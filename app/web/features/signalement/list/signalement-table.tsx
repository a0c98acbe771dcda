import { Link } from 'wouter';
import type { SignalementListItemDto } from '#shared/dto/signalements';
import { Badge } from '#web/components/ui/badge';
import { formatDate } from '#web/lib/format';
import { EcheanceCell } from '../echeance-badge';
import { EMPTY_VALUE, NOT_ASSIGNED_LABEL } from '../labels';
import { BULK_TEXTS } from './bulk/bulk-texts';
import { SelectCheckbox } from './bulk/select-checkbox';
import type { BulkSelection } from './bulk/use-bulk-selection';

export const detailPath = (code: string) => `/signalement/detail/${encodeURIComponent(code)}`;

function PartnerName({ partenaire }: { partenaire: SignalementListItemDto['partenaire'] }) {
  return (
    <span className="inline-flex items-start gap-1.5">
      <span
        className="mt-1.5 size-2 shrink-0 rounded-full"
        style={{ backgroundColor: partenaire.color }}
        aria-hidden="true"
      />
      <span className="line-clamp-2">{partenaire.designation}</span>
    </span>
  );
}

/** The page's checkbox: in the table's header row, and above the cards on a phone (decision 0035). */
function pageCheckbox(selection: BulkSelection, testId: string) {
  return (
    <SelectCheckbox
      label={BULK_TEXTS.selectPage}
      checked={selection.allOnPage}
      mixed={selection.someOnPage}
      onChange={selection.togglePage}
      testId={testId}
    />
  );
}

/** « Assigné à »: the assignees' names, or « Non assigné » (docs/decisions/0028). */
function Assignees({ signalement: s }: { signalement: SignalementListItemDto }) {
  if (s.assignees.length === 0) return <span className="text-base-content/70">{NOT_ASSIGNED_LABEL}</span>;
  return <span className="line-clamp-2">{s.assignees.map((a) => a.nomPrenom).join(', ')}</span>;
}

const place = (s: SignalementListItemDto) =>
  [s.commune?.designation, s.district?.designation, s.region?.designation].filter(Boolean).join(', ');

/**
 * The reports of one page: a table on wide screens, stacked cards on phones. A row is a real link to the
 * detail: the code's link covers the whole row, so a click, Ctrl-click, middle-click
 * or « Ouvrir dans un nouvel onglet » anywhere on it behaves as on a link.
 */
export function SignalementTable({
  items,
  selection,
}: {
  items: SignalementListItemDto[];
  /** The bulk actions' selection (docs/decisions/0035-bulk-actions.md): a checkbox per row when given. */
  selection?: BulkSelection;
}) {
  const rowBox = (code: string) =>
    selection && (
      <SelectCheckbox
        label={BULK_TEXTS.selectRow(code)}
        checked={selection.wholeFilter || selection.codes.has(code)}
        onChange={() => selection.toggle(code)}
        testId="row-select"
      />
    );
  return (
    <>
      <div className="hidden overflow-x-auto md:block">
        <table className="table table-sm" data-testid="signalement-table">
          <thead>
            <tr>
              {selection && <th className="w-8 print:hidden">{pageCheckbox(selection, 'page-select')}</th>}
              <th>Code</th>
              <th>Partenaire</th>
              <th>Objet(s)</th>
              <th>Localisation</th>
              <th>Statut</th>
              <th>Niveau</th>
              <th>Échéance</th>
              <th>Assigné à</th>
            </tr>
          </thead>
          <tbody>
            {items.map((s) => (
              <tr
                key={s.code}
                className="hover relative cursor-pointer hover:bg-base-200 has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-primary"
                data-testid="signalement-row"
                data-code={s.code}
              >
                {selection && <td className="print:hidden">{rowBox(s.code)}</td>}
                <td className="whitespace-nowrap">
                  <Link
                    href={detailPath(s.code)}
                    className="block font-mono text-xs font-semibold outline-none after:absolute after:inset-0 after:content-['']"
                    data-testid="signalement-link"
                  >
                    {s.code}
                  </Link>
                  <span className="text-xs text-base-content/70">{formatDate(s.signalementAt)}</span>
                </td>
                <td className="max-w-52">
                  <PartnerName partenaire={s.partenaire} />
                </td>
                <td className="max-w-56">
                  <span className="line-clamp-2">{s.subjects.map((x) => x.designation).join(', ')}</span>
                  <span className="text-xs text-base-content/70">{s.canalPrincipal?.designation}</span>
                </td>
                <td className="max-w-48">
                  <span className="line-clamp-2">{place(s) || EMPTY_VALUE}</span>
                </td>
                <td>
                  {s.statut ? (
                    <Badge tone={s.isTreated ? 'green' : 'gray'} size="sm">
                      {s.statut.designation}
                    </Badge>
                  ) : (
                    <span className="text-base-content/70">{EMPTY_VALUE}</span>
                  )}
                </td>
                <td>
                  {s.niveau ? (
                    <Badge color={s.niveau.color} size="sm">
                      {s.niveau.designation}
                    </Badge>
                  ) : (
                    <span className="text-base-content/70">{EMPTY_VALUE}</span>
                  )}
                </td>
                <td>
                  <EcheanceCell echeance={s.echeance} />
                </td>
                <td className="max-w-44" data-testid="assignees-cell">
                  <Assignees signalement={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {selection && (
        // The cards have no header row: the page's checkbox stands above them (decision 0035).
        <label className="mb-2 flex items-center gap-2 text-sm md:hidden print:hidden">
          {pageCheckbox(selection, 'page-select-cards')}
          {BULK_TEXTS.selectPage}
        </label>
      )}
      <ul className="flex flex-col gap-2 md:hidden" data-testid="signalement-cards">
        {items.map((s) => (
          <li key={s.code} className="flex items-start gap-2">
            {selection && <span className="pt-3">{rowBox(s.code)}</span>}
            <Link
              href={detailPath(s.code)}
              className="flex w-full min-w-0 flex-col gap-1.5 rounded-box border border-base-300 bg-base-100 p-3 text-left hover:bg-base-200"
              data-testid="signalement-card"
              data-code={s.code}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="font-mono text-xs font-semibold">{s.code}</span>
                <span className="text-xs text-base-content/70">{formatDate(s.signalementAt)}</span>
              </span>
              <span className="text-sm">{s.subjects.map((x) => x.designation).join(', ')}</span>
              <span className="flex flex-wrap items-center gap-1.5">
                <Badge color={s.partenaire.color} size="sm">
                  {s.partenaire.designation}
                </Badge>
                {s.statut && (
                  <Badge tone={s.isTreated ? 'green' : 'gray'} size="sm">
                    {s.statut.designation}
                  </Badge>
                )}
                {s.niveau && (
                  <Badge color={s.niveau.color} size="sm">
                    {s.niveau.designation}
                  </Badge>
                )}
              </span>
              {place(s) && <span className="text-xs text-base-content/70">{place(s)}</span>}
              {s.echeance && (
                <span className="flex items-center gap-1.5 text-xs">
                  Échéance : <EcheanceCell echeance={s.echeance} />
                </span>
              )}
              <span className="text-xs">
                Assigné à : <Assignees signalement={s} />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
