import type { Option } from './option-list';
import { SelectPanel, useSelectedLabels } from './select-panel';
import { usePopover } from './use-popover';

export interface MultiSelectProps {
  id?: string;
  /** Accessible name of the trigger button (the visible label is the Field's). */
  label: string;
  placeholder: string;
  options: readonly Option[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  onSearchChange?: (search: string) => void;
  loading?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  emptyText?: string;
  searchPlaceholder?: string;
  className?: string;
  'data-testid'?: string;
}

/** A dropdown of checkboxes with a search box (partners, subjects, creators, channels). */
export function MultiSelect({
  id,
  label,
  placeholder,
  options,
  value,
  onChange,
  onSearchChange,
  loading,
  disabled,
  invalid,
  emptyText = 'Aucun résultat.',
  searchPlaceholder = 'Rechercher...',
  className = '',
  'data-testid': testId,
}: MultiSelectProps) {
  const { open, setOpen, ref } = usePopover<HTMLDivElement>();
  const labelOf = useSelectedLabels(options, value);
  const toggle = (code: string) =>
    onChange(value.includes(code) ? value.filter((v) => v !== code) : [...value, code]);

  const summary =
    value.length === 0
      ? placeholder
      : value.length <= 2
        ? value.map(labelOf).join(', ')
        : `${value.length} sélectionné(s)`;

  return (
    <div
      ref={ref}
      className={`relative ${className}`.trim()}
      data-testid={testId}
      data-popover-open={open || undefined}
    >
      <button
        id={id}
        type="button"
        className={`select w-full text-left ${invalid ? 'select-error' : ''}`}
        // The name says what is chosen as well as what the field is (WCAG 2.5.3: the visible text is in the name).
        aria-label={`${label} : ${summary}`}
        aria-haspopup="true"
        aria-expanded={open}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        onClick={() => setOpen(!open)}
        title={value.length > 0 ? value.map(labelOf).join(', ') : undefined}
      >
        <span className={`min-w-0 flex-1 truncate ${value.length === 0 ? 'text-base-content/70' : ''}`}>
          {summary}
        </span>
      </button>
      {open && (
        <SelectPanel
          label={label}
          options={options}
          onSearchChange={onSearchChange}
          loading={loading}
          emptyText={emptyText}
          searchPlaceholder={searchPlaceholder}
          renderOption={(option) => (
            <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-base-200">
              <input
                type="checkbox"
                className="checkbox checkbox-sm checkbox-primary"
                checked={value.includes(option.value)}
                onChange={() => toggle(option.value)}
              />
              <span className="min-w-0 flex-1 truncate">{option.label}</span>
              {option.hint && <span className="text-xs text-base-content/70">{option.hint}</span>}
            </label>
          )}
          footer={
            value.length > 0 ? (
              <button type="button" className="btn btn-ghost btn-xs w-full" onClick={() => onChange([])}>
                Effacer la sélection
              </button>
            ) : undefined
          }
        />
      )}
    </div>
  );
}
