import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { BASE_PATH, DEFAULT_REQUIRED_ROLE, FALLBACK_PATH } from '#shared/constants';
import { AppShell } from './components/layout/app-shell';
import { Loading } from './components/ui/loading';
import { RequireAuth } from './features/auth/require-auth';
import { usePageTitle } from './lib/use-page-title';

// Each page is its own chunk: the login screen does not download the dashboard's charts and map.
const LoginPage = lazy(() => import('./features/auth/login-page'));
const LogoutPage = lazy(() => import('./features/auth/logout-page'));
const DefinirMotDePassePage = lazy(() => import('./features/auth/definir-mot-de-passe-page'));
const TwoFactorPage = lazy(() => import('./features/auth/two-factor-page'));
const TwoFactorEnrolPage = lazy(() => import('./features/auth/two-factor-enrol-page'));
const DashboardPage = lazy(() => import('./features/dashboard/dashboard-page'));
const DashboardAnalysisPage = lazy(() => import('./features/dashboard/analysis/analysis-page'));
const SignalementListPage = lazy(() => import('./features/signalement/signalement-list-page'));
const SignalementDetailPage = lazy(() => import('./features/signalement/signalement-detail-page'));
const SignalementCreatePage = lazy(() => import('./features/signalement/signalement-create-page'));
const UsersPage = lazy(() => import('./features/utilisateur/users-page'));
const PartenairesPage = lazy(() => import('./features/partenaire/partenaires-page'));
const JournalPage = lazy(() => import('./features/journal/journal-page'));
const WebhooksPage = lazy(() => import('./features/webhooks/webhooks-page'));
const AccesApiPage = lazy(() => import('./features/acces-api/acces-api-page'));
const ConfigurationPage = lazy(() => import('./features/configuration/configuration-page'));
const NotFoundPage = lazy(() => import('./features/errors/not-found-page'));
const ResumePage = lazy(() => import('./features/signalement/resume-page'));
const SignalementPrintPage = lazy(() => import('./features/signalement/print/print-page'));

interface ShellRoute {
  path: string;
  /** Browser tab title. */
  title: string;
  page: ComponentType;
  /** Role code required on top of a session (spec §6); none means any logged-in user. */
  role?: string;
}

/** Screens inside the sidebar and header (spec §2), all behind a session. */
export const SHELL_ROUTES: readonly ShellRoute[] = [
  { path: '/dashboard', title: 'Tableau de bord', page: DashboardPage },
  { path: '/dashboard/analyse', title: 'Tableau de Bord', page: DashboardAnalysisPage },
  { path: '/signalement/list', title: 'Liste des signalements', page: SignalementListPage },
  { path: '/signalement/detail/:code', title: 'Détail du signalement', page: SignalementDetailPage },
  { path: '/signalement/create', title: 'Formulaire', page: SignalementCreatePage },
  { path: '/users', title: 'Gestion des Utilisateurs', page: UsersPage, role: DEFAULT_REQUIRED_ROLE },
  {
    path: '/partenaires',
    title: 'Liste des Partenaires',
    page: PartenairesPage,
    role: DEFAULT_REQUIRED_ROLE,
  },
  { path: '/journal-acces', title: 'Journal des accès', page: JournalPage, role: DEFAULT_REQUIRED_ROLE },
  { path: '/webhooks', title: 'Webhooks', page: WebhooksPage, role: DEFAULT_REQUIRED_ROLE },
  { path: '/acces-api', title: 'Accès API', page: AccesApiPage, role: DEFAULT_REQUIRED_ROLE },
  { path: '/configuration', title: 'Configuration', page: ConfigurationPage },
];

function Titled({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return <>{children}</>;
}

export function AppRoutes() {
  return (
    <Router base={BASE_PATH}>
      <Suspense fallback={<Loading fullScreen />}>
        <Switch>
          <Route path="/">
            <Redirect to={FALLBACK_PATH} replace />
          </Route>
          <Route path="/login" component={LoginPage} />
          <Route path="/logout" component={LogoutPage} />
          {/* Second factor: outside the shell, whose calls a session owing its code may not make. */}
          <Route path="/double-authentification" component={TwoFactorPage} />
          <Route path="/double-authentification/activation" component={TwoFactorEnrolPage} />
          {/* Opened from the set-up or reset e-mail, before the user has a session. */}
          <Route path="/definir-mot-de-passe/:token" component={DefinirMotDePassePage} />
          {/* Public summary (§2): no shell, no session. */}
          <Route path="/resume/:code" component={ResumePage} />
          {/* A report as a printed document (docs/decisions/0043-print-view.md): no shell to hide. */}
          <Route path="/signalement/imprimer/:code">
            <RequireAuth>
              <SignalementPrintPage />
            </RequireAuth>
          </Route>
          <Route>
            <RequireAuth>
              <AppShell>
                {/* Inside the shell, so the sidebar and header stay while a page's code loads. */}
                <Suspense fallback={<Loading />}>
                  <Switch>
                    {SHELL_ROUTES.map(({ path, title, page: Page, role }) => (
                      <Route key={path} path={path}>
                        <Titled title={title}>
                          <RequireAuth role={role}>
                            <Page />
                          </RequireAuth>
                        </Titled>
                      </Route>
                    ))}
                    <Route>
                      <Titled title="Page introuvable">
                        <NotFoundPage />
                      </Titled>
                    </Route>
                  </Switch>
                </Suspense>
              </AppShell>
            </RequireAuth>
          </Route>
        </Switch>
      </Suspense>
    </Router>
  );
}
