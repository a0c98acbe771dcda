import { authRouter } from '../domains/auth/router';
import { utilisateursRouter } from '../domains/utilisateurs/router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  utilisateurs: utilisateursRouter,
});

export type AppRouter = typeof appRouter;
