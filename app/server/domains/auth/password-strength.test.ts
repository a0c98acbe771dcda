import { describe, expect, it } from 'vitest';
import { DomainError } from '#server/errors';
import { assertStrongPassword, PASSWORD_STRENGTH_MESSAGES, passwordWeakness } from './password-strength';

const USER = ['rabe.hery@example.mg', 'Rabe Héry'];

describe('password strength', () => {
  it.each([
    ['blank', ' '.repeat(12)],
    ['one repeated character', 'aaaaaaaaaaaa'],
    ['French common password', 'motdepasse123'],
    ['keyboard row', 'azertyuiop12'],
    ['digit sequence', '123456789012'],
    ['English common password', 'password1234'],
    ['common password with l33t', 'P@ssw0rd1234'],
  ])('refuses a %s with the French message', async (_case, password) => {
    expect(await passwordWeakness(password, USER)).toBe(PASSWORD_STRENGTH_MESSAGES.weak);
  });

  it.each([
    ['the whole e-mail address', 'rabe.hery@example.mg'],
    ['the e-mail local part', 'rabe.hery-Tsaratanana'],
    ['a piece of the name without its accent', 'volamena-hery-2025!'],
    ['the name joined up', 'xx-RabeHery-Antsirabe'],
  ])('refuses a password containing %s', async (_case, password) => {
    expect(await passwordWeakness(password, USER)).toBe(PASSWORD_STRENGTH_MESSAGES.personal);
  });

  it('accepts a long passphrase and a random password, and the test password of the suites', async () => {
    expect(await passwordWeakness('girafe violette sous la pluie de juin', USER)).toBeNull();
    expect(await passwordWeakness('q7Vt-2mXr-Kp9e-Lw4z', USER)).toBeNull();
    expect(await passwordWeakness('mot-de-passe-de-test-42', ['agent@example.mg', 'Rakoto Jean'])).toBeNull();
  });

  it('throws the invalid domain error (HTTP 400) with the message', async () => {
    const error = await assertStrongPassword('azertyuiop12', USER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'invalid', message: PASSWORD_STRENGTH_MESSAGES.weak });
    await expect(
      assertStrongPassword('girafe violette sous la pluie de juin', USER),
    ).resolves.toBeUndefined();
  });
});
