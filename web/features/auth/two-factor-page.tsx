import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import type { z } from 'zod';
import { recoveryCodeInputSchema, twoFactorVerifyInputSchema } from '../../../shared/schemas/auth';
import { errorProps, Field } from '../../components/ui/field';
import { Loading } from '../../components/ui/loading';
import { useToast } from '../../components/ui/toast';
import { serverMessage } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { TwoFactorCard } from './two-factor-card';
import { keepReturn, returnPathFrom } from './return-path';
import { pathForStep, TWO_FACTOR_TEXT as TEXT } from './two-factor-text';
import { useWhoAmI } from './use-who-am-i';

/** /double-authentification: the second step of a log-in, a code of the app or a recovery code. */
export default function TwoFactorPage() {
  usePageTitle(TEXT.verifyTitle);
  const { user, isPending, isUnauthenticated } = useWhoAmI();
  const [recovery, setRecovery] = useState(false);
  const search = useSearch();

  if (isUnauthenticated) return <Redirect to="/login" replace />;
  if (isPending) return <Loading fullScreen />;
  if (user && user.twoFactor !== 'verify') {
    return (
      <Redirect
        to={user.twoFactor ? keepReturn(pathForStep(user.twoFactor), search) : returnPathFrom(search)}
        replace
      />
    );
  }
  return (
    <TwoFactorCard title={TEXT.verifyTitle} intro={recovery ? TEXT.recoveryIntro : TEXT.verifyIntro}>
      {recovery ? <RecoveryForm /> : <CodeForm />}
      <div className="flex flex-col items-center gap-1">
        <button type="button" className="btn btn-link btn-sm" onClick={() => setRecovery((r) => !r)}>
          {recovery ? TEXT.useApp : TEXT.useRecovery}
        </button>
        <Link href="/logout" className="link link-hover text-sm text-base-content/70">
          {TEXT.logout}
        </Link>
      </div>
    </TwoFactorCard>
  );
}

/** After a right code: the cached who-am-i loses its step, then the application opens. */
function useVerified() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return () => {
    queryClient.setQueryData(trpc.auth.session.queryKey(), (old) =>
      old ? { ...old, twoFactor: null } : old,
    );
    void queryClient.invalidateQueries();
    navigate(returnPathFrom(window.location.search), { replace: true });
  };
}

function CodeForm() {
  const trpc = useTRPC();
  const verified = useVerified();
  const form = useForm<
    z.input<typeof twoFactorVerifyInputSchema>,
    unknown,
    z.output<typeof twoFactorVerifyInputSchema>
  >({
    resolver: zodResolver(twoFactorVerifyInputSchema),
    defaultValues: { code: '' },
  });
  const error = form.formState.errors.code?.message;
  const verify = useMutation(trpc.twoFactor.verify.mutationOptions({ onSuccess: verified }));
  return (
    <form
      onSubmit={form.handleSubmit((values) => verify.mutate(values))}
      noValidate
      className="flex flex-col gap-3"
      aria-label={TEXT.verifyTitle}
    >
      {verify.isError && (
        <div role="alert" className="alert alert-error alert-soft" data-testid="two-factor-error">
          <span>{serverMessage(verify.error, TEXT.verifyFailed)}</span>
        </div>
      )}
      <Field htmlFor="two-factor-code" label={TEXT.codeLabel} error={error}>
        <input
          id="two-factor-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          maxLength={7}
          className={`input w-full tracking-widest ${error ? 'input-error' : ''}`}
          {...errorProps('two-factor-code', error)}
          {...form.register('code')}
        />
      </Field>
      <button type="submit" className="btn btn-primary mt-2 w-full" disabled={verify.isPending}>
        {verify.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {TEXT.verify}
      </button>
    </form>
  );
}

function RecoveryForm() {
  const trpc = useTRPC();
  const toast = useToast();
  const verified = useVerified();
  const form = useForm<
    z.input<typeof recoveryCodeInputSchema>,
    unknown,
    z.output<typeof recoveryCodeInputSchema>
  >({
    resolver: zodResolver(recoveryCodeInputSchema),
    defaultValues: { code: '' },
  });
  const error = form.formState.errors.code?.message;
  const recover = useMutation(
    trpc.twoFactor.recover.mutationOptions({
      onSuccess({ remaining }) {
        if (remaining === 0) toast.error(TEXT.recoveryLeft(0));
        else toast.success(TEXT.recoveryLeft(remaining));
        verified();
      },
    }),
  );
  return (
    <form
      onSubmit={form.handleSubmit((values) => recover.mutate(values))}
      noValidate
      className="flex flex-col gap-3"
      aria-label={TEXT.recoveryFormLabel}
    >
      {recover.isError && (
        <div role="alert" className="alert alert-error alert-soft" data-testid="two-factor-error">
          <span>{serverMessage(recover.error, TEXT.verifyFailed)}</span>
        </div>
      )}
      <Field htmlFor="two-factor-recovery" label={TEXT.recoveryLabel} error={error}>
        <input
          id="two-factor-recovery"
          autoComplete="off"
          autoFocus
          className={`input w-full font-mono ${error ? 'input-error' : ''}`}
          {...errorProps('two-factor-recovery', error)}
          {...form.register('code')}
        />
      </Field>
      <button type="submit" className="btn btn-primary mt-2 w-full" disabled={recover.isPending}>
        {recover.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {TEXT.verify}
      </button>
    </form>
  );
}
