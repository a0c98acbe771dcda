import { Combobox } from '#web/components/ui/combobox';
import type { Option } from '#web/components/ui/option-list';
import { Field } from '#web/components/ui/field';
import { Loading } from '#web/components/ui/loading';
import { SaveIcon } from '#web/components/ui/more-icons';
import { toOptions, useCommunes, useDistricts, useRegions } from '../use-references';
import { DetailCard, ReadValue } from './detail-card';
import { chooseDistrict, chooseRegion } from './location-values';
import type { LocationEditor } from './use-location-editor';

/** 'Localisation': region → district → commune (each waits for the one above, §5) and fokontany. */
export function LocationCard({ editor, canEdit }: { editor: LocationEditor; canEdit: boolean }) {
  const place = editor.query.data;
  return (
    <DetailCard
      title="Localisation"
      data-testid="location-card"
      actions={
        canEdit && (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={!editor.dirty || editor.saving}
            data-testid="location-save"
            onClick={() => void editor.save()}
          >
            {editor.saving ? (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            ) : (
              <SaveIcon />
            )}
            Enregistrer la localisation
          </button>
        )
      }
    >
      {editor.query.isPending ? (
        <Loading />
      ) : canEdit ? (
        <LocationEditorFields editor={editor} />
      ) : (
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <ReadValue label="Région" value={place?.region?.designation} />
          <ReadValue label="District" value={place?.district?.designation} />
          <ReadValue label="Commune" value={place?.commune?.designation} />
          <ReadValue label="Fokontany" value={place?.fokontany} />
        </dl>
      )}
    </DetailCard>
  );
}

/**
 * The saved place is known before its list loads (the commune list waits for the district's): keep
 * it among the options so the picker shows its name, never its code, meanwhile.
 */
function withSaved(
  options: Option[],
  saved: { code: string; designation: string } | null | undefined,
): Option[] {
  return saved && !options.some((o) => o.value === saved.code)
    ? [{ value: saved.code, label: saved.designation }, ...options]
    : options;
}

function LocationEditorFields({ editor }: { editor: LocationEditor }) {
  const { values, setValues } = editor;
  const saved = editor.query.data;
  const regions = useRegions();
  const districts = useDistricts(values.region);
  const communes = useCommunes(values.district);
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <Field htmlFor="location-region" label="Région">
        <Combobox
          id="location-region"
          label="Région"
          placeholder="Sélectionner une région"
          clearLabel="Aucune région"
          options={regions.data ? toOptions(regions.data) : withSaved([], saved?.region)}
          loading={regions.isPending}
          value={values.region}
          onChange={(region) => setValues(chooseRegion(values, region))}
          data-testid="location-region"
        />
      </Field>
      <Field htmlFor="location-district" label="District">
        <Combobox
          id="location-district"
          label="District"
          placeholder={values.region ? 'Sélectionner un district' : "Choisissez d'abord une région"}
          clearLabel="Aucun district"
          options={districts.data ? toOptions(districts.data) : withSaved([], saved?.district)}
          loading={districts.isPending}
          disabled={!values.region}
          value={values.district}
          onChange={(district) => setValues(chooseDistrict(values, district))}
          data-testid="location-district"
        />
      </Field>
      <Field htmlFor="location-commune" label="Commune">
        <Combobox
          id="location-commune"
          label="Commune"
          placeholder={values.district ? 'Sélectionner une commune' : "Choisissez d'abord un district"}
          clearLabel="Aucune commune"
          options={communes.data ? toOptions(communes.data) : withSaved([], saved?.commune)}
          loading={communes.isPending}
          disabled={!values.district}
          value={values.commune}
          onChange={(commune) => setValues({ ...values, commune })}
          data-testid="location-commune"
        />
      </Field>
      <Field htmlFor="location-fokontany" label="Fokontany">
        <input
          id="location-fokontany"
          className="input w-full"
          value={values.fokontany}
          maxLength={200}
          data-testid="location-fokontany"
          onChange={(event) => setValues({ ...values, fokontany: event.target.value })}
        />
      </Field>
    </div>
  );
}
