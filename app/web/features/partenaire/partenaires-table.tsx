import { INTERNAL_PARTNER_CODE } from '#shared/constants';
import { PencilIcon, TrashIcon } from '#web/components/ui/more-icons';
import { PartnerBadge } from './partner-badge';
import { formatPhone, PARTENAIRES_TEXT, type PartenaireRow } from './partenaires-text';

export interface PartenairesTableProps {
  partenaires: PartenaireRow[];
  onEdit: (partenaire: PartenaireRow) => void;
  onDelete: (partenaire: PartenaireRow) => void;
}

/** Why a partner cannot be deleted, or null when it can (the server checks the same). */
export function deleteBlocker(p: PartenaireRow): string | null {
  if (p.code === INTERNAL_PARTNER_CODE) return PARTENAIRES_TEXT.deleteInternal;
  if (p.projectsCount > 0 || p.signalementsCount > 0) return PARTENAIRES_TEXT.deleteLinked;
  return null;
}

/** Columns of §2 Partners: Désignation, Email, Téléphone, Projets, Signalements, Actions. */
export function PartenairesTable({ partenaires, onEdit, onDelete }: PartenairesTableProps) {
  return (
    <div className="md:overflow-x-auto">
      <table className="table table-stack" data-testid="partenaires-table">
        <thead>
          <tr>
            <th>Désignation</th>
            <th>Email</th>
            <th>Téléphone</th>
            <th className="text-right">Projets</th>
            <th className="text-right">Signalements</th>
            <th className="text-right">Actions</th>
          </tr>
        </thead>
        <tbody>
          {partenaires.map((p) => {
            const blocker = deleteBlocker(p);
            return (
              <tr
                key={p.code}
                data-testid="partenaire-row"
                data-code={p.code}
                className="hover:bg-base-200/50"
              >
                <td className="md:min-w-48">
                  <PartnerBadge partner={p} />
                </td>
                <td className="break-all md:whitespace-nowrap md:break-normal">{p.email ?? '-'}</td>
                <td className="whitespace-nowrap" data-testid="partenaire-phone">
                  {p.phoneNumber ? formatPhone(p.phoneNumber) : '-'}
                </td>
                <td
                  className="text-right tabular-nums"
                  data-testid="partenaire-projects"
                  data-label="Projets"
                >
                  {p.projectsCount}
                </td>
                <td
                  className="text-right tabular-nums"
                  data-testid="partenaire-signalements"
                  data-label="Signalements"
                >
                  {p.signalementsCount}
                </td>
                <td>
                  <div className="flex justify-end gap-1">
                    <div className="tooltip" data-tip={PARTENAIRES_TEXT.edit}>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm btn-square"
                        aria-label={`${PARTENAIRES_TEXT.edit} ${p.designation}`}
                        onClick={() => onEdit(p)}
                      >
                        <PencilIcon />
                      </button>
                    </div>
                    {/* A disabled button gets no hover: the tooltip sits on a wrapper that does. */}
                    <div
                      className="tooltip tooltip-left"
                      data-tip={blocker ?? PARTENAIRES_TEXT.delete}
                      data-testid="partenaire-delete-wrapper"
                    >
                      <button
                        type="button"
                        className={`btn btn-ghost btn-sm btn-square ${blocker ? '' : 'text-error'}`}
                        aria-label={`${PARTENAIRES_TEXT.delete} ${p.designation}`}
                        disabled={blocker !== null}
                        onClick={() => onDelete(p)}
                      >
                        <TrashIcon />
                      </button>
                    </div>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
