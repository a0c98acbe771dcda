// The access log (issue #11): an append-only trace of who read a report's people, who exported what,
// who changed rights, who logged in or failed to; and the alerts raised on unusual reading.
import type { AccessAlertDto, AccessLogPageDto } from '../../../shared/dto/journal';
import type { JournalFilters, JournalListInput } from '../../../shared/schemas/journal';
import type { Database } from '../../db/client';
import type { SessionUser } from '../auth/session';

// CONTRACT — implemented by the access-log work (see docs/decisions/0015-security-model.md).

export async function listJournal(_db: Database, _actor: SessionUser, _input: JournalListInput): Promise<AccessLogPageDto> {
  throw new Error('not implemented yet');
}

export async function listAlerts(_db: Database, _actor: SessionUser): Promise<AccessAlertDto[]> {
  throw new Error('not implemented yet');
}

export async function markAlertSeen(_db: Database, _actor: SessionUser, _id: number): Promise<void> {
  throw new Error('not implemented yet');
}

export async function exportJournalXlsx(
  _db: Database,
  _actor: SessionUser,
  _filters: JournalFilters,
): Promise<{ buffer: Buffer; rows: number }> {
  throw new Error('not implemented yet');
}

export const journalExportFileName = () => `journal-des-acces-${new Date().toISOString().slice(0, 10)}.xlsx`;
