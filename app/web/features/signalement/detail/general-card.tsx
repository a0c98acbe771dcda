import { Controller, useFormContext } from 'react-hook-form';
import type { SignalementDto } from '#shared/dto/signalements';
import { TextareaField } from '#web/components/ui/form-field';
import { DetailCard, ReadValue, YesNo } from './detail-card';
import type { DetailValues } from './detail-form';
import { ListEntryField } from './list-entry-field';

const FLAGS = [
  { name: 'isConfict', label: 'Conflit' },
  { name: 'isRecurrent', label: 'Récurrent' },
  { name: 'isInternalResponsability', label: 'Responsabilité interne' },
] as const;

/** 'Informations Générales': description, the three flags, actions provisoires and preuves. */
export function GeneralCard({ signalement: s }: { signalement: SignalementDto }) {
  return (
    <DetailCard title="Informations Générales" data-testid="general-card">
      {s.canEdit ? <GeneralEditor /> : <GeneralView signalement={s} />}
    </DetailCard>
  );
}

function GeneralView({ signalement: s }: { signalement: SignalementDto }) {
  return (
    <div className="flex flex-col gap-4">
      <dl className="flex flex-col gap-3">
        <ReadValue
          label="Description"
          value={s.description && <span className="whitespace-pre-line">{s.description}</span>}
        />
      </dl>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {FLAGS.map((f) => (
          <ReadValue key={f.name} label={f.label} value={<YesNo value={s[f.name]} />} />
        ))}
      </dl>
      <ListEntryField readOnly label="Actions provisoires" values={s.actionProvisoires} placeholder="" />
      <ListEntryField readOnly label="Preuves" values={s.preuves} placeholder="" />
    </div>
  );
}

function GeneralEditor() {
  const { control, register } = useFormContext<DetailValues>();
  return (
    <div className="flex flex-col gap-4">
      <TextareaField
        control={control}
        name="description"
        id="detail-description"
        label="Description"
        rows={5}
        placeholder="Décrivez les faits signalés"
        data-testid="detail-description"
      />
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {FLAGS.map((f) => (
          <label key={f.name} className="label cursor-pointer gap-2 text-sm text-base-content">
            <input type="checkbox" className="checkbox checkbox-sm checkbox-primary" {...register(f.name)} />
            {f.label}
          </label>
        ))}
      </div>
      <Controller
        control={control}
        name="actionProvisoires"
        render={({ field }) => (
          <ListEntryField
            label="Actions provisoires"
            values={field.value}
            onChange={field.onChange}
            placeholder="Ajouter une action provisoire puis Entrée"
            data-testid="actions-provisoires"
          />
        )}
      />
      <Controller
        control={control}
        name="preuves"
        render={({ field }) => (
          <ListEntryField
            label="Preuves"
            values={field.value}
            onChange={field.onChange}
            placeholder="Ajouter une preuve puis Entrée"
            data-testid="preuves"
          />
        )}
      />
    </div>
  );
}
