import { describe, expect, it } from 'vitest';
import { partenaireInputSchema, phoneDigitsOf, sanitizePhoneInput } from './partenaires';

describe('partner phone number', () => {
  it('keeps only digits while typing, and stops at nine', () => {
    expect(sanitizePhoneInput('34 12-345.67')).toBe('341234567');
    expect(sanitizePhoneInput('3412345678999')).toBe('341234567');
    expect(sanitizePhoneInput('abc')).toBe('');
    expect(sanitizePhoneInput('+261 34 12 345 67')).toBe('341234567');
  });

  it('stores nine digits behind +261, and shows them back without the prefix', () => {
    const parse = (phoneNumber: unknown) =>
      partenaireInputSchema.safeParse({ designation: 'Bianco', email: 'a@b.mg', phoneNumber });
    expect(parse('341234567').data?.phoneNumber).toBe('+261341234567');
    expect(parse('+261 34 12 345 67').data?.phoneNumber).toBe('+261341234567');
    expect(parse('').data?.phoneNumber).toBeNull();
    expect(parse(undefined).data?.phoneNumber).toBeNull();
    expect(parse('34123456').error?.issues[0]?.message).toBe('Le numéro de téléphone doit contenir exactement 9 chiffres.');
    expect(phoneDigitsOf('+261341234567')).toBe('341234567');
    expect(phoneDigitsOf(null)).toBe('');
  });
});
