import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useForm } from 'react-hook-form';
import { Redirect, useLocation, useSearch } from 'wouter';
import type { z } from 'zod';
import { loginInputSchema } from '#shared/schemas/auth';
import { ShieldAlertIcon } from '#web/components/icons';
import { Form, SubmitButton } from '#web/components/ui/form-actions';
import { TextField } from '#web/components/ui/form-field';
import { Loading } from '#web/components/ui/loading';
import { OFFLINE_TEXT } from '#web/features/offline/offline-text';
import { serverMessage } from '#web/lib/errors';
import { clearUnsent, subscribeUnsent, unsentCount } from '#web/lib/offline/unsent-notice';
import { useTRPC } from '#web/lib/trpc';
import { usePageTitle } from '#web/lib/use-page-title';
import { keepReturn, returnPathFrom } from './return-path';
import { pathForStep } from './two-factor-text';
import { useWhoAmI } from './use-who-am-i';

type LoginFormValues = z.input<typeof loginInputSchema>;

/** After the password: the second factor owed (keeping ?retour=), else the page asked for. */
function nextPath(step: Parameters<typeof pathForStep>[0], search: string): string {
  return step ? keepReturn(pathForStep(step), search) : returnPathFrom(search);
}

export default function LoginPage() {
  usePageTitle('Connexion');
  const { user, isPending, isSuccess } = useWhoAmI();
  const search = useSearch();

  if (isPending) return <Loading fullScreen />;
  if (isSuccess && user) return <Redirect to={nextPath(user.twoFactor, search)} replace />;
  return (
    <main className="flex min-h-screen items-center justify-center bg-base-200 p-4">
      <div className="card w-full max-w-md bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          <div className="flex flex-col items-center gap-2 text-center">
            <span className="rounded-full bg-primary/10 p-3 text-primary">
              <ShieldAlertIcon size={28} />
            </span>
            <h1 className="text-2xl font-bold">Connexion</h1>
            <p className="text-sm text-base-content/70">
              Connectez-vous pour accéder au suivi des signalements.
            </p>
          </div>
          <UnsentNotice />
          <LoginForm />
        </div>
      </div>
    </main>
  );
}

/** Changes that waited on this device when the session ended, wiped with it: how many (docs/decisions/0048). */
function UnsentNotice() {
  const lost = useSyncExternalStore(subscribeUnsent, unsentCount);
  if (lost === 0) return null;
  return (
    <div role="alert" className="alert alert-warning alert-soft" data-testid="login-unsent">
      <span>{OFFLINE_TEXT.lostAtSessionEnd(lost)}</span>
    </div>
  );
}

function LoginForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();

  const form = useForm<LoginFormValues, unknown, z.output<typeof loginInputSchema>>({
    resolver: zodResolver(loginInputSchema),
    defaultValues: { email: '', password: '' },
  });

  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess(user) {
        clearUnsent(); // Told on this page; the next session starts afresh.
        // Fill the cache first: the guard of /dashboard must not see the "no session" error of a moment ago.
        queryClient.setQueryData(trpc.auth.session.queryKey(), user);
        void queryClient.invalidateQueries(trpc.auth.session.queryFilter());
        navigate(nextPath(user.twoFactor, search), { replace: true });
      },
    }),
  );

  // A new attempt with field errors drops the answer of the previous one.
  const onSubmit = form.handleSubmit(
    (values) => login.mutate(values),
    () => login.reset(),
  );

  return (
    <Form label="Connexion" onSubmit={onSubmit}>
      {login.isError && (
        <div role="alert" className="alert alert-error alert-soft" data-testid="login-error">
          <span>{serverMessage(login.error, 'La connexion a échoué. Réessayez.')}</span>
        </div>
      )}

      <TextField
        control={form.control}
        name="email"
        id="login-email"
        label="Email"
        type="email"
        autoComplete="username"
        autoFocus
        placeholder="nom@exemple.mg"
      />
      <TextField
        control={form.control}
        name="password"
        id="login-password"
        label="Mot de passe"
        type="password"
        autoComplete="current-password"
      />

      <SubmitButton pending={login.isPending} className="mt-2 w-full">
        Se connecter
      </SubmitButton>
    </Form>
  );
}
