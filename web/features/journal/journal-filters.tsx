import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ACCESS_LOG_KINDS } from '../../../shared/constants';
import { ACCESS_LOG_KIND_LABELS } from '../../../shared/dto/journal';
import type { JournalFilters } from '../../../shared/schemas/journal';
import { Combobox } from '../../components/ui/combobox';
import { DateInput } from '../../components/ui/date-input';
import { errorProps, Field } from '../../components/ui/field';
import { FilterIcon } from '../../components/ui/more-icons';
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
  const errors = form.formState.errors;
  const [userSearch, setUserSearch] = useState('');
  const users = useUtilisateurOptions(userSearch);

  return (
    <form
      noValidate
      aria-label={JOURNAL_TEXT.filtersLabel}
      data-testid="journal-filters"
      className="grid grid-cols-1 items-start gap-3 sm:grid-cols-2 lg:grid-cols-6"
      onSubmit={form.handleSubmit(onApply)}
    >
      <Field htmlFor="journal-utilisateur" label={JOURNAL_TEXT.userLabel} className="lg:col-span-2">
        <Controller
          control={form.control}
          name="utilisateur"
          render={({ field }) => (
            <Combobox
              id="journal-utilisateur"
              label={JOURNAL_TEXT.userLabel}
              placeholder={JOURNAL_TEXT.userPlaceholder}
              clearLabel={JOURNAL_TEXT.userPlaceholder}
              emptyText={JOURNAL_TEXT.userEmpty}
              options={users.options}
              loading={users.isPending}
              onSearchChange={setUserSearch}
              value={field.value || null}
              onChange={(code) => field.onChange(code ?? '')}
              data-testid="journal-filter-utilisateur"
            />
          )}
        />
      </Field>
      <Field
        htmlFor="journal-signalement"
        label={JOURNAL_TEXT.signalementLabel}
        error={errors.signalement?.message}
      >
        <input
          id="journal-signalement"
          type="search"
          className="input w-full"
          placeholder={JOURNAL_TEXT.signalementPlaceholder}
          {...errorProps('journal-signalement', errors.signalement?.message)}
          {...form.register('signalement')}
        />
      </Field>
      <Field htmlFor="journal-kind" label={JOURNAL_TEXT.kindLabel} error={errors.kind?.message}>
        <select
          id="journal-kind"
          className="select w-full"
          {...errorProps('journal-kind', errors.kind?.message)}
          {...form.register('kind')}
        >
          <option value="">{JOURNAL_TEXT.kindAll}</option>
          {ACCESS_LOG_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {ACCESS_LOG_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </Field>
      <Field htmlFor="journal-du" label={JOURNAL_TEXT.fromLabel} error={errors.du?.message}>
        <Controller
          control={form.control}
          name="du"
          render={({ field }) => (
            <DateInput
              id="journal-du"
              className={errors.du ? 'input-error' : ''}
              {...errorProps('journal-du', errors.du?.message)}
              {...field}
            />
          )}
        />
      </Field>
      <Field htmlFor="journal-au" label={JOURNAL_TEXT.toLabel} error={errors.au?.message}>
        <Controller
          control={form.control}
          name="au"
          render={({ field }) => (
            <DateInput
              id="journal-au"
              className={errors.au ? 'input-error' : ''}
              {...errorProps('journal-au', errors.au?.message)}
              {...field}
            />
          )}
        />
      </Field>
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
    </form>
  );
}
