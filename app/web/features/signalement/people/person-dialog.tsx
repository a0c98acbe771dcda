import { Fragment, useState, type ReactNode } from 'react';
import {
  set,
  useForm,
  useWatch,
  type Control,
  type DeepPartialSkipArrayKey,
  type DefaultValues,
  type FieldValues,
  type Resolver,
} from 'react-hook-form';
import { MultiSelectField, type CodesPath } from '#web/components/ui/choice-fields';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { TextareaField, TextField, type TextPath } from '#web/components/ui/form-field';
import type { Option } from '#web/components/ui/option-list';

export interface PersonDialogProps<TItem, TValues> {
  /** null: closed; 'new': adding; a person: editing it. */
  target: TItem | 'new' | null;
  pending: boolean;
  /** Why the last submission was neither saved nor kept (shown in the form, whose values stay). */
  notice?: string | null;
  onClose: () => void;
  onSubmit: (values: TValues) => void;
}

/** One field of a person's form, made by the helpers of personFields(). */
export interface PersonField<TItem, TInput extends FieldValues, TValues> {
  name: string;
  /** Shown only while the form's values say so (the OTHERS channel's description). */
  visible?: (values: DeepPartialSkipArrayKey<TInput>) => boolean;
  /** Writes the field's starting value (the edited person's, or empty) into the form's defaults. */
  start: (defaults: DefaultValues<TInput>, item: TItem | null) => void;
  render: (control: Control<TInput, unknown, TValues>) => ReactNode;
}

interface FieldOptions<TItem, TInput extends FieldValues, TValue> {
  id: string;
  label: string;
  /** The edited person's value (adding starts empty). */
  from: (item: TItem) => TValue;
  autoFocus?: boolean;
  visible?: (values: DeepPartialSkipArrayKey<TInput>) => boolean;
}

/**
 * The fields a person's form may have, typed by the person (TItem) and the form's schema: a field is
 * one entry of its kind's `fields`, with its id, label and the person's value it starts from.
 */
export function personFields<TItem, TInput extends FieldValues, TValues>() {
  type Field = PersonField<TItem, TInput, TValues>;
  /** A text field: it starts from the person's text, or ''. */
  const textual = (
    name: TextPath<TInput>,
    { from, visible }: FieldOptions<TItem, TInput, string | null>,
    render: Field['render'],
  ): Field => ({
    name,
    visible,
    start: (defaults, item) => set(defaults, name, (item && from(item)) ?? ''),
    render,
  });
  return {
    text<N extends TextPath<TInput>>(name: N, options: FieldOptions<TItem, TInput, string | null>): Field {
      const { id, label, autoFocus } = options;
      return textual(name, options, (control) => (
        <TextField control={control} name={name} id={id} label={label} autoFocus={autoFocus} />
      ));
    },
    textarea<N extends TextPath<TInput>>(
      name: N,
      options: FieldOptions<TItem, TInput, string | null>,
    ): Field {
      const { id, label, autoFocus } = options;
      return textual(name, options, (control) => (
        <TextareaField control={control} name={name} id={id} label={label} rows={3} autoFocus={autoFocus} />
      ));
    },
    multiSelect<N extends CodesPath<TInput>>(
      name: N,
      {
        id,
        label,
        from,
        visible,
        controlLabel,
        placeholder,
        useOptions,
      }: FieldOptions<TItem, TInput, string[]> & {
        controlLabel: string;
        placeholder: string;
        /** The choices (a hook: called while the field shows). */
        useOptions: () => { options: readonly Option[]; loading: boolean };
      },
    ): Field {
      function Picker({ control }: { control: Control<TInput, unknown, TValues> }) {
        const { options, loading } = useOptions();
        return (
          <MultiSelectField
            control={control}
            name={name}
            id={id}
            label={label}
            controlLabel={controlLabel}
            placeholder={placeholder}
            options={options}
            loading={loading}
            data-testid={id}
          />
        );
      }
      return {
        name,
        visible,
        start: (defaults, item) => set(defaults, name, item ? from(item) : []),
        render: (control) => <Picker control={control} />,
      };
    },
  };
}

export interface PersonKind<TItem, TInput extends FieldValues, TValues> {
  /** The form's accessible name. */
  label: string;
  addTitle: string;
  editTitle: string;
  testId: string;
  /** The kind's shared zod schema, through zodResolver. */
  resolver: Resolver<TInput, unknown, TValues>;
  fields: readonly PersonField<TItem, TInput, TValues>[];
  /** What is sent of the checked values (a hidden field's leftover dropped). */
  submitted?: (values: TValues) => TValues;
}

/** The add / edit dialog of one kind of person (author, source or victim), from its configuration. */
export function personDialog<TItem, TInput extends FieldValues, TValues>(
  kind: PersonKind<TItem, TInput, TValues>,
) {
  return function PersonDialog({
    target,
    pending,
    notice,
    onClose,
    onSubmit,
  }: PersonDialogProps<TItem, TValues>) {
    return (
      <Dialog
        open={target !== null}
        onClose={onClose}
        dismissible={!pending}
        title={target === 'new' ? kind.addTitle : kind.editTitle}
        data-testid={kind.testId}
      >
        {target !== null && (
          <PersonForm
            kind={kind}
            item={target === 'new' ? null : target}
            pending={pending}
            notice={notice}
            onClose={onClose}
            onSubmit={onSubmit}
          />
        )}
      </Dialog>
    );
  };
}

/** A person's fields, then Annuler / Enregistrer; mounted afresh at each opening of the dialog. */
function PersonForm<TItem, TInput extends FieldValues, TValues>({
  kind,
  item,
  pending,
  notice,
  onClose,
  onSubmit,
}: {
  kind: PersonKind<TItem, TInput, TValues>;
  /** null when adding. */
  item: TItem | null;
  pending: boolean;
  notice?: string | null;
  onClose: () => void;
  onSubmit: (values: TValues) => void;
}) {
  const [defaultValues] = useState(() => {
    // Empty, then filled by the fields (TypeScript cannot see {} as the deep partial of a type parameter).
    const defaults = {} as DefaultValues<TInput>;
    for (const field of kind.fields) field.start(defaults, item);
    return defaults;
  });
  const form = useForm<TInput, unknown, TValues>({ resolver: kind.resolver, defaultValues });
  const values = useWatch({ control: form.control });
  const { submitted = (v: TValues) => v } = kind;
  return (
    <Form label={kind.label} onSubmit={form.handleSubmit((checked) => onSubmit(submitted(checked)))}>
      {kind.fields.map(
        (field) =>
          (!field.visible || field.visible(values)) && (
            <Fragment key={field.name}>{field.render(form.control)}</Fragment>
          ),
      )}
      {notice && (
        <p role="alert" className="alert alert-warning alert-soft text-sm" data-testid="person-notice">
          {notice}
        </p>
      )}
      <DialogFooter pending={pending} onCancel={onClose} submitLabel="Enregistrer" />
    </Form>
  );
}
