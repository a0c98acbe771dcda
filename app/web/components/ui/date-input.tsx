import { forwardRef, useRef, useState, type InputHTMLAttributes } from 'react';
import { parseDay } from '#shared/calendar';
import { MIN_SIGNALEMENT_DATE } from '#shared/constants';
import { businessToday } from '#web/lib/format';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const TYPED_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
export const DATE_PLACEHOLDER = 'jj/mm/aaaa';

/** 'yyyy-MM-dd' → 'dd/MM/yyyy'; anything else is shown as it is. */
export function displayDay(value: string | null | undefined): string {
  if (!value) return '';
  return ISO_DAY.test(value) ? value.split('-').reverse().join('/') : value;
}

/** A typed 'd/M/yyyy' or 'dd/MM/yyyy' that is a real day → 'yyyy-MM-dd'; otherwise null. */
export function typedDay(text: string): string | null {
  const match = TYPED_DAY.exec(text.trim());
  if (!match) return null;
  const iso = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  return parseDay(iso) ? iso : null;
}

export interface DateInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'value' | 'onChange'
> {
  /** 'yyyy-MM-dd', '' for none, or the text of an unfinished or impossible date (kept so a schema can refuse it). */
  value: string | null | undefined;
  /** A whole day as 'yyyy-MM-dd', '' when emptied, or the typed text while it is not a real day. */
  onChange: (value: string) => void;
  /** The calendar offers no day after today (business calendar) nor before 1900-01-01 (§5). */
  pastOnly?: boolean;
}

/**
 * A day typed as dd/MM/yyyy whatever the browser's language (spec §9; a native date input shows mm/dd/yyyy
 * in an English browser), with a calendar button that opens the browser's picker. The value
 * is 'yyyy-MM-dd'; a text that is not a real day is passed on as typed, so the form's French message says so.
 */
export const DateInput = forwardRef<HTMLInputElement, DateInputProps>(function DateInput(
  { value, onChange, pastOnly = false, className = '', min, max, disabled, ...props },
  ref,
) {
  const [text, setText] = useState(() => displayDay(value));
  const [shown, setShown] = useState(value);
  // A value set from outside (a reset, the address bar) replaces what is shown.
  if (value !== shown) {
    setShown(value);
    if ((typedDay(text) ?? text) !== (value ?? '')) setText(displayDay(value));
  }
  const picker = useRef<HTMLInputElement>(null);
  const emit = (next: string) => {
    setText(next);
    const iso = next.trim() === '' ? '' : (typedDay(next) ?? next);
    setShown(iso);
    onChange(iso);
  };
  const iso = value && ISO_DAY.test(value) ? value : '';
  return (
    <div className="join w-full">
      <input
        ref={ref}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={DATE_PLACEHOLDER}
        maxLength={10}
        className={`input join-item w-full ${className}`.trim()}
        value={text}
        disabled={disabled}
        onChange={(event) => emit(event.target.value)}
        {...props}
      />
      <button
        type="button"
        className="btn join-item"
        aria-label="Choisir dans le calendrier"
        disabled={disabled}
        onClick={() => picker.current?.showPicker?.()}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="16"
          height="16"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <rect x="3" y="4" width="18" height="18" rx="2" />
          <path d="M16 2v4M8 2v4M3 10h18" />
        </svg>
      </button>
      {/* The browser's own calendar, for the button; its text format does not matter, it is never shown. */}
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        className="pointer-events-none absolute h-0 w-0 opacity-0"
        value={iso}
        min={min ?? (pastOnly ? MIN_SIGNALEMENT_DATE : undefined)}
        max={max ?? (pastOnly ? businessToday() : undefined)}
        onChange={(event) => emit(displayDay(event.target.value))}
      />
    </div>
  );
});
