import type { FieldValues } from 'react-hook-form';
import { DateInput, type DateInputProps } from './date-input';
import { Field } from './field';
import { classes, useKitField, type KitFieldProps, type TextPath } from './form-field';

export type DateFieldProps<T extends FieldValues, TOut, TName extends TextPath<T>> = KitFieldProps<
  T,
  TOut,
  TName
> &
  Omit<DateInputProps, 'id' | 'name' | 'value' | 'onChange' | 'onBlur' | 'className'>;

/** A day typed dd/MM/yyyy (or picked); the form holds 'yyyy-MM-dd', or the typed text while it is not a day. */
export function DateField<T extends FieldValues, TOut, TName extends TextPath<T>>(
  props: DateFieldProps<T, TOut, TName>,
) {
  const { field, error, id, rest: attributes, fieldProps, errorAttributes, binding } = useKitField(props);
  return (
    <Field {...fieldProps}>
      <DateInput
        id={id}
        className={classes(error && 'input-error')}
        {...attributes}
        {...errorAttributes}
        {...binding}
        value={typeof field.value === 'string' ? field.value : ''}
        disabled={attributes.disabled ?? field.disabled}
        onChange={field.onChange}
      />
    </Field>
  );
}
