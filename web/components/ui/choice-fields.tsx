import type { FieldPathByValue, FieldValues } from 'react-hook-form';
import { Combobox, type ComboboxProps } from './combobox';
import { Field } from './field';
import { useKitField, type KitFieldProps, type TextPath } from './form-field';
import { MultiSelect, type MultiSelectProps } from './multi-select';

/** A list of codes in the form. */
export type CodesPath<T extends FieldValues> = FieldPathByValue<T, readonly string[] | null | undefined>;

const codes = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

export type MultiSelectFieldProps<T extends FieldValues, TOut, TName extends CodesPath<T>> = KitFieldProps<
  T,
  TOut,
  TName
> &
  Omit<MultiSelectProps, 'id' | 'label' | 'value' | 'onChange' | 'invalid' | 'className'> & {
    /** The button's accessible name when it differs from the visible label. */
    controlLabel?: string;
  };

/** Several codes chosen in a dropdown of checkboxes (subjects, channels). */
export function MultiSelectField<T extends FieldValues, TOut, TName extends CodesPath<T>>({
  control,
  name,
  id,
  label,
  hint,
  defaultValue,
  className,
  controlLabel,
  ...picker
}: MultiSelectFieldProps<T, TOut, TName>) {
  const { field, error } = useKitField({ control, name, defaultValue });
  return (
    <Field htmlFor={id} label={label} error={error} hint={hint} className={className}>
      <MultiSelect
        id={id}
        label={controlLabel ?? label}
        {...picker}
        disabled={picker.disabled ?? field.disabled}
        value={codes(field.value)}
        onChange={field.onChange}
        invalid={!!error}
      />
    </Field>
  );
}

export type ComboboxFieldProps<T extends FieldValues, TOut, TName extends TextPath<T>> = KitFieldProps<
  T,
  TOut,
  TName
> &
  Omit<ComboboxProps, 'id' | 'label' | 'value' | 'onChange' | 'invalid' | 'className'> & {
    controlLabel?: string;
  };

/** One code chosen in a searchable list (partner, user); no choice is ''. */
export function ComboboxField<T extends FieldValues, TOut, TName extends TextPath<T>>({
  control,
  name,
  id,
  label,
  hint,
  defaultValue,
  className,
  controlLabel,
  ...picker
}: ComboboxFieldProps<T, TOut, TName>) {
  const { field, error } = useKitField({ control, name, defaultValue });
  return (
    <Field htmlFor={id} label={label} error={error} hint={hint} className={className}>
      <Combobox
        id={id}
        label={controlLabel ?? label}
        {...picker}
        disabled={picker.disabled ?? field.disabled}
        value={typeof field.value === 'string' && field.value ? field.value : null}
        onChange={(value) => field.onChange(value ?? '')}
        invalid={!!error}
      />
    </Field>
  );
}
