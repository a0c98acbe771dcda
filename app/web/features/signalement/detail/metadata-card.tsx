import type { SignalementDto } from '#shared/dto/signalements';
import { formatDate, formatDateTime } from '#web/lib/format';
import { EcheanceValue } from '../echeance-badge';
import { NOT_ASSIGNED_LABEL, NOT_CLOSED } from '../labels';
import { DetailCard, ReadValue, YesNo } from './detail-card';

/** 'Métadonnées': who created the report and when, its dates and whether it is treated. */
export function MetadataCard({ signalement: s }: { signalement: SignalementDto }) {
  return (
    <DetailCard title="Métadonnées" data-testid="metadata-card">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        <ReadValue label="Code" value={<span className="font-mono">{s.code}</span>} />
        <ReadValue label="Partenaire" value={s.partenaire.designation} />
        <ReadValue label="Date de signalement" value={formatDate(s.signalementAt)} />
        <ReadValue label="Échéance" value={<EcheanceValue echeance={s.echeance} />} />
        <ReadValue label="Créé le" value={formatDateTime(s.createdAt)} />
        <ReadValue
          label="Créé par"
          value={s.createdBy.nomPrenom && <span title={s.createdBy.email}>{s.createdBy.nomPrenom}</span>}
        />
        <ReadValue
          label="Assigné à"
          value={
            <span data-testid="assignees-value">
              {s.assignees.map((a) => a.nomPrenom).join(', ') || NOT_ASSIGNED_LABEL}
            </span>
          }
        />
        <ReadValue label="Dernière action" value={formatDateTime(s.lastActionAt)} />
        <ReadValue
          label="Date de clôture"
          value={<span data-testid="close-at">{formatDate(s.closeAt, NOT_CLOSED)}</span>}
        />
        <ReadValue label="Traité" value={<YesNo value={s.isTreated} data-testid="is-treated" />} />
      </dl>
    </DetailCard>
  );
}
