import type { FieldValues } from 'react-hook-form';
import { DateInput, type DateInputProps } from './date-input';
import { errorProps, Field } from './field';
import { classes, useKitField, type KitFieldProps, type TextPath } from './form-field';

export type DateFieldProps<T extends FieldValues, TOut, TName extends TextPath<T>> = KitFieldProps<
  T,
  TOut,
  TName
> &
  Omit<DateInputProps, 'id' | 'name' | 'value' | 'onChange' | 'onBlur' | 'className'>;

/** A day typed dd/MM/yyyy (or picked); the form holds 'yyyy-MM-dd', or the typed text while it is not a day. */
export function DateField<T extends FieldValues, TOut, TName extends TextPath<T>>({
  control,
  name,
  id,
  label,
  hint,
  defaultValue,
  className,
  ...attributes
}: DateFieldProps<T, TOut, TName>) {
  const { field, controlRef, error } = useKitField({ control, name, defaultValue });
  return (
    <Field htmlFor={id} label={label} error={error} hint={hint} className={className}>
      <DateInput
        id={id}
        className={classes(error && 'input-error')}
        {...attributes}
        {...errorProps(id, error)}
        name={field.name}
        ref={controlRef}
        value={typeof field.value === 'string' ? field.value : ''}
        disabled={attributes.disabled ?? field.disabled}
        onBlur={field.onBlur}
        onChange={field.onChange}
      />
    </Field>
  );
}
