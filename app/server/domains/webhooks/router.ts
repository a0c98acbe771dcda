import { z } from 'zod';
import {
  webhookDeliveriesInputSchema,
  webhookEndpointInputSchema,
  webhookIdSchema,
} from '#shared/schemas/webhooks';
import { adminProcedure, router } from '#server/trpc/init';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
} from './service';

const byId = z.object({ id: webhookIdSchema });

/** The « Webhooks » screen's procedures: administrators only (docs/decisions/0039-signed-webhooks.md). */
export const webhooksRouter = router({
  endpoints: adminProcedure.query(({ ctx }) => listWebhookEndpoints(ctx.db, ctx.auth.user)),
  createEndpoint: adminProcedure
    .input(webhookEndpointInputSchema)
    .mutation(({ ctx, input }) => createWebhookEndpoint(ctx, ctx.auth.user, input)),
  /** « Renouveler le secret »: the new secret is in the answer, once. */
  rotateSecret: adminProcedure
    .input(byId)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx, ctx.auth.user, input.id)),
  setEndpointEnabled: adminProcedure
    .input(z.object({ id: webhookIdSchema, actif: z.boolean({ error: 'Valeur invalide.' }) }))
    .mutation(({ ctx, input }) => setWebhookEndpointEnabled(ctx.db, ctx.auth.user, input.id, input.actif)),
  deleteEndpoint: adminProcedure
    .input(byId)
    .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, ctx.auth.user, input.id)),
  deliveries: adminProcedure
    .input(webhookDeliveriesInputSchema)
    .query(({ ctx, input }) => listWebhookDeliveries(ctx.db, ctx.auth.user, input)),
  retryDelivery: adminProcedure
    .input(byId)
    .mutation(({ ctx, input }) => retryWebhookDelivery(ctx.db, ctx.auth.user, input.id)),
});
