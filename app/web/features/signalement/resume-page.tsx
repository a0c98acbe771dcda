import { useQuery } from '@tanstack/react-query';
import { useParams } from 'wouter';
import type { SignalementResumeDto } from '#shared/dto/signalements';
import { Badge } from '#web/components/ui/badge';
import { AlertCircleIcon } from '#web/components/icons';
import { Loading } from '#web/components/ui/loading';
import { adoptBusinessTimeZone } from '#web/lib/business-time-zone';
import { formatDate } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { usePageTitle } from '#web/lib/use-page-title';
import {
  LocationResume,
  ProjectsResume,
  SubjectsResume,
  TextListResume,
  TraitsResume,
} from './resume/resume-cards';

/** The public summary of one report (§2): no session, no shell, only the summary fields. */
export default function ResumePage() {
  usePageTitle('Résumé du signalement');
  const { code = '' } = useParams<{ code: string }>();
  const trpc = useTRPC();
  const resume = useQuery(trpc.signalements.resume.queryOptions({ code }));

  return (
    <main className="min-h-screen bg-base-200 px-4 py-6 md:py-10">
      <div className="mx-auto flex max-w-3xl flex-col gap-4">
        {resume.isPending ? (
          <Loading label="Chargement du résumé..." />
        ) : resume.isError ? (
          <section className="card border border-error/30 bg-base-100" data-testid="resume-error">
            <div className="card-body items-center gap-2 text-center">
              <AlertCircleIcon size={28} className="text-error" />
              <h1 className="card-title text-error">Erreur</h1>
              <p className="text-base-content/70">Impossible de charger les détails du signalement</p>
            </div>
          </section>
        ) : (
          <Resume r={resume.data} />
        )}
      </div>
    </main>
  );
}

function Resume({ r }: { r: SignalementResumeDto }) {
  const EMPTY = 'Non renseigné';
  adoptBusinessTimeZone(r.timeZone);
  return (
    <>
      <section className="card border border-base-300 bg-base-100" data-testid="resume-header">
        <div className="card-body gap-3 p-4 md:p-6">
          <h1 className="text-2xl font-bold">Résumé du signalement</h1>
          <p className="font-mono text-lg font-semibold break-all" data-testid="resume-code">
            {r.code}
          </p>
          <p className="text-sm text-base-content/70">Signalé le {formatDate(r.signalementAt)}</p>
          <div className="flex flex-wrap gap-2" data-testid="resume-badges">
            <Badge tone="gray">
              <span className="font-normal">Canal :</span> {r.canalPrincipal?.designation ?? EMPTY}
            </Badge>
            <Badge tone="gray">
              <span className="font-normal">Statut :</span> {r.statut?.designation ?? EMPTY}
            </Badge>
            <Badge color={r.niveau?.color} tone="gray">
              <span className="font-normal">Niveau :</span> {r.niveau?.designation ?? EMPTY}
            </Badge>
            <Badge tone={r.isTreated ? 'green' : 'amber'}>
              <span className="font-normal">État :</span> {r.isTreated ? 'Traité' : 'En cours'}
            </Badge>
          </div>
        </div>
      </section>
      <SubjectsResume r={r} />
      <ProjectsResume r={r} />
      <LocationResume r={r} />
      <TraitsResume r={r} />
      <TextListResume title="Actions provisoires" items={r.actionProvisoires} testId="resume-actions" />
      <TextListResume title="Preuves" items={r.preuves} testId="resume-preuves" />
      <p className="text-center text-xs text-base-content/70" data-testid="resume-footer">
        Résumé généré le {formatDate(new Date())}
      </p>
    </>
  );
}
