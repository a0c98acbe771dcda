import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

const SOURCE = 'Rasoanirina Source-Protégée';
const CONTACT = 'source.protegee@example.mg';
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

/**
 * Need to know (docs/decisions/0015): a user who did not create an anonymous report sees how many
 * sources it has, never who they are — in the sources card and in the history. Least privilege: the
 * creator (not an admin) still creates its partner's projects, and writes only to the partner's address.
 */
describe('need to know and least privilege on the detail screen, for non-admins', () => {
  const e = useE2E();
  let creator: Page;
  let code: string;
  beforeAll(async () => {
    await e.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    await e.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    creator = await e.newPage();
    await signInByApi(creator, 'createur@example.mg', PASSWORD);
    const created = await creator.request.post('/api/signalements', {
      headers: SAME_ORIGIN,
      data: {
        partenaire: '/api/partenaires/IVY',
        subjects: ['/api/subjects/CORRUPTION'],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '2025-03-10',
      },
    });
    expect(created.status()).toBe(201);
    code = ((await created.json()) as { code: string }).code;
    const source = await creator.request.post('/api/sources', {
      headers: SAME_ORIGIN,
      data: { signalement: `/api/signalements/${code}`, nomPrenom: SOURCE, contact: CONTACT },
    });
    expect(source.status()).toBe(201);
  });

  it('shows another user the number of protected sources, no name and no button, once the creator turns the report anonymous', async () => {
    // The creator turns it anonymous with the switch of the sources card.
    await creator.goto(`/admin/signalement/detail/${code}`);
    await creator.getByTestId('anonymous-switch').click();
    await expect.poll(() => creator.getByTestId('anonymous-switch').isChecked()).toBe(true);

    const other = await e.newPage();
    await signInByApi(other, 'autre@example.mg', PASSWORD);
    await other.goto(`/admin/signalement/detail/${code}`);
    const section = other.getByTestId('sources-section');
    await expect
      .poll(() => section.getByTestId('sources-protected').textContent())
      .toBe(
        '1 source(s) protégée(s) — seuls le créateur du signalement, les personnes assignées et les administrateurs peuvent les consulter.',
      );
    expect(await section.getByTestId('person-add').count()).toBe(0);
    expect(await section.getByTestId('person-item').count()).toBe(0);
    // The history shows the source was added, masked.
    const history = other.getByTestId('historique-panel');
    await expect.poll(() => history.getByTestId('historique-masque').count()).toBe(1);
    const page = await other.content();
    expect(page).not.toContain(SOURCE);
    expect(page).not.toContain(CONTACT);

    // The creator still reads the source in the history.
    await creator.reload();
    await expect.poll(() => creator.getByTestId('historique-panel').textContent()).toContain(SOURCE);
    expect(await creator.getByTestId('historique-masque').count()).toBe(0);
  });

  it("lets the report's creator create a project for its partner from the classification panel", async () => {
    await creator.goto(`/admin/signalement/detail/${code}`);
    const field = creator.getByTestId('projects-field');
    await field.getByRole('button', { name: 'Créer le premier projet' }).click();
    const dialog = creator.getByTestId('project-dialog');
    await dialog.getByLabel('Sigle').fill('PASSE');
    await dialog.getByLabel('Désignation').fill('Programme d’appui aux services scolaires');
    await dialog.getByRole('button', { name: 'Créer le projet' }).click();
    await expect.poll(() => field.getByTestId('project-avatars').textContent()).toContain('PAS');
  });

  it("locks the e-mail's recipient to the partner's address for a non-admin (none here: sending is off)", async () => {
    await creator.goto(`/admin/signalement/detail/${code}`);
    await creator.getByTestId('other-actions').click();
    await creator.getByRole('menuitem', { name: 'Envoyer un email à Ivorary' }).click();
    const dialog = creator.getByTestId('mail-dialog');
    const recipient = dialog.getByLabel('Adresse email du destinataire');
    await recipient.waitFor();
    expect(await recipient.getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByTestId('mail-recipient-note').textContent()).toBe(
      "Ce partenaire n'a pas d'adresse email : seul un administrateur peut envoyer ce message.",
    );
    expect(await dialog.getByRole('button', { name: 'Envoyer' }).isDisabled()).toBe(true);
  });
});
