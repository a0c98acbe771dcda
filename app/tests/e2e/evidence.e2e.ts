import type { Page } from 'playwright-core';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

/** A small PDF as file-type reads it (magic bytes first), named .jpg: the type comes from the content. */
const PDF = Buffer.from('%PDF-1.4\n%Pièce jointe du test\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
const PDF_SHA256 = createHash('sha256').update(PDF).digest('hex');
const CREATOR = { email: 'createur@example.mg', password: PASSWORD };

/** `dd/MM/yyyy HH:mm` of an instant on Madagascar's wall clock (UTC+3, no summer time). */
function madagascarMinute(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Indian/Antananarivo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`;
}

/**
 * « Pièces jointes » (docs/decisions/0033-evidence-files.md): the report's creator attaches a file, sees it
 * listed with its kind, size, author, time (Madagascar's wall clock, whatever the browser's zone) and hash,
 * downloads it as an attachment (same bytes), sees an executable refused in French, and deletes the file
 * after confirming; axe finds nothing serious.
 */
describe('evidence files on the detail screen', () => {
  const e = useE2E();
  let creator: Page;
  let code: string;
  beforeAll(async () => {
    await e.user(CREATOR.email, 'ROLE_USER', 'Rabe Createur');
    creator = await e.newPage({ width: 1440, height: 900 });
    await signInByApi(creator, CREATOR.email, CREATOR.password);
    code = await createReportByApi(creator);
  });

  it('uploads, lists, downloads and deletes a file', async () => {
    await creator.goto(`/admin/signalement/detail/${code}`);
    const card = creator.getByTestId('evidence-card');
    await card.getByText('Aucune pièce jointe.').waitFor();

    const sentAfter = Math.floor(Date.now() / 1000) * 1000;
    await card
      .getByTestId('evidence-input')
      .setInputFiles({ name: 'photo « été ».jpg', mimeType: 'image/jpeg', buffer: PDF });
    await expect.poll(() => toast(creator, 'Fichier joint.').count()).toBe(1);
    const item = card.getByTestId('evidence-item');
    await expect.poll(() => item.count()).toBe(1);
    const sentBefore = Date.now() + 1000;
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('photo « été ».jpg');
    expect(text).toContain('PDF');
    expect(text).toContain(`${PDF.length} octets`);
    // Who and when: the upload's minute in Madagascar's wall clock, dd/MM/yyyy HH:mm.
    const uploadedAt = new Date((await item.locator('time').getAttribute('datetime'))!);
    expect(uploadedAt.getTime()).toBeGreaterThanOrEqual(sentAfter);
    expect(uploadedAt.getTime()).toBeLessThanOrEqual(sentBefore);
    expect(text).toContain(`Rabe Createur · ${madagascarMinute(uploadedAt)}`);
    expect(await item.getByTestId('evidence-hash').textContent()).toBe(`${PDF_SHA256.slice(0, 12)}…`);
    await item.getByRole('button', { name: "Afficher l'empreinte complète" }).click();
    expect(await item.getByTestId('evidence-hash').textContent()).toBe(PDF_SHA256);
    // The same wall clock in a browser elsewhere: the business time zone's, not the browser's.
    const paris = await e.newPage({ timezoneId: 'Europe/Paris', signedInAs: CREATOR });
    await paris.goto(`/admin/signalement/detail/${code}`);
    const parisTime = paris.getByTestId('evidence-item').locator('time');
    await parisTime.waitFor({ timeout: 30_000 });
    expect(await parisTime.textContent()).toBe(madagascarMinute(uploadedAt));
    await paris.context().close();
    const history = creator.getByTestId('historique-panel');
    await expect.poll(() => history.textContent()).toContain('Pièce jointe ajoutée');
    const violations = await seriousViolations(creator);
    expect(violations, describeViolations(violations)).toEqual([]);

    // Downloaded as an attachment, under its name, byte for byte.
    const [download] = await Promise.all([
      creator.waitForEvent('download'),
      item.getByTestId('evidence-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('photo « été ».jpg');
    expect(readFileSync((await download.path())!).equals(PDF)).toBe(true);

    // An executable named .pdf is refused, in French, and nothing is added.
    e.allowConsoleErrors(/status of 415|^415 .*pieces-jointes/);
    const exe = Buffer.alloc(512);
    exe.write('MZ', 0, 'latin1');
    exe.writeUInt32LE(0x80, 0x3c);
    exe.write('PE\0\0', 0x80, 'latin1');
    await card
      .getByTestId('evidence-input')
      .setInputFiles({ name: 'rapport.pdf', mimeType: 'application/pdf', buffer: exe });
    await expect.poll(() => toast(creator, "Échec de l'envoi du fichier.").count()).toBe(1);
    expect(await creator.getByText('Type de fichier non accepté', { exact: false }).count()).toBeGreaterThan(
      0,
    );
    expect(await item.count()).toBe(1);

    // Delete, after confirming.
    await item.getByRole('button', { name: 'Supprimer la pièce jointe' }).click();
    const dialog = creator.getByTestId('evidence-delete-dialog');
    await dialog.getByRole('heading', { name: 'Supprimer cette pièce jointe ?' }).waitFor();
    await dialog.getByRole('button', { name: 'Supprimer' }).click();
    await expect.poll(() => toast(creator, 'Pièce jointe supprimée.').count()).toBe(1);
    await expect.poll(() => item.count()).toBe(0);
    await expect.poll(() => history.textContent()).toContain('Pièce jointe supprimée');
    // Two detail pages and a download: more than the default minute on a loaded machine.
  }, 120_000);
});
