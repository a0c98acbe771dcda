import type { ReactNode } from 'react';
import { OTHERS_CODE } from '#shared/constants';
import type { SignalementResumeDto } from '#shared/dto/signalements';
import { Badge } from '#web/components/ui/badge';

export function ResumeCard({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="card border border-base-300 bg-base-100" data-testid={testId}>
      <div className="card-body gap-3 p-4 md:p-5">
        <h2 className="card-title text-base">{title}</h2>
        {children}
      </div>
    </section>
  );
}

export function SubjectsResume({ r }: { r: SignalementResumeDto }) {
  const other = r.subjects.some((s) => s.code === OTHERS_CODE) && r.autreObject;
  return (
    <ResumeCard title="Objet du signalement" testId="resume-subjects">
      <div className="flex flex-wrap gap-2">
        {r.subjects.map((s) => (
          <Badge key={s.code} tone="blue">
            {s.designation}
          </Badge>
        ))}
      </div>
      {other && <p className="text-sm">Précision : {r.autreObject}</p>}
    </ResumeCard>
  );
}

export function ProjectsResume({ r }: { r: SignalementResumeDto }) {
  return (
    <ResumeCard title="Projet(s) concerné(s)" testId="resume-projects">
      {r.projects.length === 0 ? (
        <p className="text-sm text-base-content/70">Aucun projet spécifié</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {r.projects.map((p) => (
            <li key={`${p.sigle}-${p.designation}`}>
              <span className="font-medium">{p.designation}</span>{' '}
              <span className="text-base-content/70">({p.sigle})</span>
            </li>
          ))}
        </ul>
      )}
    </ResumeCard>
  );
}

export function LocationResume({ r }: { r: SignalementResumeDto }) {
  const rows = [
    ['Région', r.region],
    ['District', r.district],
    ['Commune', r.commune],
    ['Fokontany', r.fokontany],
  ].filter((row): row is [string, string] => !!row[1]);
  return (
    <ResumeCard title="Localisation" testId="resume-location">
      {rows.length === 0 ? (
        <p className="text-sm text-base-content/70">Non renseigné</p>
      ) : (
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs font-medium text-base-content/70 uppercase">{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </ResumeCard>
  );
}

export function TraitsResume({ r }: { r: SignalementResumeDto }) {
  const traits: Array<[boolean, string, string]> = [
    [r.isAnonyme, 'Anonyme', 'Non anonyme'],
    [r.isConfict, 'Conflit', 'Pas de conflit'],
    [r.isRecurrent, 'Récurrent', 'Ponctuel'],
    [r.isTreated, 'Traité', 'En cours'],
  ];
  return (
    <ResumeCard title="Caractéristiques" testId="resume-traits">
      <div className="flex flex-wrap gap-2">
        {traits.map(([on, yes, no]) => (
          <Badge key={yes} tone={on ? 'green' : 'gray'}>
            {on ? yes : no}
          </Badge>
        ))}
      </div>
    </ResumeCard>
  );
}

export function TextListResume({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <ResumeCard title={title} testId={testId}>
      <ul className="list-disc space-y-1 pl-5 text-sm">
        {items.map((item, i) => (
          <li key={`${i}-${item}`}>{item}</li>
        ))}
      </ul>
    </ResumeCard>
  );
}
