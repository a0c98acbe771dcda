import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useParams } from 'wouter';
import type { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '#shared/constants';
import { definePasswordFormSchema } from '#shared/schemas/utilisateurs';
import { ShieldAlertIcon } from '#web/components/icons';
import { Form, SubmitButton } from '#web/components/ui/form-actions';
import { TextField } from '#web/components/ui/form-field';
import { Loading } from '#web/components/ui/loading';
import { useToast } from '#web/components/ui/toast';
import { errorCode, serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { usePageTitle } from '#web/lib/use-page-title';

const TEXT = {
  title: 'Définir votre mot de passe',
  setupIntro: (name: string) => `Bienvenue ${name}. Choisissez le mot de passe de votre compte.`,
  resetIntro: (name: string) => `Bonjour ${name}. Choisissez un nouveau mot de passe.`,
  unusable: 'Lien inutilisable',
  loadFailed: 'Impossible de vérifier ce lien. Réessayez dans un instant.',
  saved: 'Votre mot de passe a été enregistré. Vous pouvez maintenant vous connecter.',
  saveFailed: "Le mot de passe n'a pas pu être enregistré.",
  backToLogin: 'Retour à la connexion',
} as const;

type FormValues = z.input<typeof definePasswordFormSchema>;

/** Opened from the set-up or reset e-mail, without a session: /admin/definir-mot-de-passe/:token. */
export default function DefinirMotDePassePage() {
  usePageTitle(TEXT.title);
  const { token = '' } = useParams<{ token: string }>();
  const trpc = useTRPC();
  const state = useQuery(trpc.passwordTokens.inspect.queryOptions({ token }, { staleTime: Infinity }));

  return (
    <main className="flex min-h-screen items-center justify-center bg-base-200 p-4">
      <div className="card w-full max-w-md bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          <div className="flex flex-col items-center gap-2 text-center">
            <span className="rounded-full bg-primary/10 p-3 text-primary">
              <ShieldAlertIcon size={28} />
            </span>
            <h1 className="text-2xl font-bold">{TEXT.title}</h1>
          </div>
          {state.isPending ? (
            <Loading />
          ) : state.isError ? (
            <Unusable message={serverMessage(state.error, TEXT.loadFailed)} />
          ) : state.data.status !== 'valid' ? (
            <Unusable message={state.data.message} />
          ) : (
            <>
              <p className="text-center text-sm text-base-content/70" data-testid="definir-intro">
                {state.data.purpose === 'setup'
                  ? TEXT.setupIntro(state.data.nomPrenom)
                  : TEXT.resetIntro(state.data.nomPrenom)}
              </p>
              <PasswordForm token={token} email={state.data.email} />
            </>
          )}
        </div>
      </div>
    </main>
  );
}

function Unusable({ message }: { message: string }) {
  return (
    <>
      <div role="alert" className="alert alert-error alert-soft" data-testid="definir-unusable">
        <div>
          <p className="font-semibold">{TEXT.unusable}</p>
          <p className="text-sm">{message}</p>
        </div>
      </div>
      <Link href="/login" className="btn btn-ghost">
        {TEXT.backToLogin}
      </Link>
    </>
  );
}

/** A 400 on this form is about the password; the link's own refusals (used, expired…) are other codes. */
const refusesPassword = (error: unknown) => errorCode(error) === 'BAD_REQUEST';

function PasswordForm({ token, email }: { token: string; email: string }) {
  const trpc = useTRPC();
  const toast = useToast();
  const [, navigate] = useLocation();
  const form = useForm<FormValues, unknown, z.output<typeof definePasswordFormSchema>>({
    resolver: zodResolver(definePasswordFormSchema),
    defaultValues: { password: '', confirmation: '' },
  });
  const define = useMutation(
    trpc.passwordTokens.define.mutationOptions({
      onSuccess() {
        toast.success(TEXT.saved);
        navigate('/login', { replace: true });
      },
      onError(error) {
        // The server refuses a password the form cannot judge (too common, the user's name…): say why under the field.
        if (refusesPassword(error)) {
          form.setError(
            'password',
            { type: 'server', message: serverMessage(error, TEXT.saveFailed) },
            { shouldFocus: true },
          );
        }
      },
    }),
  );
  const onSubmit = form.handleSubmit((values) => define.mutate({ token, password: values.password }));

  return (
    <Form label={TEXT.title} onSubmit={onSubmit}>
      {define.isError && !refusesPassword(define.error) && (
        <div role="alert" className="alert alert-error alert-soft" data-testid="definir-error">
          <span>{serverMessage(define.error, TEXT.saveFailed)}</span>
        </div>
      )}
      {/* Lets the browser's password manager file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextField
        control={form.control}
        name="password"
        id="definir-password"
        label="Nouveau mot de passe"
        hint={`Au moins ${PASSWORD_MIN_LENGTH} caractères, sans mot courant ni suite évidente.`}
        type="password"
        autoComplete="new-password"
        autoFocus
      />
      <TextField
        control={form.control}
        name="confirmation"
        id="definir-confirmation"
        label="Confirmer le mot de passe"
        type="password"
        autoComplete="new-password"
      />
      <SubmitButton pending={define.isPending} className="mt-2 w-full">
        Enregistrer le mot de passe
      </SubmitButton>
    </Form>
  );
}
