import { useEffect, useRef } from 'react';

/** A checkbox above the row's covering link (the row stays a link elsewhere); `mixed` for part of a page. */
export function SelectCheckbox({
  label,
  checked,
  mixed = false,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  mixed?: boolean;
  onChange: () => void;
  testId: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed && !checked;
  }, [mixed, checked]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="checkbox checkbox-sm relative z-10"
      aria-label={label}
      checked={checked}
      onChange={onChange}
      data-testid={testId}
    />
  );
}
