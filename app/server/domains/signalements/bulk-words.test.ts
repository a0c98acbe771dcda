// The words of a bulk action outside the list: its access-log sentence and the assignee's one e-mail
// (docs/decisions/0035-bulk-actions.md).
import { describe, expect, it } from 'vitest';
import { describeEntry } from '../journal/describe';
import { BULK_MAIL_CODES, bulkAssignmentMail } from '../mail/templates';

describe('bulk action words', () => {
  it('describes the access-log entry: the action, its target, the selection and how many changed', () => {
    expect(
      describeEntry('action_groupee', {
        action: 'statut',
        statut: 'TRAITE',
        selection: 'codes',
        selectionnes: 2,
        modifies: 2,
      }),
    ).toBe('Action groupée (changement de statut : TRAITE) sur 2 signalements choisis : 2 modifiés');
    expect(
      describeEntry('action_groupee', {
        action: 'assigner',
        utilisateur: 'USR1',
        selection: 'filtre',
        filtres: {},
        selectionnes: 40,
        modifies: 1,
      }),
    ).toBe("Action groupée (assignation : USR1) sur les 40 signalements d'un filtre : 1 modifié");
  });

  it('e-mails an assignee once per action, naming at most BULK_MAIL_CODES reports and counting the rest', () => {
    const codes = Array.from({ length: BULK_MAIL_CODES + 3 }, (_, i) => `S${i}`);
    const mail = bulkAssignmentMail({
      to: 'a@example.mg',
      nomPrenom: 'Rakoto',
      codes,
      by: 'Rabe',
      link: 'https://x/admin/signalement/list?assigne=USR1',
    });
    expect(mail.subject).toBe(`Signalements : ${codes.length} signalements vous sont assignés`);
    expect(mail.text).toContain(`S${BULK_MAIL_CODES - 1} et 3 autres.`);
    expect(mail.text).not.toContain(`S${BULK_MAIL_CODES},`);
    // One report: the single assignment's e-mail, word for word.
    const one = bulkAssignmentMail({
      to: 'a@example.mg',
      nomPrenom: 'Rakoto',
      codes: ['S1'],
      by: 'Rabe',
      link: 'l',
    });
    expect(one.subject).toBe('Signalements : le signalement S1 vous est assigné');
  });
});
