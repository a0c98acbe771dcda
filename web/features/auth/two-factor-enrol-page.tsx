import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Redirect, useLocation } from 'wouter';
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
import { CODE_FIELD, TwoFactorCard, TwoFactorError } from './two-factor-card';
import { keepReturn, returnPathFrom } from './return-path';
import { pathForStep, TWO_FACTOR_TEXT as TEXT } from './two-factor-text';
import { useWhoAmI } from './use-who-am-i';

/**
 * /double-authentification/activation: QR code and key (chosen and kept by the server), the current
 * password and a first code to confirm, then the ten recovery codes, shown once. Required accounts are sent here by the guard; others may come freely.
 */
export default function TwoFactorEnrolPage() {
  usePageTitle(TEXT.enrolTitle);
  const { user, isPending, isUnauthenticated } = useWhoAmI();
  const [codes, setCodes] = useState<string[] | null>(null);

  if (isUnauthenticated) return <Redirect to="/login" replace />;
  if (isPending) return <Loading fullScreen />;
  if (codes) return <RecoveryCodes codes={codes} />;
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
      <div className="text-center">
        <p className="text-sm text-base-content/70">{TEXT.keyLabel}</p>
        <code className="font-mono text-sm break-all select-all" data-testid="two-factor-secret">
          {secret.match(/.{1,4}/g)!.join(' ')}
        </code>
      </div>
      <Form label={TEXT.enrolTitle} onSubmit={form.handleSubmit((values) => enrol.mutate(values))}>
        <TwoFactorError error={enrol.error} fallback={TEXT.enrolFailed} />
        <TextField
          control={form.control}
          name="password"
          id="two-factor-enrol-password"
          label={TEXT.passwordLabel}
          type="password"
          autoComplete="current-password"
        />
        <TextField control={form.control} id="two-factor-enrol-code" {...CODE_FIELD} />
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

/** The recovery codes, shown once; the application opens when the user says they are kept. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (
    <TwoFactorCard title={TEXT.codesTitle} intro={TEXT.codesIntro}>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded bg-base-200 px-2 py-1 text-center select-all">
            {code}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="btn btn-primary w-full"
        onClick={() => {
          void queryClient.invalidateQueries();
          navigate(returnPathFrom(window.location.search), { replace: true });
        }}
      >
        {TEXT.codesKept}
      </button>
    </TwoFactorCard>
  );
}
