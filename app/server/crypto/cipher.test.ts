import { describe, expect, it } from 'vitest';
import { createCipher, DecryptError, generateDataKey, isEncrypted, parseDataKey } from './cipher';

describe('data cipher (AES-256-GCM, blind index)', () => {
  const cipher = createCipher(generateDataKey());

  it('encrypts with a fresh nonce per value and reads it back', () => {
    const a = cipher.encrypt('RASOA Hanta', 'sources.nom_prenom');
    const b = cipher.encrypt('RASOA Hanta', 'sources.nom_prenom');
    expect(a).not.toBe(b);
    expect(isEncrypted(a)).toBe(true);
    expect(a).not.toContain('RASOA');
    expect(cipher.decrypt(a, 'sources.nom_prenom')).toBe('RASOA Hanta');
    expect(cipher.decryptNullable(null, 'sources.contact')).toBeNull();
  });

  it('detects a wrong key, another column and an altered value instead of returning garbage', () => {
    const stored = cipher.encrypt('034 12 345 67', 'sources.contact');
    expect(() => createCipher(generateDataKey()).decrypt(stored, 'sources.contact')).toThrow(DecryptError);
    expect(() => cipher.decrypt(stored, 'sources.nom_prenom')).toThrow(DecryptError);
    const body = stored.slice(3);
    const flipped = `v1:${body.slice(0, 10)}${body[10] === 'A' ? 'B' : 'A'}${body.slice(11)}`;
    expect(() => cipher.decrypt(flipped, 'sources.contact')).toThrow(DecryptError);
    expect(() => cipher.decrypt('034 12 345 67', 'sources.contact')).toThrow(DecryptError);
    expect(() => cipher.decrypt('v1:', 'sources.contact')).toThrow(DecryptError);
  });

  it('binds a value to its row when given one: it opens only as that row, and never without it', () => {
    const stored = cipher.encrypt('Appel du voisin', 'report_notes.texte', 'NOT-AAAA-0001');
    expect(cipher.decrypt(stored, 'report_notes.texte', 'NOT-AAAA-0001')).toBe('Appel du voisin');
    expect(() => cipher.decrypt(stored, 'report_notes.texte', 'NOT-AAAA-0002')).toThrow(DecryptError);
    expect(() => cipher.decrypt(stored, 'report_notes.texte')).toThrow(DecryptError);
    const unbound = cipher.encrypt('Appel du voisin', 'report_notes.texte');
    expect(() => cipher.decrypt(unbound, 'report_notes.texte', 'NOT-AAAA-0001')).toThrow(DecryptError);
  });

  it('indexes names by their normalised form, keyed', () => {
    expect(cipher.blindIndex('Rasoa  HANTA')).toBe(cipher.blindIndex('rasoa hanta'));
    expect(cipher.blindIndex('Rasoa Hanta')).not.toBe(cipher.blindIndex('Rasoa'));
    expect(createCipher(generateDataKey()).blindIndex('rasoa hanta')).not.toBe(
      cipher.blindIndex('rasoa hanta'),
    );
    expect(cipher.blindIndex(null)).toBeNull();
    expect(cipher.blindIndex('   ')).toBeNull();
  });

  it('accepts a key as 64 hexadecimal characters or base64 of 32 bytes, nothing else', () => {
    const key = generateDataKey();
    expect(parseDataKey(key.toString('hex'))).toEqual(key);
    expect(parseDataKey(key.toString('base64'))).toEqual(key);
    expect(parseDataKey(`${key.toString('base64')}\n`)).toEqual(key);
    expect(parseDataKey(key.subarray(0, 16).toString('base64'))).toBeNull();
    expect(parseDataKey('motdepasse')).toBeNull();
    expect(parseDataKey('')).toBeNull();
  });
});
