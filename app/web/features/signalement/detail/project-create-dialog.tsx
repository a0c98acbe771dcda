import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { ProjectDto } from '#shared/dto/signalements';
import { projectCreateSchema } from '#shared/schemas/signalements';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { TextareaField, TextField } from '#web/components/ui/form-field';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { TOASTS } from '../labels';

type Values = z.input<typeof projectCreateSchema>;

export interface ProjectCreateDialogProps {
  open: boolean;
  onClose: () => void;
  /** The partner that owns the new project (the report's). */
  owner: { code: string; designation: string };
  onCreated: (project: ProjectDto) => void;
}

export function ProjectCreateDialog({ open, onClose, owner, onCreated }: ProjectCreateDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Nouveau projet"
      description={`Projet du partenaire ${owner.designation}.`}
      data-testid="project-dialog"
    >
      {open && <ProjectForm owner={owner.code} onClose={onClose} onCreated={onCreated} />}
    </Dialog>
  );
}

function ProjectForm({
  owner,
  onClose,
  onCreated,
}: {
  owner: string;
  onClose: () => void;
  onCreated: (project: ProjectDto) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useForm<Values, unknown, z.output<typeof projectCreateSchema>>({
    resolver: zodResolver(projectCreateSchema),
    defaultValues: { sigle: '', designation: '', description: '', owner },
  });
  const create = useMutation(
    trpc.projects.create.mutationOptions({
      onSuccess(project) {
        toast.success(TOASTS.projectCreated(project.designation));
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        onCreated(project);
        onClose();
      },
      onError(error) {
        toast.error(TOASTS.projectFailed, { description: serverMessage(error, '') || undefined });
      },
    }),
  );
  const onSubmit = form.handleSubmit((_parsed) => {
    const values = form.getValues();
    create.mutate({ ...values, owner });
  });

  return (
    <Form label="Nouveau projet" onSubmit={onSubmit}>
      <TextField control={form.control} name="sigle" id="project-sigle" label="Sigle" />
      <TextField control={form.control} name="designation" id="project-designation" label="Désignation" />
      <TextareaField
        control={form.control}
        name="description"
        id="project-description"
        label="Description (facultatif)"
        rows={3}
      />
      <DialogFooter pending={create.isPending} submitLabel="Créer le projet" onCancel={onClose} />
    </Form>
  );
}
