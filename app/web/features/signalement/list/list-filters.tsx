import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '#shared/constants';
import type { EcheanceFilter, EtatFilter } from '#shared/schemas/signalements';
import { DateInput } from '#web/components/ui/date-input';
import { Combobox } from '#web/components/ui/combobox';
import { FilterIcon, SearchIcon } from '#web/components/ui/more-icons';
import { MultiSelect } from '#web/components/ui/multi-select';
import { useDebouncedCallback } from '#web/lib/use-debounce';
import {
  toOptions,
  useCommunes,
  useDistricts,
  usePartenaireOptions,
  useRegions,
  useSubjects,
  useUtilisateurOptions,
} from '../use-references';
import {
  CLEARED_FILTERS,
  hasActiveFilters,
  NOT_ASSIGNED,
  SORTS,
  type ListFilters,
  type SortKey,
} from './list-url';

/** The deadline filter's choices (docs/decisions/0032). */
const ECHEANCE_OPTIONS: Array<{ value: EcheanceFilter; label: string }> = [
  { value: 'en_retard', label: 'En retard' },
  { value: 'sous_7_jours', label: 'À échéance sous 7 jours' },
];

/** The state filter's choices: what « Mes dossiers ouverts » counts, or the rest. */
const ETAT_OPTIONS: Array<{ value: EtatFilter; label: string }> = [
  { value: 'ouvert', label: 'Ouverts' },
  { value: 'traite', label: 'Traités ou clos' },
];

type Update = (change: Partial<ListFilters>, options?: { replace?: boolean }) => void;

export function ListFilters({ filters, update }: { filters: ListFilters; update: Update }) {
  const [showFilters, setShowFilters] = useState(false);
  const active = hasActiveFilters(filters);
  const count =
    filters.partenaires.length +
    filters.subjects.length +
    filters.createdBy.length +
    [
      filters.assignee,
      filters.region,
      filters.district,
      filters.commune,
      filters.after,
      filters.before,
      filters.echeance,
      filters.etat,
    ].filter(Boolean).length;

  return (
    <div className="flex flex-col gap-3" data-testid="list-filters">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <SearchBox value={filters.search} onSearch={(search) => update({ search }, { replace: true })} />
        <div className="flex items-center gap-2">
          <label className="sr-only" htmlFor="signalement-sort">
            Trier par
          </label>
          <select
            id="signalement-sort"
            className="select w-full sm:w-44"
            value={filters.sort}
            data-testid="sort-select"
            onChange={(event) => update({ sort: event.target.value as SortKey, page: 1 })}
          >
            {SORTS.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn md:hidden"
            aria-expanded={showFilters}
            aria-controls="signalement-filter-grid"
            onClick={() => setShowFilters(!showFilters)}
          >
            <FilterIcon />
            Filtres{count > 0 ? ` (${count})` : ''}
          </button>
        </div>
      </div>
      <div
        id="signalement-filter-grid"
        className={`${showFilters ? 'grid' : 'hidden'} grid-cols-1 gap-2 sm:grid-cols-2 md:grid lg:grid-cols-4`}
      >
        <FilterPickers filters={filters} update={update} />
        <DateFilter
          label="Après le"
          id="filter-after"
          value={filters.after}
          onChange={(after) => update({ after })}
        />
        <DateFilter
          label="Avant le"
          id="filter-before"
          value={filters.before}
          onChange={(before) => update({ before })}
        />
        {active && (
          <button
            type="button"
            className="btn btn-ghost self-end"
            data-testid="reset-filters"
            onClick={() => update(CLEARED_FILTERS)}
          >
            Réinitialiser les filtres
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * Typing shows at once; the address bar (and so the list query) follows 300 ms after the last key.
 * A change of the URL from elsewhere (back button, reset) replaces what the box shows.
 */
function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (text.trim() !== value) setText(value);
  }
  const debounced = useDebouncedCallback((next: string) => onSearch(next.trim()), SEARCH_DEBOUNCE_MS);
  return (
    <label className="input w-full sm:flex-1" htmlFor="signalement-search">
      <SearchIcon className="opacity-50" />
      <input
        id="signalement-search"
        type="search"
        placeholder="Rechercher un signalement..."
        aria-label="Rechercher un signalement"
        data-testid="search-input"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          debounced.run(event.target.value);
        }}
      />
    </label>
  );
}

function FilterPickers({ filters, update }: { filters: ListFilters; update: Update }) {
  const [partnerSearch, setPartnerSearch] = useState('');
  const [userSearch, setUserSearch] = useState('');
  const [assigneeSearch, setAssigneeSearch] = useState('');
  const assignees = useUtilisateurOptions(assigneeSearch);
  const partners = usePartenaireOptions(partnerSearch);
  const users = useUtilisateurOptions(userSearch);
  const subjects = useSubjects();
  const regions = useRegions();
  const districts = useDistricts(filters.region);
  const communes = useCommunes(filters.district);

  return (
    <>
      <MultiSelect
        label="Filtrer par partenaire"
        placeholder="Tous les partenaires"
        options={partners.options}
        loading={partners.isPending}
        onSearchChange={setPartnerSearch}
        value={filters.partenaires}
        onChange={(partenaires) => update({ partenaires })}
        data-testid="filter-partenaire"
      />
      <MultiSelect
        label="Filtrer par objet"
        placeholder="Tous les objets"
        options={toOptions(subjects.data)}
        loading={subjects.isPending}
        emptyText="Aucun objet trouvé."
        value={filters.subjects}
        onChange={(next) => update({ subjects: next })}
        data-testid="filter-subjects"
      />
      <MultiSelect
        label="Filtrer par créateur"
        placeholder="Tous les créateurs"
        options={users.options}
        loading={users.isPending}
        onSearchChange={setUserSearch}
        emptyText="Aucun utilisateur trouvé."
        value={filters.createdBy}
        onChange={(createdBy) => update({ createdBy })}
        data-testid="filter-createdBy"
      />
      <Combobox
        label="Filtrer par assigné"
        placeholder="Assigné à : tous"
        clearLabel="Tous"
        options={[{ value: NOT_ASSIGNED, label: 'Non assigné' }, ...assignees.options]}
        loading={assignees.isPending}
        onSearchChange={setAssigneeSearch}
        emptyText="Aucun utilisateur trouvé."
        value={filters.assignee}
        onChange={(assignee) => update({ assignee })}
        data-testid="filter-assignee"
      />
      <Combobox
        label="Filtrer par région"
        placeholder="Toutes les régions"
        clearLabel="Toutes les régions"
        options={toOptions(regions.data)}
        loading={regions.isPending}
        value={filters.region}
        // §4: a new region clears district and commune.
        onChange={(region) => update({ region, district: null, commune: null })}
        data-testid="filter-region"
      />
      <Combobox
        label="Filtrer par district"
        placeholder="Tous les districts"
        clearLabel="Tous les districts"
        options={toOptions(districts.data)}
        loading={districts.isPending}
        disabled={!filters.region}
        value={filters.district}
        onChange={(district) => update({ district, commune: null })}
        data-testid="filter-district"
      />
      <Combobox
        label="Filtrer par commune"
        placeholder="Toutes les communes"
        clearLabel="Toutes les communes"
        options={toOptions(communes.data)}
        loading={communes.isPending}
        disabled={!filters.district}
        value={filters.commune}
        onChange={(commune) => update({ commune })}
        data-testid="filter-commune"
      />
      <Combobox
        label="Filtrer par échéance"
        placeholder="Toutes les échéances"
        clearLabel="Toutes les échéances"
        options={ECHEANCE_OPTIONS}
        value={filters.echeance}
        onChange={(echeance) => update({ echeance: echeance as EcheanceFilter | null })}
        data-testid="filter-echeance"
      />
      <Combobox
        label="Filtrer par état"
        placeholder="Tous les états"
        clearLabel="Tous les états"
        options={ETAT_OPTIONS}
        value={filters.etat}
        onChange={(etat) => update({ etat: etat as EtatFilter | null })}
        data-testid="filter-etat"
      />
    </>
  );
}

function DateFilter({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  return (
    <div className="flex w-full items-center gap-2">
      <label className="shrink-0 text-sm" htmlFor={id}>
        {label}
      </label>
      <DateInput
        id={id}
        aria-label={`Signalé ${label.toLowerCase()}`}
        value={value ?? ''}
        data-testid={id}
        // Only whole days reach the URL: a half-typed date waits, an emptied field clears the filter.
        onChange={(next) => {
          if (next === '') onChange(null);
          else if (/^\d{4}-\d{2}-\d{2}$/.test(next)) onChange(next);
        }}
      />
    </div>
  );
}
