import { CheckIcon } from './more-icons';
import type { Option } from './option-list';
import { SelectPanel, useSelectedLabels } from './select-panel';
import { usePopover } from './use-popover';

export interface ComboboxProps {
  id?: string;
  label: string;
  placeholder: string;
  options: readonly Option[];
  value: string | null;
  onChange: (value: string | null) => void;
  onSearchChange?: (search: string) => void;
  loading?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  /** Offers a first entry that clears the choice. */
  clearLabel?: string;
  emptyText?: string;
  searchPlaceholder?: string;
  className?: string;
  'data-testid'?: string;
}

/** A single choice among many (partner, region, district, commune), with a search box. */
export function Combobox({
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
  clearLabel,
  emptyText = 'Aucun résultat.',
  searchPlaceholder = 'Rechercher...',
  className = '',
  'data-testid': testId,
}: ComboboxProps) {
  const { open, setOpen, ref } = usePopover<HTMLDivElement>();
  const labelOf = useSelectedLabels(options, value ? [value] : []);
  const choose = (next: string | null) => {
    onChange(next);
    setOpen(false);
  };
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
        aria-label={`${label} : ${value ? labelOf(value) : placeholder}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        onClick={() => setOpen(!open)}
      >
        <span className={`min-w-0 flex-1 truncate ${value ? '' : 'text-base-content/70'}`}>
          {value ? labelOf(value) : placeholder}
        </span>
      </button>
      {open && (
        <SelectPanel
          label={label}
          listbox
          options={options}
          onSearchChange={onSearchChange}
          loading={loading}
          emptyText={emptyText}
          searchPlaceholder={searchPlaceholder}
          renderOption={(option) => (
            <button
              type="button"
              role="option"
              aria-selected={option.value === value}
              className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-base-200"
              onClick={() => choose(option.value)}
            >
              <span className="min-w-0 flex-1 truncate">{option.label}</span>
              {option.hint && <span className="text-xs text-base-content/70">{option.hint}</span>}
              {option.value === value && <CheckIcon className="text-primary" />}
            </button>
          )}
          footer={
            clearLabel && value ? (
              <button type="button" className="btn btn-ghost btn-xs w-full" onClick={() => choose(null)}>
                {clearLabel}
              </button>
            ) : undefined
          }
        />
      )}
    </div>
  );
}
