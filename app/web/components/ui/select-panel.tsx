import { useId, useState, type ReactNode } from 'react';
import { SearchIcon } from './more-icons';
import { filterOptions, type Option } from './option-list';

export interface SelectPanelProps {
  options: readonly Option[];
  /** Server-side search: the parent refetches the options; without it the options are filtered here. */
  onSearchChange?: (search: string) => void;
  loading?: boolean;
  emptyText: string;
  searchPlaceholder: string;
  /** One row per shown option. */
  renderOption: (option: Option) => ReactNode;
  footer?: ReactNode;
  /** Label of the list for assistive technologies. */
  label: string;
  /** Rows are role="option" (single choice) rather than checkboxes. */
  listbox?: boolean;
}

/** The dropdown body shared by MultiSelect and Combobox: a search box and a scrolling list. */
export function SelectPanel({
  options,
  onSearchChange,
  loading = false,
  emptyText,
  searchPlaceholder,
  renderOption,
  footer,
  label,
  listbox = false,
}: SelectPanelProps) {
  const [search, setSearch] = useState('');
  const searchId = useId();
  const shown = onSearchChange ? options : filterOptions(options, search);
  return (
    <div className="absolute top-full left-0 z-50 mt-1 w-full min-w-64 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg">
      <label className="input input-sm mb-2 w-full" htmlFor={searchId}>
        <SearchIcon className="opacity-50" />
        <input
          id={searchId}
          type="search"
          autoFocus
          placeholder={searchPlaceholder}
          aria-label={searchPlaceholder}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            onSearchChange?.(event.target.value);
          }}
        />
      </label>
      <ul className="max-h-64 overflow-y-auto" aria-label={label} role={listbox ? 'listbox' : undefined}>
        {loading && (
          <li
            className="flex items-center gap-2 px-2 py-2 text-sm text-base-content/70"
            role={listbox ? 'none' : undefined}
          >
            <span className="loading loading-spinner loading-xs" aria-hidden="true" /> Chargement...
          </li>
        )}
        {!loading && shown.length === 0 && (
          <li className="px-2 py-2 text-sm text-base-content/70" role={listbox ? 'none' : undefined}>
            {emptyText}
          </li>
        )}
        {!loading &&
          shown.map((option) => (
            <li key={option.value} role={listbox ? 'none' : undefined}>
              {renderOption(option)}
            </li>
          ))}
      </ul>
      {footer && <div className="mt-2 border-t border-base-300 pt-2">{footer}</div>}
    </div>
  );
}

/**
 * Remembers the label of each selected value, so a choice stays readable after a server-side search
 * has replaced the options. Labels unknown so far fall back to the value (a code from a bookmarked URL).
 */
export function useSelectedLabels(options: readonly Option[], selected: readonly string[]) {
  const [known, setKnown] = useState<Record<string, string>>({});
  const fresh = options.filter((o) => selected.includes(o.value) && known[o.value] !== o.label);
  if (fresh.length > 0) {
    // Adjusting state while rendering (React's documented pattern): converges in one extra render.
    setKnown((prev) => ({ ...prev, ...Object.fromEntries(fresh.map((o) => [o.value, o.label])) }));
  }
  return (value: string) => known[value] ?? options.find((o) => o.value === value)?.label ?? value;
}
