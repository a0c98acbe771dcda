import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import {
  useController,
  type Control,
  type FieldPath,
  type FieldPathByValue,
  type FieldPathValue,
  type FieldValues,
} from 'react-hook-form';
import { errorProps, Field } from './field';
import type { Option } from './option-list';

/**
 * The form kit: each field is a label, its control bound to one value of a react-hook-form form (checked
 * by the form's zod resolver) and the §5 message under it. The control's id names the label, the message
 * is `{id}-error` and the control points to it (aria-describedby, aria-invalid) while it shows.
 */
export interface KitFieldProps<T extends FieldValues, TOut, TName extends FieldPath<T>> {
  /** The form's `control` (useForm or useFormContext). */
  control: Control<T, unknown, TOut>;
  name: TName;
  /** The control's id; the label names it and the message is `{id}-error`. */
  id: string;
  /** The visible label (spec text). */
  label: string;
  /** A line under the control while it shows no error. */
  hint?: ReactNode;
  /** The value when the form's own default values have none for this field. */
  defaultValue?: FieldPathValue<T, TName>;
  /** Classes of the field's fieldset (its place in a grid). */
  className?: string;
}

/** A text (or null) value of the form. */
export type TextPath<T extends FieldValues> = FieldPathByValue<T, string | null | undefined>;

/** Joins class names, leaving out the empty ones. */
export const classes = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ');

/**
 * What every kit field shares: its value and handlers, its message (the form's error for this name), the
 * props of the Field around it (label, hint, message) and the control's aria links to the message; `rest`
 * is the field's own props, without the kit's.
 */
export function useKitField<T extends FieldValues, TOut, TName extends FieldPath<T>, TRest>({
  control,
  name,
  id,
  label,
  hint,
  defaultValue,
  className,
  ...rest
}: KitFieldProps<T, TOut, TName> & TRest) {
  const { field, fieldState } = useController<T, TName, TOut>({ control, name, defaultValue });
  const { ref: controlRef, ...value } = field;
  const error = fieldState.error?.message;
  return {
    field: value,
    error,
    id,
    label,
    rest,
    /** The Field's props: its label names the control, the message is `{id}-error`. */
    fieldProps: { htmlFor: id, label, error, hint, className },
    /** aria-invalid and aria-describedby while the message shows. */
    errorAttributes: errorProps(id, error),
    /** The native control's binding (the form's name, its ref and blur). */
    binding: { name: value.name, ref: controlRef, onBlur: value.onBlur },
  };
}

/** The shown text of a text value (null and undefined show as empty). */
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A native control's attributes, but those the kit sets. */
type NativeAttributes<A, TMore extends keyof A = never> = Omit<
  A,
  'id' | 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'className' | TMore
>;

type InputAttributes = NativeAttributes<InputHTMLAttributes<HTMLInputElement>, 'prefix'>;

export type TextFieldProps<T extends FieldValues, TOut, TName extends TextPath<T>> = KitFieldProps<
  T,
  TOut,
  TName
> &
  InputAttributes & {
    /** Classes added to the input's (font, letter spacing). */
    inputClassName?: string;
    /** Shown joined before the input (the phone prefix); not part of the value. */
    prefix?: ReactNode;
    /** What a typed text becomes in the form (the phone number keeps its digits only). */
    parse?: (text: string) => string;
  };

/** A one-line text input (type text, email, password, tel, search…). */
export function TextField<T extends FieldValues, TOut, TName extends TextPath<T>>(
  props: TextFieldProps<T, TOut, TName>,
) {
  const { field, error, id, rest, fieldProps, errorAttributes, binding } = useKitField(props);
  const { inputClassName, prefix, parse, ...attributes } = rest;
  const input = (
    <input
      id={id}
      className={classes(
        'input',
        prefix ? 'join-item' : null,
        'w-full',
        inputClassName,
        error && 'input-error',
      )}
      {...attributes}
      {...errorAttributes}
      {...binding}
      value={text(field.value)}
      disabled={attributes.disabled ?? field.disabled}
      onChange={(event) => field.onChange(parse ? parse(event.target.value) : event.target.value)}
    />
  );
  return (
    <Field {...fieldProps}>
      {prefix ? (
        <div className="join w-full">
          <span
            className="join-item flex items-center border border-base-300 bg-base-200 px-3 text-sm"
            aria-hidden="true"
          >
            {prefix}
          </span>
          {input}
        </div>
      ) : (
        input
      )}
    </Field>
  );
}

type TextareaAttributes = NativeAttributes<TextareaHTMLAttributes<HTMLTextAreaElement>>;

export type TextareaFieldProps<T extends FieldValues, TOut, TName extends TextPath<T>> = KitFieldProps<
  T,
  TOut,
  TName
> &
  TextareaAttributes & { inputClassName?: string };

/** A multi-line text. */
export function TextareaField<T extends FieldValues, TOut, TName extends TextPath<T>>(
  props: TextareaFieldProps<T, TOut, TName>,
) {
  const { field, error, id, rest, fieldProps, errorAttributes, binding } = useKitField(props);
  const { inputClassName, ...attributes } = rest;
  return (
    <Field {...fieldProps}>
      <textarea
        id={id}
        className={classes('textarea w-full', inputClassName, error && 'textarea-error')}
        {...attributes}
        {...errorAttributes}
        {...binding}
        value={text(field.value)}
        disabled={attributes.disabled ?? field.disabled}
        onChange={(event) => field.onChange(event.target.value)}
      />
    </Field>
  );
}

type SelectAttributes = NativeAttributes<SelectHTMLAttributes<HTMLSelectElement>, 'disabled'>;

export type SelectFieldProps<T extends FieldValues, TOut, TName extends TextPath<T>> = KitFieldProps<
  T,
  TOut,
  TName
> &
  SelectAttributes & {
    options: readonly Option[];
    /** The first entry, for no choice (value ''). */
    placeholder?: string;
    /** Shows the value without letting it change (the form keeps it); the placeholder is left out. */
    locked?: boolean;
  };

/**
 * A native select. Controlled, so a value chosen before its options arrive shows once they do.
 */
export function SelectField<T extends FieldValues, TOut, TName extends TextPath<T>>(
  props: SelectFieldProps<T, TOut, TName>,
) {
  const { field, error, id, rest, fieldProps, errorAttributes, binding } = useKitField(props);
  const { options, placeholder, locked = false, ...attributes } = rest;
  return (
    <Field {...fieldProps}>
      <select
        id={id}
        className={classes('select w-full', error && 'select-error')}
        {...attributes}
        {...errorAttributes}
        {...binding}
        value={text(field.value)}
        disabled={locked || field.disabled}
        onChange={(event) => field.onChange(event.target.value)}
      >
        {placeholder !== undefined && !locked && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
