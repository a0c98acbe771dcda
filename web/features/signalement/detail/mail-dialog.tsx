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
import { useTRPC } from '../../../lib/trpc';
import { TOASTS } from '../labels';

type Values = z.input<typeof notifyPartnerSchema>;

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
  // The partner's address starts the recipient field; without it the user types one.
  const partner = useQuery(trpc.partenaires.get.queryOptions({ code: partnerCode }));
  const failed = content.isError || (content.isSuccess && content.data.status !== 'success');
  useEffect(() => {
    if (failed) toast.error(TOASTS.mailLoadFailed);
  }, [failed, toast]);

  if (content.isPending || partner.isPending) return <Loading label="Chargement du message..." />;
  return (
    <MailForm
      code={code}
      onClose={onClose}
      defaults={{ email: partner.data?.email ?? '', content: failed ? '' : (content.data?.content ?? '') }}
    />
  );
}

function MailForm({ code, defaults, onClose }: { code: string; defaults: Values; onClose: () => void }) {
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
      onError() {
        toast.error(TOASTS.mailFailed, { description: TOASTS.mailFailedHint });
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
          {...errorProps('mail-email', errors.email?.message)}
          {...form.register('email')}
        />
      </Field>
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
        <button type="submit" className="btn btn-primary" disabled={send.isPending}>
          {send.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Envoyer
        </button>
      </div>
    </form>
  );
}
