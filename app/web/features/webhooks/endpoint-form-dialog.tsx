import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { OPTION_LIST_SIZE } from '#shared/constants';
import { webhookEndpointInputSchema } from '#shared/schemas/webhooks';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { SelectField, TextField } from '#web/components/ui/form-field';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { WEBHOOKS_TEXT } from './webhooks-text';

type FormValues = z.input<typeof webhookEndpointInputSchema>;

/** « Nouveau point de réception »: the form, then the secret, shown once. */
export function EndpointFormDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={secret ? WEBHOOKS_TEXT.secretTitle : WEBHOOKS_TEXT.newEndpoint}
      data-testid="webhook-endpoint-dialog"
    >
      {secret ? (
        <SecretShownOnce secret={secret} onClose={close} />
      ) : (
        <EndpointForm onCreated={setSecret} onCancel={close} />
      )}
    </Dialog>
  );
}

/**
 * A new secret, shown this once (after « Nouveau point de réception » and « Renouveler le secret »): the
 * server never answers it again. `note` says what else the administrator should know (the former secret).
 */
export function SecretShownOnce({
  secret,
  note,
  onClose,
}: {
  secret: string;
  note?: string;
  onClose: () => void;
}) {
  return (
    <div className="flex flex-col gap-3" data-testid="webhook-secret">
      <p className="text-sm">{WEBHOOKS_TEXT.secretWarning}</p>
      {note && <p className="text-sm">{note}</p>}
      <label className="flex flex-col gap-1">
        <span className="text-sm font-medium">{WEBHOOKS_TEXT.secretTitle}</span>
        <input
          className="input w-full font-mono text-sm"
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
          data-testid="webhook-secret-value"
        />
      </label>
      <div className="modal-action">
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {WEBHOOKS_TEXT.close}
        </button>
      </div>
    </div>
  );
}

function EndpointForm({
  onCreated,
  onCancel,
}: {
  onCreated: (secret: string) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const partners = useQuery(trpc.partenaires.list.queryOptions({ page: 1, itemsPerPage: OPTION_LIST_SIZE }));
  const form = useForm<FormValues, unknown, z.output<typeof webhookEndpointInputSchema>>({
    resolver: zodResolver(webhookEndpointInputSchema),
    defaultValues: { partenaire: '', url: '' },
  });
  const create = useMutation(
    trpc.webhooks.createEndpoint.mutationOptions({
      onSuccess(created) {
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoints.queryKey() });
        toast.success(WEBHOOKS_TEXT.created);
        onCreated(created.secret);
      },
      onError(error) {
        toast.error(WEBHOOKS_TEXT.createFailed, {
          description: serverMessage(error, WEBHOOKS_TEXT.createFailed),
        });
      },
    }),
  );
  const options = (partners.data?.items ?? []).map((p) => ({ value: p.code, label: p.designation }));
  return (
    <Form label={WEBHOOKS_TEXT.newEndpoint} onSubmit={form.handleSubmit((values) => create.mutate(values))}>
      <SelectField
        control={form.control}
        name="partenaire"
        id="webhook-partenaire"
        label={WEBHOOKS_TEXT.partner}
        options={options}
        placeholder={WEBHOOKS_TEXT.partnerPlaceholder}
      />
      <TextField
        control={form.control}
        name="url"
        id="webhook-url"
        label={WEBHOOKS_TEXT.url}
        type="url"
        autoComplete="off"
        placeholder="https://partenaire.example.mg/webhooks"
        hint={WEBHOOKS_TEXT.urlHint}
      />
      <DialogFooter pending={create.isPending} submitLabel={WEBHOOKS_TEXT.create} onCancel={onCancel} />
    </Form>
  );
}
