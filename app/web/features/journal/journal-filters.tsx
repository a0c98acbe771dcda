import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ACCESS_LOG_KINDS } from '#shared/constants';
import { ACCESS_LOG_KIND_LABELS } from '#shared/dto/journal';
import type { JournalFilters } from '#shared/schemas/journal';
import { ComboboxField } from '#web/components/ui/choice-fields';
import { DateField } from '#web/components/ui/date-field';
import { Form } from '#web/components/ui/form-actions';
import { SelectField, TextField } from '#web/components/ui/form-field';
import { FilterIcon } from '#web/components/ui/more-icons';
import { useUtilisateurOptions } from '../signalement/use-references';
import { hasActiveFilters, journalFormSchema, toFormValues, type JournalFormValues } from './journal-url';
import { JOURNAL_TEXT } from './journal-text';

export interface JournalFiltersBarProps {
  filters: JournalFilters;
  onApply: (filters: JournalFilters) => void;
}

/**
 * User, report code, kind and period; 'Filtrer' applies them (after the shared schema's checks), and the
 * form follows the address bar when it changes elsewhere (back button, an alert's link).
 */
export function JournalFiltersBar({ filters, onApply }: JournalFiltersBarProps) {
  const form = useForm<JournalFormValues, unknown, JournalFilters>({
    resolver: zodResolver(journalFormSchema),
    values: toFormValues(filters),
  });
  const [userSearch, setUserSearch] = useState('');
  const users = useUtilisateurOptions(userSearch);

  return (
    <Form
      label={JOURNAL_TEXT.filtersLabel}
      data-testid="journal-filters"
      className="grid grid-cols-1 items-start gap-3 sm:grid-cols-2 lg:grid-cols-6"
      onSubmit={form.handleSubmit(onApply)}
    >
      <ComboboxField
        control={form.control}
        name="utilisateur"
        id="journal-utilisateur"
        label={JOURNAL_TEXT.userLabel}
        className="lg:col-span-2"
        placeholder={JOURNAL_TEXT.userPlaceholder}
        clearLabel={JOURNAL_TEXT.userPlaceholder}
        emptyText={JOURNAL_TEXT.userEmpty}
        options={users.options}
        loading={users.isPending}
        onSearchChange={setUserSearch}
        data-testid="journal-filter-utilisateur"
      />
      <TextField
        control={form.control}
        name="signalement"
        id="journal-signalement"
        label={JOURNAL_TEXT.signalementLabel}
        type="search"
        placeholder={JOURNAL_TEXT.signalementPlaceholder}
      />
      <SelectField
        control={form.control}
        name="kind"
        id="journal-kind"
        label={JOURNAL_TEXT.kindLabel}
        placeholder={JOURNAL_TEXT.kindAll}
        options={ACCESS_LOG_KINDS.map((kind) => ({ value: kind, label: ACCESS_LOG_KIND_LABELS[kind] }))}
      />
      <DateField control={form.control} name="du" id="journal-du" label={JOURNAL_TEXT.fromLabel} />
      <DateField control={form.control} name="au" id="journal-au" label={JOURNAL_TEXT.toLabel} />
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-6">
        <button type="submit" className="btn btn-primary">
          <FilterIcon />
          {JOURNAL_TEXT.apply}
        </button>
        {hasActiveFilters(filters) && (
          <button type="button" className="btn btn-ghost" onClick={() => onApply({})}>
            {JOURNAL_TEXT.reset}
          </button>
        )}
      </div>
    </Form>
  );
}
