import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import type { z } from 'zod';
import { recoveryCodeInputSchema, twoFactorVerifyInputSchema } from '#shared/schemas/auth';
import { Form, SubmitButton } from '#web/components/ui/form-actions';
import { TextField } from '#web/components/ui/form-field';
import { Loading } from '#web/components/ui/loading';
import { useToast } from '#web/components/ui/toast';
import { useTRPC } from '#web/lib/trpc';
import { usePageTitle } from '#web/lib/use-page-title';
import { CODE_FIELD, TwoFactorCard, TwoFactorError } from './two-factor-card';
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
  const verify = useMutation(trpc.twoFactor.verify.mutationOptions({ onSuccess: verified }));
  return (
    <Form label={TEXT.verifyTitle} onSubmit={form.handleSubmit((values) => verify.mutate(values))}>
      <TwoFactorError error={verify.error} fallback={TEXT.verifyFailed} />
      <TextField control={form.control} id="two-factor-code" autoFocus {...CODE_FIELD} />
      <SubmitButton pending={verify.isPending} className="mt-2 w-full">
        {TEXT.verify}
      </SubmitButton>
    </Form>
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
    <Form label={TEXT.recoveryFormLabel} onSubmit={form.handleSubmit((values) => recover.mutate(values))}>
      <TwoFactorError error={recover.error} fallback={TEXT.verifyFailed} />
      <TextField
        control={form.control}
        name="code"
        id="two-factor-recovery"
        label={TEXT.recoveryLabel}
        autoComplete="off"
        autoFocus
        inputClassName="font-mono"
      />
      <SubmitButton pending={recover.isPending} className="mt-2 w-full">
        {TEXT.verify}
      </SubmitButton>
    </Form>
  );
}
