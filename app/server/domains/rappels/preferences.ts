// A staff member's own preferences (docs/decisions/0036-daily-reminders.md): read and changed by that user
// only (the session's user; no door names another one). A change is one transaction with its access-log entry.
import { eq } from 'drizzle-orm';
import type { PreferencesDto } from '#shared/dto/preferences';
import type { PreferencesPatch } from '#shared/schemas/preferences';
import type { AppContext } from '#server/context';
import type { Database, ReadOnlyDatabase } from '#server/db/client';
import { notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { recordSettingChange } from '../journal/record';

type PreferencesContext = Pick<AppContext, 'config' | 'calendar'> & { db: ReadOnlyDatabase };

const dto = (ctx: Pick<AppContext, 'config' | 'calendar'>, digestEnabled: boolean): PreferencesDto => ({
  '@id': '/api/utilisateur/preferences',
  '@type': 'Preferences',
  recapitulatifQuotidien: digestEnabled,
  heureRecapitulatif: ctx.config.DIGEST_HOUR,
  fuseau: ctx.calendar.label,
});

export async function getPreferences(ctx: PreferencesContext, actor: SessionUser): Promise<PreferencesDto> {
  const u = ctx.db.t.utilisateurs;
  const [row] = await ctx.db.read
    .select({ digestEnabled: u.digestEnabled })
    .from(u)
    .where(eq(u.id, actor.id));
  if (!row) throw notFound('Utilisateur introuvable.');
  return dto(ctx, Boolean(row.digestEnabled));
}

export async function updatePreferences(
  ctx: Pick<AppContext, 'config' | 'calendar' | 'clock'> & { db: Database },
  actor: SessionUser,
  input: PreferencesPatch,
): Promise<PreferencesDto> {
  const { db } = ctx;
  const u = db.t.utilisateurs;
  const after = await db.transaction(async (tx) => {
    const [row] = await tx.select({ digestEnabled: u.digestEnabled }).from(u).where(eq(u.id, actor.id));
    if (!row) throw notFound('Utilisateur introuvable.');
    const before = Boolean(row.digestEnabled);
    if (before !== input.recapitulatifQuotidien) {
      await tx.update(u).set({ digestEnabled: input.recapitulatifQuotidien }).where(eq(u.id, actor.id));
      await recordSettingChange(
        ctx,
        actor,
        { parametre: 'recapitulatif_quotidien', avant: before, apres: input.recapitulatifQuotidien },
        tx,
      );
    }
    return input.recapitulatifQuotidien;
  });
  return dto(ctx, after);
}
