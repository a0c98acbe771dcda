import { describe, expect, it } from 'vitest';
import { keepReturn, loginPathFor, returnPathFrom, safeReturnPath } from './return-path';

describe('return path after log-in', () => {
  it('follows a path of the application, with its query string', () => {
    expect(safeReturnPath('/signalement/detail/SIG-1234')).toBe('/signalement/detail/SIG-1234');
    expect(safeReturnPath('/signalement/list?q=fraude&du=2025-01-01')).toBe(
      '/signalement/list?q=fraude&du=2025-01-01',
    );
  });

  it.each([
    '//evil.example',
    '//evil.example/signalement',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/\tevil',
    'signalement/list',
    '/login',
    '/login?retour=/login',
    '/logout',
    '/double-authentification/activation',
    '/definir-mot-de-passe/abc',
    '/',
    '',
    null,
    undefined,
    `/${'a'.repeat(2100)}`,
  ])('refuses %j', (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it('builds the log-in path and reads it back', () => {
    const login = loginPathFor('/signalement/detail/SIG-1', '?onglet=1');
    expect(login).toBe('/login?retour=%2Fsignalement%2Fdetail%2FSIG-1%3Fonglet%3D1');
    expect(returnPathFrom(login.slice('/login'.length))).toBe('/signalement/detail/SIG-1?onglet=1');
    expect(loginPathFor('/dashboard', '')).toBe('/login');
    expect(returnPathFrom('?retour=%2F%2Fevil.example')).toBe('/dashboard');
    expect(returnPathFrom('')).toBe('/dashboard');
    expect(keepReturn('/double-authentification', '?retour=%2Fusers')).toBe(
      '/double-authentification?retour=%2Fusers',
    );
    expect(keepReturn('/double-authentification', '?retour=https%3A%2F%2Fevil.example')).toBe(
      '/double-authentification',
    );
  });
});
