import type { FieldPath, FieldPathByValue, FieldValues } from 'react-hook-form';
import { Combobox, type ComboboxProps } from './combobox';
import { Field } from './field';
import { useKitField, type KitFieldProps, type TextPath } from './form-field';
import { MultiSelect, type MultiSelectProps } from './multi-select';

/** A list of codes in the form. */
export type CodesPath<T extends FieldValues> = FieldPathByValue<T, readonly string[] | null | undefined>;

const codes = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The props of a picker (MultiSelect, Combobox) a kit field holds, but its value and onChange. */
interface PickerProps {
  /** The button's accessible name when it differs from the visible label. */
  controlLabel?: string;
  disabled?: boolean;
}

/** The kit's part of a picker field: the picker's id, name, own props, disabled state and invalid flag. */
function usePickerField<T extends FieldValues, TOut, TName extends FieldPath<T>, TRest extends PickerProps>(
  props: KitFieldProps<T, TOut, TName> & TRest,
) {
  const { field, error, id, label, rest, fieldProps } = useKitField(props);
  const { controlLabel, ...picker } = rest;
  return {
    field,
    fieldProps,
    picker: {
      id,
      label: controlLabel ?? label,
      ...picker,
      disabled: picker.disabled ?? field.disabled,
      invalid: !!error,
    },
  };
}

/** A picker field's props: the kit's, the picker's own but those the kit sets, and PickerProps. */
type PickerFieldProps<T extends FieldValues, TOut, TName extends FieldPath<T>, TPicker> = KitFieldProps<
  T,
  TOut,
  TName
> &
  Omit<TPicker, 'id' | 'label' | 'value' | 'onChange' | 'invalid' | 'className'> &
  PickerProps;

export type MultiSelectFieldProps<T extends FieldValues, TOut, TName extends CodesPath<T>> = PickerFieldProps<
  T,
  TOut,
  TName,
  MultiSelectProps
>;

/** Several codes chosen in a dropdown of checkboxes (subjects, channels). */
export function MultiSelectField<T extends FieldValues, TOut, TName extends CodesPath<T>>(
  props: MultiSelectFieldProps<T, TOut, TName>,
) {
  const { field, fieldProps, picker } = usePickerField(props);
  return (
    <Field {...fieldProps}>
      <MultiSelect {...picker} value={codes(field.value)} onChange={field.onChange} />
    </Field>
  );
}

export type ComboboxFieldProps<T extends FieldValues, TOut, TName extends TextPath<T>> = PickerFieldProps<
  T,
  TOut,
  TName,
  ComboboxProps
>;

/** One code chosen in a searchable list (partner, user); no choice is ''. */
export function ComboboxField<T extends FieldValues, TOut, TName extends TextPath<T>>(
  props: ComboboxFieldProps<T, TOut, TName>,
) {
  const { field, fieldProps, picker } = usePickerField(props);
  return (
    <Field {...fieldProps}>
      <Combobox
        {...picker}
        value={typeof field.value === 'string' && field.value ? field.value : null}
        onChange={(value) => field.onChange(value ?? '')}
      />
    </Field>
  );
}
