import { beforeAll, describe, expect, it } from 'vitest';
import { useE2E } from './harness';
import { ADMIN, loginAs, PASSWORD } from './sign-in';

describe('app shell in a real browser', () => {
  const e = useE2E();
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
    await e.user('analyste@example.mg', 'ROLE_ANALYSTE', 'Rasoa Vola Analyste');
  });

  it('redirects a visitor without session to the login page, and / to the dashboard after login', async () => {
    const page = await e.newPage();
    await page.goto('/admin/signalement/list');
    await page.waitForURL('**/admin/login?retour=*');
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/');
    await page.waitForURL('**/admin/dashboard');
    await expect.poll(() => page.getByRole('heading', { name: 'Tableau de bord' }).isVisible()).toBe(true);
  });

  it("shows 'Chargement...' while the user loads", async () => {
    const page = await e.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A device that has kept no session: its key is not handed over, so nothing is kept. Once a session is
    // kept, the next load shows its shell from the device while the session is checked (decision 0048),
    // and this check raced with that restore (a CI run of 2026-12-01 saw the Administration group).
    await page.route('**/trpc/auth.offlineKey**', async (route) => {
      await held;
      await route.continue();
    });
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.route('**/trpc/auth.session**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/admin/dashboard');
    // The guard's own 'Chargement...' (not the page's inline one): the app renders once the device's store
    // has been read, so nothing kept stands in for the session's answer.
    await expect.poll(() => page.getByTestId('loading').isVisible()).toBe(true);
    expect(await page.getByTestId('loading').textContent()).toBe('Chargement...');
    expect(await page.getByTestId('admin-group').count()).toBe(0);
    release();
    await expect.poll(() => page.getByRole('heading', { name: 'Tableau de bord' }).isVisible()).toBe(true);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('shows the French error on the form for a wrong password and stays on /login', async () => {
    // A wrong password is answered 401.
    e.allowConsoleErrors(/status of 401|^401 /);
    const page = await e.newPage();
    await page.goto('/admin/login');
    await page.getByRole('button', { name: /se connecter/i }).click();
    await expect.poll(() => page.getByText("L'email est requis.").isVisible()).toBe(true);
    await page.getByLabel(/e-?mail/i).fill(ADMIN.email);
    await page.getByLabel(/mot de passe/i).fill('pas-le-bon-mot-de-passe');
    await page.getByRole('button', { name: /se connecter/i }).click();
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Email ou mot de passe incorrect.');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  });

  it('shows an admin the header (name, e-mail tooltip, red badge, initials) and the Administration group', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    const badge = page.getByTestId('role-badge');
    expect(await badge.textContent()).toBe('Administrateur');
    expect(await badge.getAttribute('data-tone')).toBe('red');
    await page.getByTestId('user-name').hover();
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(ADMIN.email);
    expect(await page.getByTestId('user-initials').textContent()).toBe('A');
    const admin = page.getByTestId('admin-group');
    await admin.waitFor();
    expect(await admin.getByRole('link', { name: 'Utilisateurs' }).isVisible()).toBe(true);
    expect(await admin.getByRole('link', { name: 'Partenaires' }).isVisible()).toBe(true);
    await admin.getByRole('link', { name: 'Utilisateurs' }).click();
    await page.waitForURL('**/admin/users');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Gestion des Utilisateurs' }).isVisible())
      .toBe(true);
  });

  it('hides the Administration group from a ROLE_USER and sends them back to the dashboard from admin routes', async () => {
    const page = await e.newPage();
    await loginAs(page, 'agent@example.mg', PASSWORD);
    expect(await page.getByTestId('role-badge').textContent()).toBe('Utilisateur');
    expect(await page.getByTestId('role-badge').getAttribute('data-tone')).toBe('blue');
    expect(await page.getByTestId('user-initials').textContent()).toBe('RH');
    expect(await page.getByRole('link', { name: 'Liste des signalements' }).isVisible()).toBe(true);
    expect(await page.getByTestId('admin-group').count()).toBe(0);
    for (const path of ['/admin/users', '/admin/partenaires']) {
      await page.goto(path);
      await page.waitForURL('**/admin/dashboard');
    }
    await page.goto('/admin/configuration');
    await expect.poll(() => page.getByRole('heading', { name: 'Configuration' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/admin/configuration');
  });

  it('shows other roles raw in grey, with at most two initials', async () => {
    const page = await e.newPage();
    await loginAs(page, 'analyste@example.mg', PASSWORD);
    expect(await page.getByTestId('role-badge').textContent()).toBe('ROLE_ANALYSTE');
    expect(await page.getByTestId('role-badge').getAttribute('data-tone')).toBe('gray');
    expect(await page.getByTestId('user-initials').textContent()).toBe('RV');
    expect(await page.getByTestId('admin-group').count()).toBe(0);
  });

  it('toggles the sidebar with ctrl+b and meta+b and remembers it in a 7-day cookie', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getAttribute('data-state')).toBe('expanded');
    expect(Math.round((await sidebar.boundingBox())!.width)).toBe(256);
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(48);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'sidebar_state')!;
    expect(cookie.value).toBe('false');
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(604800 - 60);
    expect(cookie.expires - Date.now() / 1000).toBeLessThanOrEqual(604800 + 1);
    await page.reload();
    await expect.poll(() => page.getByTestId('sidebar').getAttribute('data-state')).toBe('collapsed');
    await page.keyboard.press('Meta+b');
    await expect.poll(() => page.getByTestId('sidebar').getAttribute('data-state')).toBe('expanded');
  });

  it('becomes a sheet under 768px, opened with ctrl+b', async () => {
    const page = await e.newPage({ width: 375, height: 740 });
    await loginAs(page, ADMIN.email, ADMIN.password);
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await page.keyboard.press('Control+b');
    const sheet = page.getByTestId('sidebar-sheet');
    await sheet.waitFor();
    expect(Math.round((await sheet.boundingBox())!.width)).toBe(288);
    await page.getByTestId('sidebar-backdrop').click({ position: { x: 350, y: 400 } });
    await expect.poll(() => sheet.count()).toBe(0);
  });

  it('asks for confirmation before logging out; Annuler keeps the session, Confirmer ends it', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.getByTestId('logout-button').click();
    const dialog = page.getByTestId('logout-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Êtes-vous sûr de vouloir vous déconnecter ?');
    expect(await dialog.textContent()).toContain(
      'Votre session actuelle sera terminée et vous devrez vous reconnecter pour accéder au tableau de bord.',
    );
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/admin/dashboard');

    await page.getByTestId('logout-button').click();
    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await page.waitForURL('**/admin/login');
    const who = await page.request.get('/api/utilisateur/who-am-i');
    expect(who.status()).toBe(401);
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/admin/login');
  });
});
