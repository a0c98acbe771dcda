import { describe, expect, it } from 'vitest';
import { hasRole, isAdmin, roleBadge } from './role';

describe('roleBadge', () => {
  it('shows ROLE_ADMIN as Administrateur in red', () => {
    expect(roleBadge('ROLE_ADMIN')).toEqual({ label: 'Administrateur', tone: 'red' });
  });

  it('shows ROLE_USER as Utilisateur in blue', () => {
    expect(roleBadge('ROLE_USER')).toEqual({ label: 'Utilisateur', tone: 'blue' });
  });

  it('shows any other role raw, in grey', () => {
    expect(roleBadge('ROLE_ANALYSTE')).toEqual({ label: 'ROLE_ANALYSTE', tone: 'gray' });
    expect(roleBadge('ROLE_ENQUETEUR')).toEqual({ label: 'ROLE_ENQUETEUR', tone: 'gray' });
  });
});

describe('isAdmin / hasRole', () => {
  const user = (code: string) => ({ utilisateurRole: { code } });

  it('recognises only ROLE_ADMIN as admin', () => {
    expect(isAdmin(user('ROLE_ADMIN'))).toBe(true);
    expect(isAdmin(user('ROLE_USER'))).toBe(false);
    expect(isAdmin(user('role_admin'))).toBe(false);
    expect(isAdmin(null)).toBe(false);
    expect(isAdmin(undefined)).toBe(false);
  });

  it('compares the role code exactly', () => {
    expect(hasRole(user('ROLE_ANALYSTE'), 'ROLE_ANALYSTE')).toBe(true);
    expect(hasRole(user('ROLE_ANALYSTE'), 'ROLE_ADMIN')).toBe(false);
  });
});
