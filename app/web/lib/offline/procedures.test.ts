// Which changes the outbox may keep (docs/decisions/0048-offline-store.md): a source or a note of an anonymous
// report never, authors and victims always, a location edit like the report's other fields.
import { describe, expect, it } from 'vitest';
import { anonymityContext, describeChange, mayKeepOnDevice } from './procedures';

const CODE = 'SIG-7K2M-Q9ZD';
const source = { signalement: CODE, nomPrenom: 'Hery Témoin', canaux: [] };
const note = { signalement: CODE, texte: 'Témoin rencontré au marché' };

describe('mayKeepOnDevice', () => {
  it('keeps authors, victims, report changes and location edits, whatever the report', () => {
    for (const procedure of [
      'auteurs.create',
      'victimes.create',
      'signalements.create',
      'signalements.update',
      'signalements.updateLocalisation',
    ]) {
      expect(mayKeepOnDevice(procedure, { signalement: CODE }, anonymityContext(true), [])).toBe(true);
      expect(mayKeepOnDevice(procedure, { signalement: CODE }, undefined, [])).toBe(true);
    }
  });

  it('never keeps a source or a note of an anonymous report', () => {
    expect(mayKeepOnDevice('sources.create', source, anonymityContext(true), [])).toBe(false);
    expect(mayKeepOnDevice('notes.create', note, anonymityContext(true), [])).toBe(false);
  });

  it('keeps a source or a note only when the screen stated the report is not anonymous', () => {
    expect(mayKeepOnDevice('sources.create', source, anonymityContext(false), [])).toBe(true);
    expect(mayKeepOnDevice('notes.create', note, anonymityContext(false), [])).toBe(true);
    // Unstated (a caller that forgot): treated as anonymous.
    expect(mayKeepOnDevice('sources.create', source, undefined, [])).toBe(false);
    expect(mayKeepOnDevice('notes.create', note, {}, [])).toBe(false);
  });

  it('treats a report as anonymous once a waiting change turns it so', () => {
    const turnedOn = {
      procedure: 'signalements.update',
      input: { code: CODE, patch: { isAnonyme: true }, expectedVersion: 3 },
    };
    expect(mayKeepOnDevice('sources.create', source, anonymityContext(false), [turnedOn])).toBe(false);
    expect(mayKeepOnDevice('notes.create', note, anonymityContext(false), [turnedOn])).toBe(false);
    // Another report's switch, or a change that is not the switch, changes nothing.
    const other = { ...turnedOn, input: { ...turnedOn.input, code: 'SIG-AAAA-BBBB' } };
    const description = { ...turnedOn, input: { code: CODE, patch: { description: 'x' } } };
    expect(mayKeepOnDevice('sources.create', source, anonymityContext(false), [other, description])).toBe(
      true,
    );
  });

  it('keeps nothing outside the allow-list (edits and deletions of people, notes)', () => {
    for (const procedure of ['sources.update', 'auteurs.delete', 'notes.update', 'journal.list']) {
      expect(mayKeepOnDevice(procedure, {}, anonymityContext(false), [])).toBe(false);
    }
  });
});

describe('describeChange', () => {
  it('names a location edit with its report', () => {
    expect(describeChange('signalements.updateLocalisation', { code: CODE, fokontany: 'Ambohitra' })).toBe(
      `Modification de la localisation du signalement ${CODE}`,
    );
  });
});
