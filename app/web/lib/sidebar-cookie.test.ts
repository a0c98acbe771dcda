import { describe, expect, it } from 'vitest';
import { readSidebarOpen, sidebarCookie } from './sidebar-cookie';

describe('sidebar cookie', () => {
  it('is expanded when the cookie is missing', () => {
    expect(readSidebarOpen('')).toBe(true);
    expect(readSidebarOpen('session=abc; other=false')).toBe(true);
  });

  it('reads the stored state among other cookies', () => {
    expect(readSidebarOpen('session=abc; sidebar_state=false')).toBe(false);
    expect(readSidebarOpen('sidebar_state=true; session=abc')).toBe(true);
    expect(readSidebarOpen('x_sidebar_state=false')).toBe(true);
  });

  it('is written for 7 days on path /', () => {
    expect(sidebarCookie(false)).toBe('sidebar_state=false; path=/; max-age=604800; SameSite=Lax');
    expect(readSidebarOpen(sidebarCookie(false).split(';')[0]!)).toBe(false);
    expect(readSidebarOpen(sidebarCookie(true).split(';')[0]!)).toBe(true);
  });
});
