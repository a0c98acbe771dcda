import type { ReactNode } from 'react';

export interface SwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  disabled?: boolean;
  id?: string;
  'data-testid'?: string;
}

/** A daisyUI toggle with its label; exposed as a switch to assistive technologies. */
export function Switch({ checked, onChange, label, disabled, id, 'data-testid': testId }: SwitchProps) {
  return (
    <label className="label cursor-pointer gap-2 text-sm text-base-content">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="toggle toggle-primary toggle-sm"
        checked={checked}
        disabled={disabled}
        aria-checked={checked}
        data-testid={testId}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}
