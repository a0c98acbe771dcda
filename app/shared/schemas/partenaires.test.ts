import { describe, expect, it } from 'vitest';
import { partenaireInputSchema, phoneDigitsOf, sanitizePhoneInput } from './partenaires';

describe('partner phone number', () => {
  it('keeps only digits while typing, normalises a pasted whole number, and never truncates', () => {
    expect(sanitizePhoneInput('34 12-345.67')).toBe('341234567');
    expect(sanitizePhoneInput('abc')).toBe('');
    expect(sanitizePhoneInput('+261 34 12 345 67')).toBe('341234567');
    expect(sanitizePhoneInput('+261 (34) 12-345-67')).toBe('341234567');
    expect(sanitizePhoneInput('034 12 345 67')).toBe('341234567');
    // Too long or too short stays so, for the schema to refuse: no digit is dropped.
    expect(sanitizePhoneInput('3412345678999')).toBe('3412345678999');
    expect(sanitizePhoneInput('+261 34 12-345')).toBe('3412345');
  });

  it('stores nine digits behind +261, and shows them back without the prefix', () => {
    const parse = (phoneNumber: unknown) =>
      partenaireInputSchema.safeParse({ designation: 'Bianco', email: 'a@b.mg', phoneNumber });
    expect(parse('341234567').data?.phoneNumber).toBe('+261341234567');
    expect(parse('+261 34 12 345 67').data?.phoneNumber).toBe('+261341234567');
    expect(parse('').data?.phoneNumber).toBeNull();
    expect(parse(undefined).data?.phoneNumber).toBeNull();
    expect(parse('(034) 12-345-67').data?.phoneNumber).toBe('+261341234567');
    expect(parse('0341234567').data?.phoneNumber).toBe('+261341234567');
    for (const wrong of [
      '34123456',
      '+261 34 12-345',
      '261341234567',
      '3412345678',
      '+33 6 12 34 56 78',
      '34 12 345 6x',
    ])
      expect(parse(wrong).error?.issues[0]?.message, wrong).toBe(
        'Le numéro de téléphone doit contenir exactement 9 chiffres.',
      );
    expect(phoneDigitsOf('+261341234567')).toBe('341234567');
    expect(phoneDigitsOf(null)).toBe('');
  });
});
