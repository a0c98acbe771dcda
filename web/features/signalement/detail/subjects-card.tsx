import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { OTHERS_CODE } from '../../../../shared/constants';
import type { SignalementDto } from '../../../../shared/dto/signalements';
import { Badge } from '../../../components/ui/badge';
import { errorProps, Field } from '../../../components/ui/field';
import { MultiSelect } from '../../../components/ui/multi-select';
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
  const { control, register, formState } = useFormContext<DetailValues>();
  const chosen = useWatch({ control, name: 'subjects' });
  const autreObject = useWatch({ control, name: 'autreObject' }) ?? '';
  const byCode = new Map((subjects.data ?? []).map((s) => [s.code, s]));
  const chosenSubjects = chosen.map((code) => ({ code, designation: byCode.get(code)?.designation ?? code }));
  const errors = formState.errors;

  return (
    <div className="flex flex-col gap-3">
      <SubjectBadges subjects={chosenSubjects} autreObject={autreObject} />
      <Field htmlFor="detail-subjects" label="Objets" error={errors.subjects?.message}>
        <Controller
          control={control}
          name="subjects"
          render={({ field }) => (
            <MultiSelect
              id="detail-subjects"
              label="Objets du signalement"
              placeholder="Sélectionner un ou plusieurs objets"
              options={toOptions(subjects.data)}
              loading={subjects.isPending}
              emptyText="Aucun objet trouvé."
              value={field.value}
              onChange={field.onChange}
              invalid={!!errors.subjects}
              data-testid="detail-subjects"
            />
          )}
        />
      </Field>
      {chosen.includes(OTHERS_CODE) && (
        <Field
          htmlFor="detail-autre-objet"
          label="Précisez l'objet (Autre)"
          error={errors.autreObject?.message}
        >
          <textarea
            id="detail-autre-objet"
            rows={2}
            className={`textarea w-full ${errors.autreObject ? 'textarea-error' : ''}`}
            {...errorProps('detail-autre-objet', errors.autreObject?.message)}
            {...register('autreObject')}
          />
        </Field>
      )}
    </div>
  );
}
