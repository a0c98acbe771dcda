import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { PartenaireRefDto } from '#shared/dto/signalements';
import { PlusIcon } from '#web/components/ui/more-icons';
import { MultiSelect } from '#web/components/ui/multi-select';
import { useTRPC } from '#web/lib/trpc';
import type { DetailValues } from './detail-form';
import { ProjectAvatars } from './project-avatars';
import { ProjectCreateDialog } from './project-create-dialog';

/** The report's projects, chosen among its partner's, and the create-project dialog. */
export function ProjectsField({ partenaire }: { partenaire: PartenaireRefDto }) {
  const trpc = useTRPC();
  const { control, getValues, setValue } = useFormContext<DetailValues>();
  const [creating, setCreating] = useState(false);
  const projects = useQuery(trpc.projects.list.queryOptions({ partenaire: partenaire.code }));
  const chosen = useWatch({ control, name: 'projects' });
  const all = projects.data ?? [];
  const chosenProjects = chosen.map(
    (code) => all.find((p) => p.code === code) ?? { code, sigle: code, designation: code },
  );

  return (
    <div className="flex flex-col gap-2" data-testid="projects-field">
      <span className="text-sm font-semibold">Projets</span>
      {projects.isSuccess && all.length === 0 ? (
        <div className="flex flex-col items-start gap-2 rounded-box border border-dashed border-base-300 p-3">
          <p className="text-sm text-base-content/70">Aucun projet trouvé.</p>
          <button type="button" className="btn btn-sm btn-outline" onClick={() => setCreating(true)}>
            <PlusIcon />
            Créer le premier projet
          </button>
        </div>
      ) : (
        <>
          <ProjectAvatars projects={chosenProjects} />
          <div className="flex items-center gap-2">
            <Controller
              control={control}
              name="projects"
              render={({ field }) => (
                <MultiSelect
                  label="Projets du signalement"
                  placeholder="Sélectionner des projets"
                  options={all.map((p) => ({ value: p.code, label: p.designation, hint: p.sigle }))}
                  loading={projects.isPending}
                  emptyText="Aucun projet trouvé."
                  value={field.value}
                  onChange={field.onChange}
                  className="min-w-0 flex-1"
                  data-testid="detail-projects"
                />
              )}
            />
            <button
              type="button"
              className="btn btn-square btn-outline"
              aria-label="Nouveau projet"
              title="Nouveau projet"
              onClick={() => setCreating(true)}
            >
              <PlusIcon />
            </button>
          </div>
        </>
      )}
      <ProjectCreateDialog
        open={creating}
        onClose={() => setCreating(false)}
        owner={partenaire}
        // The new project is linked to the report right away (saved with the rest of the form).
        onCreated={(project) =>
          setValue('projects', [...getValues('projects'), project.code], { shouldDirty: true })
        }
      />
    </div>
  );
}
