// Bulk actions on the list (docs/decisions/0035-bulk-actions.md): assign, unassign, change the statut or
// the niveau of hand-picked reports or of every report of a filter (up to BULK_MAX). One service behind
// both doors and the preview: the selection is resolved by the list's own filter code, the rights are
// access.ts's for every report, and the action is one transaction with one history entry per report that
// changes, one access-log entry for the whole action and, for an assignment, one e-mail to the assignee.
// What the action would do is decided in bulk-plan.ts, its writes are in bulk-apply.ts.
import type { z } from 'zod';
import type { bulkActionInputSchema, BulkAction } from '#shared/schemas/signalements';
import { conflict } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { recordBulkAction } from '../journal/record';
import { enqueueMail } from '../mail/outbox';
import { bulkAssignmentMail, myCasesLink, reportLink } from '../mail/templates';
import { apply, recordHistory } from './bulk-apply';
import { BULK_REFUSALS, plan, type BulkContext, type PreviewInput, type Target } from './bulk-plan';
import { enqueueWebhookEvents, webhookStates } from '../webhooks/events';

type ActionInput = z.output<typeof bulkActionInputSchema>;

/** What the confirmation states: how many reports are selected and how many the action changes. */
export interface BulkPreviewDto {
  '@type': 'ApercuActionGroupee';
  selectionnes: number;
  modifies: number;
}
export interface BulkResultDto {
  '@type': 'ActionGroupee';
  action: BulkAction['type'];
  selectionnes: number;
  modifies: number;
}

/** How many reports the action would change, with the same refusals as the action (the confirmation). */
export async function previewBulk(
  ctx: BulkContext,
  actor: SessionUser,
  input: PreviewInput,
): Promise<BulkPreviewDto> {
  const { reports, changed } = await plan(ctx, actor, input, ctx.clock.now());
  return { '@type': 'ApercuActionGroupee', selectionnes: reports.length, modifies: changed.size };
}

/**
 * Runs a bulk action in one transaction: the selection resolved again inside it, every report's right
 * checked, refused as a whole when one is missing or when the count differs from `attendu`.
 */
export async function runBulk(
  ctx: BulkContext,
  actor: SessionUser,
  input: ActionInput,
): Promise<BulkResultDto> {
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const at = ctx.clock.now();
    const { reports, target, changed } = await plan(ctx, actor, input, at);
    if (input.attendu !== undefined && input.attendu !== changed.size)
      throw conflict(BULK_REFUSALS.changed(input.attendu, changed.size));
    const ids = [...changed.keys()];
    if (ids.length > 0) {
      // The partners' endpoints hear of a new statut or niveau (docs/decisions/0039-signed-webhooks.md).
      const watched = target.type === 'statut' || target.type === 'niveau';
      const before = watched ? await webhookStates(db, tx, ids) : new Map();
      const history = await apply(db, tx, actor, reports, target, changed, at);
      await recordHistory(db, tx, actor, history, at);
      if (before.size > 0) await enqueueWebhookEvents(db, tx, before, await webhookStates(db, tx, ids), at);
    }
    const selection = input.codes
      ? { selection: 'codes' as const }
      : { selection: 'filtre' as const, filtres: withInstants(ctx, input.filtre!) };
    await recordBulkAction(
      ctx,
      actor,
      {
        action: target.type,
        ...targetCode(target),
        ...selection,
        selectionnes: reports.length,
        modifies: ids.length,
      },
      tx,
    );
    if (target.type === 'assigner' && ids.length > 0 && target.user.id !== actor.id) {
      const codes = reports.filter((r) => changed.has(r.id)).map((r) => r.code);
      const link =
        codes.length === 1
          ? reportLink(ctx.config.PUBLIC_URL, codes[0]!)
          : myCasesLink(ctx.config.PUBLIC_URL, target.user.code);
      await enqueueMail(
        db,
        bulkAssignmentMail({
          to: target.user.email,
          nomPrenom: target.user.nomPrenom,
          codes,
          by: actor.nomPrenom,
          link,
        }),
      );
    }
    return {
      '@type': 'ActionGroupee',
      action: target.type,
      selectionnes: reports.length,
      modifies: ids.length,
    };
  });
}

const targetCode = (target: Target) =>
  target.type === 'statut'
    ? { statut: target.statut.code }
    : target.type === 'niveau'
      ? { niveau: target.niveau?.code ?? null }
      : { utilisateur: target.user.code };

/** The filters as logged, dates as instants of the business calendar (as the export logs them). */
function withInstants(
  ctx: BulkContext,
  filtre: NonNullable<PreviewInput['filtre']>,
): Record<string, unknown> {
  const { signalementAt: at, ...rest } = filtre;
  if (!at) return rest;
  return {
    ...rest,
    signalementAt: {
      ...(at.after && { after: ctx.calendar.instant(at.after) }),
      ...(at.before && { before: ctx.calendar.instant(at.before) }),
    },
  };
}
