// The form kit's markup, rendered on the server: the ids, labels and aria attributes the browser tests and
// the accessibility test rely on, the §5 message under its field, and the dialog footer.
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { OTHERS_CODE } from '#shared/constants';
import type { SourceDto } from '#shared/dto/signalements';
import { AuteurDialog } from '#web/features/signalement/people/auteur-form';
import { SourceDialog } from '#web/features/signalement/people/source-form';
import { VictimeDialog } from '#web/features/signalement/people/victime-form';
import { DialogFooter, SubmitButton } from './form-actions';
import { SelectField, TextareaField, TextField } from './form-field';

// The channels, without a server.
vi.mock('#web/features/signalement/use-references', () => ({
  toOptions: (rows: { code: string; designation: string }[]) =>
    rows.map((r) => ({ value: r.code, label: r.designation })),
  useCanals: () => ({
    data: [
      { code: 'RADIO', designation: 'Radio' },
      { code: OTHERS_CODE, designation: 'Autre' },
    ],
    isPending: false,
  }),
}));

interface Values {
  email: string;
  note: string | null;
  role: string;
}
const NAMES = ['email', 'note', 'role'] as const;

/** Renders fields of a form whose values are given, with an error set on some of them. */
function render(
  fields: (form: UseFormReturn<Values>) => ReactNode,
  {
    values = {},
    errors = {},
  }: { values?: Partial<Values>; errors?: Partial<Record<keyof Values, string>> } = {},
) {
  function Harness() {
    const form = useForm<Values>({ defaultValues: { email: '', note: null, role: '', ...values } });
    for (const name of NAMES) {
      const message = errors[name];
      if (message && !form.formState.errors[name]) form.setError(name, { message });
    }
    return <>{fields(form)}</>;
  }
  return renderToStaticMarkup(<Harness />);
}

/** The DOM of a markup string (the test runs in Node: a tiny parser is enough for attributes). */
const attributesOf = (html: string, tag: string, id: string) => {
  const match = new RegExp(`<${tag}[^>]*\\bid="${id}"[^>]*>`).exec(html);
  if (!match) throw new Error(`no <${tag} id="${id}"> in ${html}`);
  return Object.fromEntries([...match[0].matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
};

describe('TextField', () => {
  it('names its input by its label and shows the value, with no error attributes while valid', () => {
    const html = render(
      (form) => (
        <TextField control={form.control} name="email" id="user-email" label="Email" type="email" autoFocus />
      ),
      { values: { email: 'a@b.mg' } },
    );
    expect(html).toContain('<fieldset class="fieldset py-0">');
    expect(html).toContain('<label class="fieldset-legend pb-1" for="user-email">Email</label>');
    const input = attributesOf(html, 'input', 'user-email');
    expect(input).toMatchObject({ class: 'input w-full', type: 'email', name: 'email', value: 'a@b.mg' });
    expect(input['aria-invalid']).toBeUndefined();
    expect(input['aria-describedby']).toBeUndefined();
    expect(html).not.toContain('role="alert"');
  });

  it('shows its message under the input, which points to it', () => {
    const html = render(
      (form) => <TextField control={form.control} name="email" id="user-email" label="Email" hint="Aide" />,
      { errors: { email: 'Adresse email invalide.' } },
    );
    const input = attributesOf(html, 'input', 'user-email');
    expect(input).toMatchObject({
      class: 'input w-full input-error',
      'aria-invalid': 'true',
      'aria-describedby': 'user-email-error',
    });
    expect(html).toContain(
      '<p class="text-sm text-error" id="user-email-error" role="alert">Adresse email invalide.</p>',
    );
    // The hint gives way to the error.
    expect(html).not.toContain('Aide');
  });

  it('joins a prefix before the input and adds the given input classes', () => {
    const html = render((form) => (
      <TextField
        control={form.control}
        name="email"
        id="phone"
        label="Téléphone"
        prefix="+261"
        inputClassName="tracking-widest"
      />
    ));
    expect(html).toContain('<div class="join w-full"><span class="join-item');
    expect(html).toContain('aria-hidden="true">+261</span>');
    expect(attributesOf(html, 'input', 'phone').class).toBe('input join-item w-full tracking-widest');
  });
});

describe('TextareaField', () => {
  it('shows an empty text for null and marks an error', () => {
    const html = render(
      (form) => <TextareaField control={form.control} name="note" id="note" label="Note" rows={3} />,
      { errors: { note: 'Au plus 5 caractères.' } },
    );
    expect(attributesOf(html, 'textarea', 'note')).toMatchObject({
      class: 'textarea w-full textarea-error',
      rows: '3',
      'aria-describedby': 'note-error',
    });
    expect(html).toMatch(/<textarea[^>]*><\/textarea>/);
    expect(html).toContain('id="note-error" role="alert">Au plus 5 caractères.</p>');
  });
});

describe('SelectField', () => {
  const options = [
    { value: 'ADMIN', label: 'Administrateur' },
    { value: 'USER', label: 'Utilisateur' },
  ];
  const roleSelect = (form: UseFormReturn<Values>, more: { locked?: boolean; hint?: string } = {}) => (
    <SelectField
      control={form.control}
      name="role"
      id="user-role"
      label="Rôle"
      placeholder="Sélectionner un rôle"
      options={options}
      {...more}
    />
  );

  it('offers the placeholder first, then the options, the value chosen', () => {
    const html = render((form) => roleSelect(form), { values: { role: 'USER' } });
    expect(html).toContain('<option value="">Sélectionner un rôle</option>');
    expect(html).toContain('<option value="USER" selected="">Utilisateur</option>');
    expect(attributesOf(html, 'select', 'user-role').disabled).toBeUndefined();
  });

  it('locked: shows the value, disabled, without the placeholder', () => {
    const html = render(
      (form) => roleSelect(form, { locked: true, hint: 'Vous ne pouvez pas changer votre propre rôle.' }),
      { values: { role: 'ADMIN' } },
    );
    expect(html).not.toContain('Sélectionner un rôle');
    expect(attributesOf(html, 'select', 'user-role')).toHaveProperty('disabled');
    expect(html).toContain('<p class="label">Vous ne pouvez pas changer votre propre rôle.</p>');
  });
});

describe('DialogFooter and SubmitButton', () => {
  it('Annuler and the submit label; a spinner and both disabled while pending', () => {
    const idle = renderToStaticMarkup(
      <DialogFooter pending={false} onCancel={() => {}} submitLabel="Créer" />,
    );
    expect(idle).toBe(
      '<div class="modal-action"><button type="button" class="btn btn-ghost">Annuler</button>' +
        '<button type="submit" class="btn btn-primary">Créer</button></div>',
    );
    const pending = renderToStaticMarkup(<DialogFooter pending onCancel={() => {}} submitLabel="Créer" />);
    expect(pending.match(/disabled=""/g)).toHaveLength(2);
    expect(pending).toContain(
      '<span class="loading loading-spinner loading-sm" aria-hidden="true"></span>Créer',
    );
  });

  it('a submit that cannot be sent for another reason is disabled without a spinner', () => {
    const html = renderToStaticMarkup(
      <SubmitButton pending={false} disabled className="mt-2 w-full">
        Envoyer
      </SubmitButton>,
    );
    expect(html).toBe(
      '<button type="submit" class="btn btn-primary mt-2 w-full" disabled="">Envoyer</button>',
    );
  });
});

describe('the person form from its configuration', () => {
  const noop = () => {};

  it("an author's dialog starts from the author's values, in the configured fields", () => {
    const html = renderToStaticMarkup(
      <AuteurDialog
        target={{
          '@id': '/api/auteurs/A1',
          '@type': 'PresumeAuteur',
          code: 'A1',
          nomPrenom: 'Rakoto Jean',
          fonction: null,
          description: 'Chef de service',
          signalement: 'S1',
        }}
        pending={false}
        onClose={noop}
        onSubmit={noop}
      />,
    );
    expect(html).toContain('Modifier l&#x27;auteur présumé');
    expect(html).toContain('aria-label="Auteur présumé"');
    expect(attributesOf(html, 'input', 'auteur-nom')).toMatchObject({
      value: 'Rakoto Jean',
      name: 'nomPrenom',
    });
    expect(attributesOf(html, 'input', 'auteur-fonction')).toMatchObject({ value: '', name: 'fonction' });
    expect(html).toMatch(/<textarea[^>]*id="auteur-description"[^>]*>Chef de service<\/textarea>/);
    expect(html).toContain(
      '<label class="fieldset-legend pb-1" for="auteur-fonction">Fonction (facultatif)</label>',
    );
    expect(html).toContain('>Enregistrer</button>');
  });

  it("adding a victim starts empty, with the victim's three fields in order", () => {
    const html = renderToStaticMarkup(<VictimeDialog target="new" pending onClose={noop} onSubmit={noop} />);
    expect(html).toContain('Ajouter une victime');
    const ids = [...html.matchAll(/<input[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['victime-nom', 'victime-fonction', 'victime-contact']);
    expect(attributesOf(html, 'input', 'victime-nom').value).toBe('');
    expect(html).toContain('loading-spinner');
  });

  const source = (canaux: string[]): SourceDto => ({
    '@id': '/api/sources/S1',
    '@type': 'Source',
    code: 'S1',
    nomPrenom: null,
    contact: '034 00 000 00',
    description: null,
    autreCanal: 'Bouche à oreille',
    canaux: canaux.map((code) => ({ '@id': `/api/canals/${code}`, code, designation: code })),
    signalement: 'S1',
  });

  it("a source's OTHERS description shows only while OTHERS is among its channels", () => {
    const withOthers = renderToStaticMarkup(
      <SourceDialog target={source(['RADIO', OTHERS_CODE])} pending={false} onClose={noop} onSubmit={noop} />,
    );
    expect(attributesOf(withOthers, 'input', 'source-autre-canal').value).toBe('Bouche à oreille');
    expect(withOthers).toContain('aria-label="Canaux de la source : Radio, Autre"');
    expect(attributesOf(withOthers, 'input', 'source-contact').value).toBe('034 00 000 00');

    const without = renderToStaticMarkup(
      <SourceDialog target={source(['RADIO'])} pending={false} onClose={noop} onSubmit={noop} />,
    );
    expect(without).not.toContain('source-autre-canal');
    expect(without).toContain('data-testid="source-canaux"');
  });
});
