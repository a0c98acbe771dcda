import { useId, useState } from 'react';
import { PlusIcon, XIcon } from '#web/components/ui/more-icons';
import { EMPTY_VALUE } from '../labels';

export interface ListEntryFieldProps {
  label: string;
  values: readonly string[];
  onChange?: (values: string[]) => void;
  readOnly?: boolean;
  placeholder: string;
  'data-testid'?: string;
}

/** A list of free-text entries (actions provisoires, preuves): Enter adds, blank entries are ignored (§5). */
export function ListEntryField({
  label,
  values,
  onChange,
  readOnly = false,
  placeholder,
  'data-testid': testId,
}: ListEntryFieldProps) {
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const add = () => {
    const entry = draft.trim();
    if (!entry) return;
    onChange?.([...values, entry]);
    setDraft('');
  };

  return (
    <div className="flex flex-col gap-2" data-testid={testId}>
      <label className="text-sm font-semibold" htmlFor={readOnly ? undefined : inputId}>
        {label}
      </label>
      {values.length === 0 ? (
        <p className="text-sm text-base-content/70">{EMPTY_VALUE}</p>
      ) : (
        <ul className="flex flex-col gap-1" aria-label={label}>
          {values.map((value, index) => (
            <li
              key={`${index}-${value}`}
              className="flex items-start gap-2 rounded-field bg-base-200 px-3 py-1.5 text-sm"
              data-testid="list-entry"
            >
              <span className="min-w-0 flex-1 break-words">{value}</span>
              {!readOnly && (
                <button
                  type="button"
                  className="btn btn-ghost btn-xs btn-square"
                  aria-label={`Retirer « ${value} »`}
                  onClick={() => onChange?.(values.filter((_, i) => i !== index))}
                >
                  <XIcon size={14} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && (
        <div className="join w-full">
          <input
            id={inputId}
            className="input join-item w-full"
            placeholder={placeholder}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                // Enter adds the entry; it must not submit a surrounding form.
                event.preventDefault();
                add();
              }
            }}
          />
          <button type="button" className="btn join-item" onClick={add} aria-label={`Ajouter à ${label}`}>
            <PlusIcon />
            <span className="hidden sm:inline">Ajouter</span>
          </button>
        </div>
      )}
    </div>
  );
}
