import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordLinkIn, startTestSmtp, type TestSmtp } from '../helpers/smtp';
import { toast, useE2E } from './harness';
import { ADMIN, loginAs, PASSWORD, signInByApi } from './sign-in';

describe('user administration and account set-up by e-mail, in a real browser', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const e = useE2E(() => ({ SMTP_URL: smtp.url }), { closeTestPages: true });
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
    await e.user('vola@example.mg', 'ROLE_ANALYSTE', 'Rasoa Vola');
  });

  const row = (page: Page, email: string) => page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  /**
   * The administrator's page of users, reached through the menu. Logging the administrator in is not
   * what these tests look at: the page starts with the file's shared administrator session, on the
   * report list (the empty list of this file's database is lighter than the dashboard's charts and map).
   */
  async function openUsers() {
    const page = await e.newPage({ signedInAs: ADMIN });
    await page.goto('/admin/signalement/list');
    await page.getByTestId('admin-group').getByRole('link', { name: 'Utilisateurs' }).click();
    await page.getByTestId('users-table').waitFor();
    return page;
  }

  it('creates a user whose e-mailed link sets a password, after which the new user logs in', async () => {
    const page = await openUsers();
    expect(await page.getByTestId('users-total').textContent()).toBe('3 utilisateur(s) au total');
    // The administrator's own row has no switch.
    expect(await row(page, ADMIN.email).getByTestId('user-row-status').textContent()).toBe('-');
    expect(await row(page, 'agent@example.mg').getByTestId('user-row-last-connection').textContent()).toBe(
      'Jamais connecté',
    );

    await page.getByRole('button', { name: 'Nouvel Utilisateur' }).click();
    const dialog = page.getByTestId('user-form-dialog');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await expect.poll(() => dialog.getByText("L'email est requis.").isVisible()).toBe(true);
    expect(
      await dialog.getByText('Le nom et prénom doivent contenir au moins 2 caractères.').isVisible(),
    ).toBe(true);
    expect(await dialog.getByText('Veuillez sélectionner un rôle.').isVisible()).toBe(true);
    await dialog.getByLabel('Email', { exact: true }).fill('pas-un-email');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await expect.poll(() => dialog.getByText("Format d'email invalide.").isVisible()).toBe(true);

    await dialog.getByLabel('Email', { exact: true }).fill('Nouveau@Example.mg');
    await dialog.getByLabel('Nom et prénom').fill('Randria Nouveau');
    await dialog.getByLabel('Rôle').selectOption({ label: 'Gestionnaire' });
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await toast(
      page,
      "L'utilisateur Randria Nouveau a été créé avec succès. Un email d'initialisation a été envoyé.",
    ).waitFor();
    await row(page, 'nouveau@example.mg').waitFor();
    expect(await row(page, 'nouveau@example.mg').getByTestId('user-row-role').textContent()).toBe(
      'Gestionnaire',
    );
    expect(await page.getByTestId('users-total').textContent()).toBe('4 utilisateur(s) au total');

    const mail = await smtp.waitFor((m) => m.to === 'nouveau@example.mg');
    expect(mail.subject).toBe('Signalements : activez votre compte');
    const path = new URL(passwordLinkIn(mail)).pathname;

    // The new user, in another browser, without any session.
    const newcomer = await e.newPage();
    await newcomer.goto(path);
    await expect
      .poll(() => newcomer.getByTestId('definir-intro').textContent())
      .toBe('Bienvenue Randria Nouveau. Choisissez le mot de passe de votre compte.');
    await newcomer.getByLabel('Nouveau mot de passe').fill('trop-court');
    await newcomer.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await expect
      .poll(() => newcomer.getByText('Le mot de passe doit contenir au moins 12 caractères.').isVisible())
      .toBe(true);
    await newcomer.getByLabel('Nouveau mot de passe').fill('un-mot-de-passe-solide');
    await newcomer.getByLabel('Confirmer le mot de passe').fill('un-autre-mot-de-passe');
    await newcomer.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await expect
      .poll(() => newcomer.getByText('Les mots de passe ne correspondent pas.').isVisible())
      .toBe(true);
    await newcomer.getByLabel('Confirmer le mot de passe').fill('un-mot-de-passe-solide');
    await newcomer.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await newcomer.waitForURL('**/admin/login');
    await toast(
      newcomer,
      'Votre mot de passe a été enregistré. Vous pouvez maintenant vous connecter.',
    ).waitFor();
    await loginAs(newcomer, 'nouveau@example.mg', 'un-mot-de-passe-solide');
    expect(await newcomer.getByTestId('user-name').textContent()).toBe('Randria Nouveau');

    // The link was for one use only.
    const again = await e.newPage();
    await again.goto(path);
    await expect
      .poll(() => again.getByTestId('definir-unusable').textContent())
      .toContain('Ce lien a déjà été utilisé ou a été remplacé par un lien plus récent.');
    await page.reload();
    await row(page, 'nouveau@example.mg').waitFor();
    expect(
      await row(page, 'nouveau@example.mg').getByTestId('user-row-last-connection').textContent(),
    ).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });

  it('shows the duplicate e-mail error under the field of the form', async () => {
    // The browser logs the 409 answer itself; any other console error still fails the test.
    e.allowConsoleErrors(/status of 409/);
    const page = await openUsers();
    await page.getByRole('button', { name: 'Nouvel Utilisateur' }).click();
    const dialog = page.getByTestId('user-form-dialog');
    await dialog.getByLabel('Email', { exact: true }).fill('AGENT@example.mg');
    await dialog.getByLabel('Nom et prénom').fill('Doublon');
    await dialog.getByLabel('Rôle').selectOption('ROLE_USER');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await expect
      .poll(() => dialog.locator('#user-email-error').textContent())
      .toBe('Un utilisateur avec cet email existe déjà.');
    await toast(page, "Échec de la création de l'utilisateur.").waitFor();
    expect(await dialog.isVisible()).toBe(true);
  });

  it('disables a user after confirmation: their open session is refused at the next request', async () => {
    // The disabled user's session is refused (401): expected here.
    e.allowConsoleErrors(/status of 401|^401 /);
    // An open session of the agent's own (not a shared one): the one the disabling must refuse.
    const agent = await e.newPage();
    await signInByApi(agent, 'agent@example.mg', PASSWORD);
    // The dashboard, where the log-in form lands: reloaded without a session, it sends to the bare
    // log-in page (another page adds ?retour=).
    await agent.goto('/admin/dashboard');
    await agent.getByTestId('user-name').waitFor();

    const page = await openUsers();
    const agentRow = row(page, 'agent@example.mg');
    await agentRow.getByTestId('user-status-switch').click();
    const confirm = page.getByTestId('user-status-dialog');
    await expect.poll(() => confirm.getByText('Désactiver cet utilisateur ?').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Annuler' }).click();
    expect(await agentRow.getByTestId('user-status-switch').isChecked()).toBe(true);

    await agentRow.getByTestId('user-status-switch').click();
    await confirm.getByRole('button', { name: 'Désactiver' }).click();
    await toast(page, 'Utilisateur désactivé avec succès !').waitFor();
    await expect.poll(() => agentRow.getByTestId('user-row-status').textContent()).toBe('Désactivé');
    expect(await agentRow.getByTestId('user-status-switch').isChecked()).toBe(false);

    expect(await agent.evaluate(() => fetch('/api/utilisateur/who-am-i').then((r) => r.status))).toBe(401);
    await agent.reload();
    await agent.waitForURL('**/admin/login');

    await agentRow.getByTestId('user-status-switch').click();
    await expect.poll(() => confirm.getByText('Activer cet utilisateur ?').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Activer' }).click();
    await toast(page, 'Utilisateur activé avec succès !').waitFor();
    await loginAs(agent, 'agent@example.mg', PASSWORD);
  });

  it('finds a user by name ignoring accents and case', async () => {
    await e.user('helene@example.mg', 'ROLE_USER', 'Hélène Intégrité');
    const page = await openUsers();
    const search = page.getByTestId('users-search');
    await search.fill('HELENE integrite');
    await search.press('Enter');
    await expect.poll(() => page.getByTestId('users-total').textContent()).toBe('1 utilisateur(s) au total');
    await row(page, 'helene@example.mg').waitFor();
  });

  it('searches on Enter, edits a user and sends a reset e-mail', async () => {
    const page = await openUsers();
    const search = page.getByTestId('users-search');
    await search.fill('vola');
    await page.waitForTimeout(600);
    // Not applied before Enter.
    expect(await page.getByTestId('user-row').count()).toBeGreaterThan(1);
    await search.press('Enter');
    await expect.poll(() => page.getByTestId('users-total').textContent()).toBe('1 utilisateur(s) au total');
    await search.fill('personne de ce nom');
    await search.press('Enter');
    await expect.poll(() => page.getByTestId('users-empty').textContent()).toBe('Aucun utilisateur trouvé.');
    await search.fill('');
    await search.press('Enter');
    await row(page, 'vola@example.mg').waitFor();

    await row(page, 'vola@example.mg')
      .getByRole('button', { name: /^Modifier/ })
      .click();
    const dialog = page.getByTestId('user-form-dialog');
    expect(await dialog.getByLabel('Email', { exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel('Nom et prénom').fill('Rasoa Volatiana');
    await dialog.getByLabel('Rôle').selectOption({ label: 'Enquêteur' });
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await toast(page, 'Utilisateur modifié avec succès !').waitFor();
    await expect
      .poll(() => row(page, 'vola@example.mg').getByTestId('user-row-name').textContent())
      .toBe('Rasoa Volatiana');
    expect(await row(page, 'vola@example.mg').getByTestId('user-row-role').textContent()).toBe('Enquêteur');

    // One's own role cannot be changed.
    await row(page, ADMIN.email)
      .getByRole('button', { name: /^Modifier/ })
      .click();
    expect(await dialog.getByLabel('Rôle').isDisabled()).toBe(true);
    expect(await dialog.getByText('Vous ne pouvez pas modifier votre propre rôle.').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    await row(page, 'vola@example.mg')
      .getByRole('button', { name: /^Envoyer l'email de réinitialisation/ })
      .click();
    const confirm = page.getByTestId('user-reset-dialog');
    await expect
      .poll(() =>
        confirm.getByText(/Un email de réinitialisation sera envoyé à vola@example\.mg/).isVisible(),
      )
      .toBe(true);
    await confirm.getByRole('button', { name: 'Envoyer' }).click();
    await toast(page, 'Email de réinitialisation envoyé avec succès !').waitFor();
    const mail = await smtp.waitFor((m) => m.to === 'vola@example.mg');
    expect(mail.subject).toBe('Signalements : réinitialisation de votre mot de passe');
    const reset = await e.newPage();
    await reset.goto(new URL(passwordLinkIn(mail)).pathname);
    await expect
      .poll(() => reset.getByTestId('definir-intro').textContent())
      .toBe('Bonjour Rasoa Volatiana. Choisissez un nouveau mot de passe.');
  });

  it('lets an admin see an e-mail the mail server refused and send it again', async () => {
    smtp.refuseWith = { code: 550, message: 'Boîte aux lettres inconnue' };
    let page!: Page;
    try {
      page = await openUsers();
      await page.getByRole('button', { name: 'Nouvel Utilisateur' }).click();
      const dialog = page.getByTestId('user-form-dialog');
      await dialog.getByLabel('Email', { exact: true }).fill('refuse@example.mg');
      await dialog.getByLabel('Nom et prénom').fill('Rakoto Refusé');
      await dialog.getByLabel('Rôle').selectOption('ROLE_USER');
      await dialog.getByRole('button', { name: 'Créer' }).click();
      await toast(page, "L'utilisateur Rakoto Refusé a été créé avec succès.").waitFor();
      const db = e.running.db;
      await expect
        .poll(
          async () =>
            (await db.read.select().from(db.t.mailOutbox)).find((m) => m.to === 'refuse@example.mg')?.status,
          {
            timeout: 10_000,
          },
        )
        .toBe('failed');
    } finally {
      smtp.refuseWith = null;
    }
    await page.reload();
    const banner = page.getByTestId('failed-mails');
    await expect.poll(() => banner.textContent()).toContain("1 email(s) n'ont pas pu être envoyés.");
    await banner.getByRole('button', { name: 'Voir le détail' }).click();
    const list = page.getByTestId('failed-mails-list');
    await expect.poll(() => list.textContent()).toContain('refuse@example.mg');
    expect(await list.textContent()).toContain('Boîte aux lettres inconnue');
    await list.getByRole('button', { name: 'Réessayer' }).click();
    await toast(page, "Email remis en file d'envoi.").waitFor();
    const mail = await smtp.waitFor((m) => m.to === 'refuse@example.mg');
    expect(mail.subject).toBe('Signalements : activez votre compte');
    await expect.poll(() => list.getByRole('button', { name: 'Réessayer' }).count()).toBe(0);
  });

  it('explains an expired link in French', async () => {
    const { issuePasswordToken } = await import('#server/domains/auth/password-tokens');
    const { findUserByEmail } = await import('#server/domains/utilisateurs/service');
    const db = e.running.db;
    const user = (await findUserByEmail(db, 'agent@example.mg'))!;
    const { token } = await issuePasswordToken(db, user.id, 'reset');
    await db.transaction((tx) =>
      tx.update(db.t.passwordTokens).set({ expiresAt: new Date(Date.now() - 1000) }),
    );
    const page = await e.newPage();
    await page.goto(`/admin/definir-mot-de-passe/${token}`);
    await expect
      .poll(() => page.getByTestId('definir-unusable').textContent())
      .toContain('Ce lien a expiré. Demandez un nouveau lien à un administrateur.');
    await page.getByRole('link', { name: 'Retour à la connexion' }).click();
    await page.waitForURL('**/admin/login');
  });

  it('shows under the field why the server refuses a common password; the link still works afterwards', async () => {
    const { issuePasswordToken } = await import('#server/domains/auth/password-tokens');
    const { createUser } = await import('#server/domains/utilisateurs/service');
    // The browser logs the 400 answer itself; any other console error still fails the test.
    e.allowConsoleErrors(/status of 400|^400 .*passwordTokens\.define/);
    const db = e.running.db;
    const { id } = await createUser(db, {
      email: 'faible@example.mg',
      roleCode: 'ROLE_USER',
      nomPrenom: 'Rakoto Faible',
    });
    const { token } = await issuePasswordToken(db, id, 'setup');
    const page = await e.newPage();
    await page.goto(`/admin/definir-mot-de-passe/${token}`);
    await page.getByTestId('definir-intro').waitFor();
    await page.getByLabel('Nouveau mot de passe').fill('azertyuiop12');
    await page.getByLabel('Confirmer le mot de passe').fill('azertyuiop12');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await expect
      .poll(() => page.locator('#definir-password-error').textContent())
      .toBe(
        'Ce mot de passe est trop courant ou trop facile à deviner. Choisissez-en un plus long, sans mot du dictionnaire ni suite évidente.',
      );
    expect(await page.getByLabel('Nouveau mot de passe').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('definir-error').count()).toBe(0);

    await page.getByLabel('Nouveau mot de passe').fill('girafe violette sous la pluie');
    await page.getByLabel('Confirmer le mot de passe').fill('girafe violette sous la pluie');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await page.waitForURL('**/admin/login');
    await loginAs(page, 'faible@example.mg', 'girafe violette sous la pluie');
  });
});
