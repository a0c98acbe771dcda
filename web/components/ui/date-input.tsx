import { forwardRef, type InputHTMLAttributes } from 'react';
import { MIN_SIGNALEMENT_DATE } from '../../../shared/constants';
import { toIsoDate } from '../../lib/format';

export interface DateInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** Refuse days after today (local calendar) and before 1900-01-01, as the report date requires (§5). */
  pastOnly?: boolean;
}

/**
 * A native date input (yyyy-MM-dd value, shown in the browser's locale: dd/mm/yyyy in French). With
 * `pastOnly` the picker greys out future days and days before 1900; typed values are still checked by
 * the shared zod schema, which gives the French message.
 */
export const DateInput = forwardRef<HTMLInputElement, DateInputProps>(function DateInput(
  { pastOnly = false, className = '', min, max, ...props },
  ref,
) {
  return (
    <input
      ref={ref}
      type="date"
      className={`input w-full ${className}`.trim()}
      min={min ?? (pastOnly ? MIN_SIGNALEMENT_DATE : undefined)}
      max={max ?? (pastOnly ? toIsoDate(new Date()) : undefined)}
      {...props}
    />
  );
});
