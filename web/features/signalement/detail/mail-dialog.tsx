import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { notifyPartnerSchema } from '../../../../shared/schemas/signalements';
import { Dialog } from '../../../components/ui/dialog';
import { errorProps, Field } from '../../../components/ui/field';
import { Loading } from '../../../components/ui/loading';
import { useToast } from '../../../components/ui/toast';
import { serverMessage } from '../../../lib/errors';
import { isAdmin } from '../../../lib/role';
import { useTRPC } from '../../../lib/trpc';
import { useWhoAmI } from '../../auth/use-who-am-i';
import { TOASTS } from '../labels';

type Values = z.input<typeof notifyPartnerSchema>;

const RECIPIENT_NOTE = "Le message part à l'adresse du partenaire ; seul un administrateur peut la changer.";
const NO_PARTNER_EMAIL =
  "Ce partenaire n'a pas d'adresse email : seul un administrateur peut envoyer ce message.";

export interface MailDialogProps {
  open: boolean;
  onClose: () => void;
  code: string;
  partner: { code: string; designation: string };
}

/** 'Envoyer un email à {partner}': the server's default message, editable, checked as §5. */
export function MailDialog({ open, onClose, code, partner }: MailDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Envoyer un email à ${partner.designation}`}
      size="lg"
      data-testid="mail-dialog"
    >
      {open && <MailLoader code={code} partnerCode={partner.code} onClose={onClose} />}
    </Dialog>
  );
}

function MailLoader({
  code,
  partnerCode,
  onClose,
}: {
  code: string;
  partnerCode: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const content = useQuery(
    trpc.signalements.defaultMailContent.queryOptions({ code }, { staleTime: 0, gcTime: 0 }),
  );
  // The partner's address starts the recipient field. Only an administrator may change it or type
  // one when the partner has none (the server refuses other addresses, docs/decisions/0015).
  const partner = useQuery(trpc.partenaires.get.queryOptions({ code: partnerCode }));
  const whoAmI = useWhoAmI();
  const failed = content.isError || (content.isSuccess && content.data.status !== 'success');
  useEffect(() => {
    if (failed) toast.error(TOASTS.mailLoadFailed);
  }, [failed, toast]);

  if (content.isPending || partner.isPending || whoAmI.isPending) {
    return <Loading label="Chargement du message..." />;
  }
  return (
    <MailForm
      code={code}
      onClose={onClose}
      anyRecipient={whoAmI.isSuccess && isAdmin(whoAmI.user)}
      defaults={{ email: partner.data?.email ?? '', content: failed ? '' : (content.data?.content ?? '') }}
    />
  );
}

function MailForm({
  code,
  defaults,
  anyRecipient,
  onClose,
}: {
  code: string;
  defaults: Values;
  /** An administrator may write to any address; others only to the partner's. */
  anyRecipient: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const toast = useToast();
  const form = useForm<Values, unknown, z.output<typeof notifyPartnerSchema>>({
    resolver: zodResolver(notifyPartnerSchema),
    defaultValues: defaults,
  });
  const { errors } = form.formState;
  const send = useMutation(
    trpc.signalements.notifyPartner.mutationOptions({
      onSuccess(_data, variables) {
        toast.success(TOASTS.mailSent, { description: `Destinataire : ${variables.email}` });
        onClose();
      },
      onError(error) {
        toast.error(TOASTS.mailFailed, { description: serverMessage(error, '') || TOASTS.mailFailedHint });
      },
    }),
  );
  const onSubmit = form.handleSubmit((values) => send.mutate({ code, ...values }));

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Email au partenaire">
      <Field htmlFor="mail-email" label="Adresse email du destinataire" error={errors.email?.message}>
        <input
          id="mail-email"
          type="email"
          autoComplete="email"
          className={`input w-full ${errors.email ? 'input-error' : ''}`}
          placeholder="contact@partenaire.mg"
          readOnly={!anyRecipient}
          {...errorProps('mail-email', errors.email?.message)}
          {...form.register('email')}
        />
      </Field>
      {!anyRecipient && (
        <p className="text-xs text-base-content/70" data-testid="mail-recipient-note">
          {defaults.email ? RECIPIENT_NOTE : NO_PARTNER_EMAIL}
        </p>
      )}
      <Field htmlFor="mail-content" label="Message" error={errors.content?.message}>
        <textarea
          id="mail-content"
          rows={12}
          className={`textarea w-full font-mono text-sm ${errors.content ? 'textarea-error' : ''}`}
          {...errorProps('mail-content', errors.content?.message)}
          {...form.register('content')}
        />
      </Field>
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose} disabled={send.isPending}>
          Annuler
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={send.isPending || (!anyRecipient && !defaults.email)}
        >
          {send.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Envoyer
        </button>
      </div>
    </form>
  );
}
