import { passwordTokensRouter } from '../domains/auth/password-tokens-router';
import { authRouter } from '../domains/auth/router';
import { twoFactorRouter } from '../domains/auth/two-factor-router';
import { dashboardRouter } from '../domains/dashboard/router';
import { delaisRouter } from '../domains/delais/router';
import { preferencesRouter } from '../domains/rappels/router';
import { jetonsApiRouter } from '../domains/jetons-api/router';
import { journalRouter } from '../domains/journal/router';
import { mailRouter } from '../domains/mail/router';
import { notesRouter } from '../domains/notes/router';
import { evidenceRouter } from '../domains/evidence/router';
import { filtresRouter } from '../domains/filtres/router';
import { partenairesRouter } from '../domains/partenaires/router';
import { auteursRouter, sourcesRouter, victimesRouter } from '../domains/personnes/router';
import { projectsRouter } from '../domains/projects/router';
import { referentielsRouter } from '../domains/referentiels/router';
import { signalementsRouter } from '../domains/signalements/router';
import { utilisateursRouter } from '../domains/utilisateurs/router';
import { webhooksRouter } from '../domains/webhooks/router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  twoFactor: twoFactorRouter,
  utilisateurs: utilisateursRouter,
  passwordTokens: passwordTokensRouter,
  partenaires: partenairesRouter,
  mail: mailRouter,
  signalements: signalementsRouter,
  auteurs: auteursRouter,
  sources: sourcesRouter,
  victimes: victimesRouter,
  notes: notesRouter,
  piecesJointes: evidenceRouter,
  projects: projectsRouter,
  referentiels: referentielsRouter,
  dashboard: dashboardRouter,
  journal: journalRouter,
  delais: delaisRouter,
  preferences: preferencesRouter,
  webhooks: webhooksRouter,
  jetonsApi: jetonsApiRouter,
  filtres: filtresRouter,
});

export type AppRouter = typeof appRouter;
