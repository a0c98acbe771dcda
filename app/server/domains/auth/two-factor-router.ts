import {
  recoveryCodeInputSchema,
  twoFactorEnrolInputSchema,
  twoFactorVerifyInputSchema,
} from '#shared/schemas/auth';
import { authedProcedure, router } from '#server/trpc/init';
import { useRecoveryCode, verifyTwoFactorCode } from './two-factor';
import { confirmEnrolment, newEnrolment } from './two-factor-enrol';

// Every door here is reachable by a session that still owes its second factor; codes are one per
// request (solo), each counted against the log-in limits.
const step = authedProcedure.meta({ twoFactorStep: true });

export const twoFactorRouter = router({
  /** A new key for the enrolment screen (QR code and text), kept on the session until a code confirms it. */
  setup: step.mutation(({ ctx }) => newEnrolment(ctx, ctx.auth)),
  enrol: step
    .meta({ solo: true })
    .input(twoFactorEnrolInputSchema)
    .mutation(({ ctx, input }) => confirmEnrolment(ctx, ctx.auth, ctx.req.ip, input)),
  verify: step
    .meta({ solo: true })
    .input(twoFactorVerifyInputSchema)
    .mutation(async ({ ctx, input }) => {
      await verifyTwoFactorCode(ctx, ctx.auth, ctx.req.ip, input.code);
      return { success: true };
    }),
  recover: step
    .meta({ solo: true })
    .input(recoveryCodeInputSchema)
    .mutation(({ ctx, input }) => useRecoveryCode(ctx, ctx.auth, ctx.req.ip, input.code)),
});
