import { describe, expect, it } from 'vitest';
import type { SignalementDto } from '#shared/dto/signalements';
import { signalementDetailFormSchema, signalementPatchSchema } from '#shared/schemas/signalements';
import { formValuesFrom, isPatchEmpty, patchFrom, withPatch } from './detail-form';

const ref = (collection: string, code: string, designation = code) => ({
  '@id': `/api/${collection}/${code}`,
  code,
  designation,
});

const report = {
  code: 'SIG-1',
  description: 'Un fait',
  isConfict: false,
  isRecurrent: true,
  isInternalResponsability: false,
  isAnonyme: false,
  niveau: { ...ref('niveaux', 'MOYEN'), color: '#f59e0b', rank: 2 },
  statut: null,
  resultat: null,
  canalPrincipal: { ...ref('canals', 'OTHERS'), icon: 'circle-help' },
  autreCanalPrincipal: 'Radio',
  subjects: [ref('subjects', 'CORRUPTION'), ref('subjects', 'OTHERS')],
  autreObject: 'Marché public',
  projects: [],
  actionProvisoires: ['Convocation'],
  preuves: [],
} as unknown as SignalementDto;

describe('detail form', () => {
  it('starts clean and passes the §5 detail rules', () => {
    const values = formValuesFrom(report);
    expect(isPatchEmpty(patchFrom(values, structuredClone(values)))).toBe(true);
    expect(signalementDetailFormSchema.safeParse(values).success).toBe(true);
  });

  it('sends only what changed, empty choices and texts as null', () => {
    const initial = formValuesFrom(report);
    const patch = patchFrom(initial, {
      ...initial,
      description: '  ',
      niveau: '',
      statut: 'TRAITE',
      isConfict: true,
      subjects: ['OTHERS', 'CORRUPTION'],
      preuves: ['Photo'],
    });
    expect(patch).toEqual({
      description: null,
      niveau: null,
      statut: 'TRAITE',
      isConfict: true,
      preuves: ['Photo'],
    });
    expect(signalementPatchSchema.safeParse(patch).success).toBe(true);
  });

  it('clears the OTHERS descriptions when OTHERS is no longer chosen', () => {
    const initial = formValuesFrom(report);
    const patch = patchFrom(initial, { ...initial, subjects: ['CORRUPTION'], canalPrincipal: 'TELEPHONE' });
    expect(patch).toEqual({
      subjects: ['CORRUPTION'],
      canalPrincipal: 'TELEPHONE',
      autreObject: null,
      autreCanalPrincipal: null,
    });
  });

  it('treats a reordered list entry as a change (order is meaningful there)', () => {
    const initial = { ...formValuesFrom(report), actionProvisoires: ['a', 'b'] };
    expect(patchFrom(initial, { ...initial, actionProvisoires: ['b', 'a'] })).toEqual({
      actionProvisoires: ['b', 'a'],
    });
  });

  it('puts a change to redo over the current values: patchFrom gives that change back', () => {
    const initial = formValuesFrom(report);
    const patch = { description: 'Refaite', niveau: null, subjects: ['S2'], isAnonyme: true };
    const redone = withPatch(initial, patch);
    expect(redone).toMatchObject({ description: 'Refaite', niveau: '', subjects: ['S2'] });
    expect(redone).not.toHaveProperty('isAnonyme');
    // Saved, the form sends that change again (OTHERS dropped clears its text, as any edit would).
    expect(patchFrom(initial, redone)).toEqual({
      description: 'Refaite',
      niveau: null,
      subjects: ['S2'],
      autreObject: null,
    });
  });
});
