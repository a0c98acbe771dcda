import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { notifyPartnerSchema } from '#shared/schemas/signalements';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { TextareaField, TextField } from '#web/components/ui/form-field';
import { Loading } from '#web/components/ui/loading';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { isAdmin } from '#web/lib/role';
import { useTRPC } from '#web/lib/trpc';
import { useWhoAmI } from '#web/features/auth/use-who-am-i';
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
    <Form label="Email au partenaire" onSubmit={onSubmit}>
      <TextField
        control={form.control}
        name="email"
        id="mail-email"
        label="Adresse email du destinataire"
        type="email"
        autoComplete="email"
        placeholder="contact@partenaire.mg"
        readOnly={!anyRecipient}
      />
      {!anyRecipient && (
        <p className="text-xs text-base-content/70" data-testid="mail-recipient-note">
          {defaults.email ? RECIPIENT_NOTE : NO_PARTNER_EMAIL}
        </p>
      )}
      <TextareaField
        control={form.control}
        name="content"
        id="mail-content"
        label="Message"
        rows={12}
        inputClassName="font-mono text-sm"
      />
      <DialogFooter
        pending={send.isPending}
        submitLabel="Envoyer"
        submitDisabled={!anyRecipient && !defaults.email}
        onCancel={onClose}
      />
    </Form>
  );
}
