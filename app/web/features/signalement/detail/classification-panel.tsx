import { useFormContext, useWatch } from 'react-hook-form';
import { OTHERS_CODE } from '#shared/constants';
import type { SignalementDto } from '#shared/dto/signalements';
import { Badge } from '#web/components/ui/badge';
import { SelectField, TextField } from '#web/components/ui/form-field';
import { toOptions, useCanals, useNiveaux, useResultats, useStatuts } from '../use-references';
import { DetailCard, ReadValue } from './detail-card';
import type { DetailValues } from './detail-form';
import { ProjectAvatars } from './project-avatars';
import { ProjectsField } from './projects-field';

/** Side column: niveau, statut, résultat, projects and the main channel (§2). */
export function ClassificationPanel({ signalement: s }: { signalement: SignalementDto }) {
  return (
    <DetailCard title="Classification" data-testid="classification-panel">
      {s.canEdit ? <ClassificationEditor signalement={s} /> : <ClassificationView signalement={s} />}
    </DetailCard>
  );
}

function ClassificationView({ signalement: s }: { signalement: SignalementDto }) {
  const canal =
    s.canalPrincipal?.code === OTHERS_CODE && s.autreCanalPrincipal
      ? `${s.canalPrincipal.designation} — ${s.autreCanalPrincipal}`
      : s.canalPrincipal?.designation;
  return (
    <dl className="flex flex-col gap-3">
      <ReadValue
        label="Niveau"
        value={
          s.niveau && (
            <Badge color={s.niveau.color} size="sm">
              {s.niveau.designation}
            </Badge>
          )
        }
      />
      <ReadValue label="Statut" value={s.statut?.designation} />
      <ReadValue label="Résultat" value={s.resultat?.designation} />
      <div className="flex flex-col gap-1">
        <dt className="text-xs font-medium tracking-wide text-base-content/70 uppercase">Projets</dt>
        <dd>
          <ProjectAvatars projects={s.projects} />
        </dd>
      </div>
      <ReadValue label="Canal principal" value={canal} />
    </dl>
  );
}

function ClassificationEditor({ signalement }: { signalement: SignalementDto }) {
  const { control } = useFormContext<DetailValues>();
  const niveaux = useNiveaux();
  const statuts = useStatuts();
  const resultats = useResultats();
  const canals = useCanals();
  const canal = useWatch({ control, name: 'canalPrincipal' });

  const select = (
    name: 'niveau' | 'statut' | 'resultat' | 'canalPrincipal',
    label: string,
    rows: readonly { code: string; designation: string }[] | undefined,
  ) => (
    <SelectField
      control={control}
      name={name}
      id={`detail-${name}`}
      label={label}
      placeholder="Non renseigné"
      options={toOptions(rows)}
      data-testid={`detail-${name}`}
    />
  );

  return (
    <div className="flex flex-col gap-3">
      {select('niveau', 'Niveau', niveaux.data)}
      {select('statut', 'Statut', statuts.data)}
      {select('resultat', 'Résultat', resultats.data)}
      <ProjectsField partenaire={signalement.partenaire} />
      {select('canalPrincipal', 'Canal principal', canals.data)}
      {canal === OTHERS_CODE && (
        <TextField
          control={control}
          name="autreCanalPrincipal"
          id="detail-autre-canal"
          label="Précisez le canal (Autre)"
        />
      )}
    </div>
  );
}
