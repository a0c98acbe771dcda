import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { ProjectDto } from '../../../../shared/dto/signalements';
import { projectCreateSchema } from '../../../../shared/schemas/signalements';
import { Dialog } from '../../../components/ui/dialog';
import { errorProps, Field } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessage } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
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
  const { errors } = form.formState;
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
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Nouveau projet">
      <Field htmlFor="project-sigle" label="Sigle" error={errors.sigle?.message}>
        <input
          id="project-sigle"
          className={`input w-full ${errors.sigle ? 'input-error' : ''}`}
          {...errorProps('project-sigle', errors.sigle?.message)}
          {...form.register('sigle')}
        />
      </Field>
      <Field htmlFor="project-designation" label="Désignation" error={errors.designation?.message}>
        <input
          id="project-designation"
          className={`input w-full ${errors.designation ? 'input-error' : ''}`}
          {...errorProps('project-designation', errors.designation?.message)}
          {...form.register('designation')}
        />
      </Field>
      <Field
        htmlFor="project-description"
        label="Description (facultatif)"
        error={errors.description?.message}
      >
        <textarea
          id="project-description"
          rows={3}
          className="textarea w-full"
          {...form.register('description')}
        />
      </Field>
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose} disabled={create.isPending}>
          Annuler
        </button>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Créer le projet
        </button>
      </div>
    </form>
  );
}
