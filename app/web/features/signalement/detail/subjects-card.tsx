import { useFormContext, useWatch } from 'react-hook-form';
import { OTHERS_CODE } from '#shared/constants';
import type { SignalementDto } from '#shared/dto/signalements';
import { Badge } from '#web/components/ui/badge';
import { MultiSelectField } from '#web/components/ui/choice-fields';
import { TextareaField } from '#web/components/ui/form-field';
import { EMPTY_VALUE, truncate } from '../labels';
import { toOptions, useSubjects } from '../use-references';
import { DetailCard } from './detail-card';
import type { DetailValues } from './detail-form';

/** Subject badges; OTHERS shows its description cut at 50 characters (§9). */
function SubjectBadges({
  subjects,
  autreObject,
}: {
  subjects: { code: string; designation: string }[];
  autreObject: string;
}) {
  if (subjects.length === 0) return <p className="text-sm text-base-content/70">{EMPTY_VALUE}</p>;
  return (
    <div className="flex flex-wrap gap-2" data-testid="subject-badges">
      {subjects.map((s) => (
        <Badge
          key={s.code}
          tone="blue"
          title={s.code === OTHERS_CODE && autreObject ? autreObject : undefined}
        >
          {s.code === OTHERS_CODE && autreObject.trim() ? `Autre : ${truncate(autreObject)}` : s.designation}
        </Badge>
      ))}
    </div>
  );
}

export function SubjectsCard({ signalement, canEdit }: { signalement: SignalementDto; canEdit: boolean }) {
  return (
    <DetailCard title="Objet(s) du signalement" data-testid="subjects-card">
      {canEdit ? (
        <SubjectsEditor />
      ) : (
        <SubjectBadges subjects={signalement.subjects} autreObject={signalement.autreObject ?? ''} />
      )}
    </DetailCard>
  );
}

function SubjectsEditor() {
  const subjects = useSubjects();
  const { control } = useFormContext<DetailValues>();
  const chosen = useWatch({ control, name: 'subjects' });
  const autreObject = useWatch({ control, name: 'autreObject' }) ?? '';
  const byCode = new Map((subjects.data ?? []).map((s) => [s.code, s]));
  const chosenSubjects = chosen.map((code) => ({ code, designation: byCode.get(code)?.designation ?? code }));

  return (
    <div className="flex flex-col gap-3">
      <SubjectBadges subjects={chosenSubjects} autreObject={autreObject} />
      <MultiSelectField
        control={control}
        name="subjects"
        id="detail-subjects"
        label="Objets"
        controlLabel="Objets du signalement"
        placeholder="Sélectionner un ou plusieurs objets"
        options={toOptions(subjects.data)}
        loading={subjects.isPending}
        emptyText="Aucun objet trouvé."
        data-testid="detail-subjects"
      />
      {chosen.includes(OTHERS_CODE) && (
        <TextareaField
          control={control}
          name="autreObject"
          id="detail-autre-objet"
          label="Précisez l'objet (Autre)"
          rows={2}
        />
      )}
    </div>
  );
}
