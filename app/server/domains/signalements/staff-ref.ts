// A staff member as a report names them: code and name, never the e-mail (least privilege,
// docs/decisions/0015): the creator's e-mail decides rights, an assignee's never leaves the server.
import type { StaffRefDto } from '#shared/dto/signalements';
import { iri } from '../referentiels/dto';

export const staffRef = (u: { code: string; nomPrenom: string }): StaffRefDto => ({
  '@id': iri('utilisateurs', u.code),
  code: u.code,
  nomPrenom: u.nomPrenom,
});
