import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Redirect } from 'wouter';
import type { z } from 'zod';
import { twoFactorEnrolInputSchema } from '#shared/schemas/auth';
import { Form, SubmitButton } from '#web/components/ui/form-actions';
import { TextField } from '#web/components/ui/form-field';
import { Loading } from '#web/components/ui/loading';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { usePageTitle } from '#web/lib/use-page-title';
import { QrCode } from './qr-code';
import { RecoveryCodes } from './recovery-codes';
import { CODE_FIELD, TwoFactorCard, TwoFactorError } from './two-factor-card';
import { keepReturn, returnPathFrom } from './return-path';
import { pathForStep, TWO_FACTOR_TEXT as TEXT } from './two-factor-text';
import { useWhoAmI } from './use-who-am-i';

/**
 * /double-authentification/activation: QR code, « Ouvrir dans l'application » link and key (chosen and kept
 * by the server), a first code and the current password to confirm, then the ten recovery codes, shown
 * once. Required accounts are sent here by the guard; others may come freely.
 */
export default function TwoFactorEnrolPage() {
  usePageTitle(TEXT.enrolTitle);
  const { user, isPending, isUnauthenticated } = useWhoAmI();
  const [codes, setCodes] = useState<string[] | null>(null);

  if (isUnauthenticated) return <Redirect to="/login" replace />;
  if (isPending) return <Loading fullScreen />;
  if (codes) return <RecoveryCodes codes={codes} email={user?.email ?? ''} />;
  if (user?.twoFactor === 'verify')
    return <Redirect to={keepReturn(pathForStep('verify'), window.location.search)} replace />;
  if (user?.twoFactorEnrolled) {
    return (
      <TwoFactorCard title={TEXT.enrolTitle}>
        <div role="status" className="alert alert-info alert-soft">
          <span>{TEXT.alreadyEnrolled}</span>
        </div>
        <Link href={returnPathFrom(window.location.search)} className="btn btn-primary w-full">
          Continuer
        </Link>
      </TwoFactorCard>
    );
  }
  return <Enrolment required={user?.twoFactor === 'enrol'} onEnrolled={setCodes} />;
}

function Enrolment({ required, onEnrolled }: { required: boolean; onEnrolled: (codes: string[]) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const setup = useMutation(trpc.twoFactor.setup.mutationOptions());
  const started = useRef(false);
  const { mutate: start } = setup;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);

  const form = useForm<
    z.input<typeof twoFactorEnrolInputSchema>,
    unknown,
    z.output<typeof twoFactorEnrolInputSchema>
  >({
    resolver: zodResolver(twoFactorEnrolInputSchema),
    defaultValues: { password: '', code: '' },
  });
  const enrol = useMutation(
    trpc.twoFactor.enrol.mutationOptions({
      // The answer holds the recovery codes: not kept in the mutation cache once this form is gone.
      gcTime: 0,
      onSuccess({ recoveryCodes }) {
        // The codes are shown before the session's new state reaches the guard.
        onEnrolled(recoveryCodes);
        toast.success(TEXT.enrolled);
        queryClient.setQueryData(trpc.auth.session.queryKey(), (old) =>
          old ? { ...old, twoFactor: null, twoFactorEnrolled: true } : old,
        );
      },
    }),
  );

  // The code field has the focus once the form shows: the person comes back from the app with a code.
  const { setFocus } = form;
  const ready = Boolean(setup.data);
  useEffect(() => {
    if (ready) setFocus('code');
  }, [ready, setFocus]);

  const intro = (
    <>
      {required && <strong className="block">{TEXT.enrolRequired}</strong>}
      {TEXT.enrolIntro}
    </>
  );
  if (setup.isError) {
    return (
      <TwoFactorCard title={TEXT.enrolTitle} intro={intro}>
        <div role="alert" className="alert alert-error alert-soft">
          <span>{serverMessage(setup.error, TEXT.setupFailed)}</span>
          <button type="button" className="btn btn-sm" onClick={() => start()}>
            {TEXT.retry}
          </button>
        </div>
      </TwoFactorCard>
    );
  }
  if (!setup.data) return <Loading fullScreen />;
  const { secret, uri } = setup.data;

  return (
    <TwoFactorCard title={TEXT.enrolTitle} intro={intro}>
      <div className="flex justify-center">
        <QrCode value={uri} label={TEXT.qrLabel} />
      </div>
      <div className="flex flex-col items-center gap-1 text-center">
        {/* A navigation to the phone's authenticator (no target: the page stays open for the code). */}
        <a href={uri} className="btn btn-outline btn-sm" data-testid="two-factor-open-app">
          {TEXT.openInApp}
        </a>
        <p className="text-xs text-base-content/70">{TEXT.openInAppHint}</p>
      </div>
      <div className="text-center">
        <p className="text-sm text-base-content/70">{TEXT.keyLabel}</p>
        <code className="font-mono text-sm break-all select-all" data-testid="two-factor-secret">
          {secret.match(/.{1,4}/g)!.join(' ')}
        </code>
      </div>
      <Form label={TEXT.enrolTitle} onSubmit={form.handleSubmit((values) => enrol.mutate(values))}>
        <TwoFactorError error={enrol.error} fallback={TEXT.enrolFailed} />
        <TextField control={form.control} id="two-factor-enrol-code" {...CODE_FIELD} />
        <TextField
          control={form.control}
          name="password"
          id="two-factor-enrol-password"
          label={TEXT.passwordLabel}
          type="password"
          autoComplete="current-password"
        />
        <SubmitButton pending={enrol.isPending} className="mt-2 w-full">
          {TEXT.confirm}
        </SubmitButton>
      </Form>
      <Link href="/logout" className="link link-hover text-center text-sm text-base-content/70">
        {TEXT.logout}
      </Link>
    </TwoFactorCard>
  );
}
