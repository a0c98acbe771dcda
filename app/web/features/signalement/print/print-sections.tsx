import type { ReactNode } from 'react';
import { OTHERS_CODE } from '#shared/constants';
import type { SignalementDto, SourceDto } from '#shared/dto/signalements';
import { Badge } from '#web/components/ui/badge';
import { businessToday, formatDate, formatDateTime } from '#web/lib/format';
import type { RouterOutputs } from '#web/lib/trpc';
import { EVIDENCE_TEXT } from '../detail/evidence-card';
import { formatBytes, kindOf } from '../detail/evidence-format';
import { MASKED_TEXT } from '../detail/historique-panel';
import { actionLabel, historyLines } from '../detail/historique-format';
import { NOTES_TEXT } from '../detail/notes-card';
import { echeanceSentence, echeanceState, formatDay } from '../echeance';
import { BADGE_EMPTY, EMPTY_VALUE, IN_PROGRESS, NOT_ASSIGNED_LABEL, NOT_CLOSED, TREATED } from '../labels';
import { protectedSourcesText } from '../people/sources-section';
import { PRINT_TEXT } from './print-text';

/** The print's data as the client receives it (shared/dto/print.ts, serialised). */
export type PrintData = RouterOutputs['signalements']['impression'];

// The print view's parts: every value as text, no control (docs/decisions/0043-print-view.md). A part is
// kept on one page when it fits (break-inside-avoid), and its title never ends a page.

function Part({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="break-inside-avoid-page" data-testid={testId}>
      <h2 className="mb-1.5 border-b border-base-300 pb-0.5 text-sm font-bold tracking-wide uppercase break-after-avoid">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Values({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm">{children}</dl>;
}

function Value({ label, value, wide }: { label: string; value: ReactNode; wide?: boolean }) {
  const empty = value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
  return (
    <div className={`flex gap-1.5 ${wide ? 'col-span-2' : ''}`}>
      <dt className="shrink-0 font-semibold">{label} :</dt>
      <dd className="min-w-0 break-words whitespace-pre-line">{empty ? EMPTY_VALUE : value}</dd>
    </div>
  );
}

const yesNo = (value: boolean) => (value ? 'Oui' : 'Non');
const list = (values: string[]) => (values.length ? values.join(' ; ') : null);
const Empty = ({ children }: { children: ReactNode }) => <p className="text-sm">{children}</p>;

/** Code, partner and the detail's five badges, then who printed it and when. */
export function PrintHeader({ data }: { data: PrintData }) {
  const s = data.signalement;
  const badges: Array<[string, string | undefined, string | null | undefined]> = [
    ['Canal principal', s.canalPrincipal?.designation, null],
    ['Statut', s.statut?.designation, null],
    ['Niveau', s.niveau?.designation, s.niveau?.color],
    ['Résultat', s.resultat?.designation, null],
    ['État', s.isTreated ? TREATED : IN_PROGRESS, null],
  ];
  return (
    <header className="flex flex-col gap-2 border-b-2 border-base-content pb-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="font-mono text-2xl font-bold" data-testid="print-code">
          {s.code}
        </h1>
        <Badge color={s.partenaire.color} data-testid="print-partner">
          {s.partenaire.designation}
        </Badge>
      </div>
      <div className="flex flex-wrap gap-1.5" data-testid="print-badges">
        {badges.map(([label, value, color]) => (
          <Badge key={label} color={value ? color : undefined} size="sm">
            <span className="font-normal">{label} :</span> {value ?? BADGE_EMPTY}
          </Badge>
        ))}
        {s.isAnonyme && (
          <Badge tone="amber" size="sm">
            {PRINT_TEXT.anonymous}
          </Badge>
        )}
      </div>
      <p className="text-xs" data-testid="printed-by">
        {PRINT_TEXT.printedBy(formatDateTime(data.imprimeLe), data.imprimePar.nomPrenom)}
      </p>
    </header>
  );
}

function subjectsText(s: SignalementDto): string | null {
  const names = s.subjects.map((x) =>
    x.code === OTHERS_CODE && s.autreObject?.trim() ? `Autre : ${s.autreObject}` : x.designation,
  );
  return list(names);
}

const canalText = (s: SignalementDto) =>
  s.canalPrincipal?.code === OTHERS_CODE && s.autreCanalPrincipal
    ? `${s.canalPrincipal.designation} — ${s.autreCanalPrincipal}`
    : s.canalPrincipal?.designation;

const sourceChannels = (s: SourceDto) =>
  s.canaux
    .map((c) =>
      c.code === OTHERS_CODE && s.autreCanal ? `${c.designation} : ${s.autreCanal}` : c.designation,
    )
    .join(', ');

function echeanceText(echeance: string | null): string {
  const sentence = echeanceSentence(echeanceState(echeance, businessToday()));
  return echeance ? `${formatDay(echeance)} (${sentence})` : sentence;
}

/** The report's own fields, in the detail's cards' order and words. */
export function ReportParts({ s }: { s: SignalementDto }) {
  return (
    <>
      <Part title="Objet(s) du signalement" testId="print-subjects">
        <Values>
          <Value label="Objet(s)" value={subjectsText(s)} wide />
        </Values>
      </Part>
      <Part title="Informations Générales" testId="print-general">
        <Values>
          <Value label="Description" value={s.description} wide />
          <Value label="Conflit" value={yesNo(s.isConfict)} />
          <Value label="Récurrent" value={yesNo(s.isRecurrent)} />
          <Value label="Responsabilité interne" value={yesNo(s.isInternalResponsability)} />
          <Value label="Anonyme" value={yesNo(s.isAnonyme)} />
          <Value label="Actions provisoires" value={list(s.actionProvisoires)} wide />
          <Value label="Preuves" value={list(s.preuves)} wide />
        </Values>
      </Part>
      <Part title="Localisation" testId="print-location">
        <Values>
          <Value label="Région" value={s.region?.designation} />
          <Value label="District" value={s.district?.designation} />
          <Value label="Commune" value={s.commune?.designation} />
          <Value label="Fokontany" value={s.fokontany} />
        </Values>
      </Part>
      <Part title="Classification" testId="print-classification">
        <Values>
          <Value label="Niveau" value={s.niveau?.designation} />
          <Value label="Statut" value={s.statut?.designation} />
          <Value label="Résultat" value={s.resultat?.designation} />
          <Value label="Canal principal" value={canalText(s)} />
          <Value label="Projets" value={list(s.projects.map((p) => `${p.designation}`))} wide />
        </Values>
      </Part>
      <Part title="Métadonnées" testId="print-metadata">
        <Values>
          <Value label="Partenaire" value={s.partenaire.designation} />
          <Value label="Date de signalement" value={formatDate(s.signalementAt)} />
          <Value label="Créé le" value={formatDateTime(s.createdAt)} />
          <Value label="Créé par" value={s.createdBy.nomPrenom} />
          <Value
            label="Assigné à"
            value={s.assignees.map((a) => a.nomPrenom).join(', ') || NOT_ASSIGNED_LABEL}
          />
          <Value label="Échéance" value={echeanceText(s.echeance)} />
          <Value label="Dernière action" value={formatDateTime(s.lastActionAt)} />
          <Value label="Date de clôture" value={formatDate(s.closeAt, NOT_CLOSED)} />
          <Value label="Traité" value={yesNo(s.isTreated)} />
        </Values>
      </Part>
    </>
  );
}

function People({
  rows,
  empty,
}: {
  rows: Array<{ key: string; name: string; details: string[] }>;
  empty: string;
}) {
  if (rows.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {rows.map((r) => (
        <li key={r.key}>
          <span className="font-semibold">{r.name}</span>
          {r.details.length > 0 && <span> — {r.details.join(' — ')}</span>}
        </li>
      ))}
    </ul>
  );
}

const present = (values: Array<string | null>) => values.filter((v): v is string => !!v && v.trim() !== '');

/** Authors, sources and victims as the server gave them to this reader (sources withheld: their number). */
export function PeopleParts({ data }: { data: PrintData }) {
  const { sources } = data.sources;
  return (
    <>
      <Part title="Auteurs Présumés" testId="print-auteurs">
        <People
          empty={PRINT_TEXT.noneAuteur}
          rows={data.auteurs.map((a) => ({
            key: a.code,
            name: a.nomPrenom,
            details: present([a.fonction, a.description]),
          }))}
        />
      </Part>
      <Part title="Sources" testId="print-sources">
        {data.sources.sourcesProtegees > 0 ? (
          <Empty>{protectedSourcesText(data.sources.sourcesProtegees)}</Empty>
        ) : (
          <People
            empty={PRINT_TEXT.noneSource}
            rows={sources.map((s) => ({
              key: s.code,
              name: s.nomPrenom || 'Source sans nom',
              details: present([s.contact, sourceChannels(s), s.description]),
            }))}
          />
        )}
      </Part>
      <Part title="Victimes" testId="print-victimes">
        <People
          empty={PRINT_TEXT.noneVictime}
          rows={data.victimes.map((v) => ({
            key: v.code,
            name: v.nomPrenom,
            details: present([v.fonction, v.contact]),
          }))}
        />
      </Part>
    </>
  );
}

/** Internal notes, when the print was asked with them, withheld as on the detail. */
export function NotesPart({ notes: { notes, masquees } }: { notes: NonNullable<PrintData['notes']> }) {
  return (
    <Part title={NOTES_TEXT.title} testId="print-notes">
      {masquees > 0 && <Empty>{NOTES_TEXT.masked(masquees)}</Empty>}
      {notes.length === 0 && masquees === 0 && <Empty>{PRINT_TEXT.noneNote}</Empty>}
      <ul className="flex flex-col gap-1.5 text-sm">
        {notes.map((n) => (
          <li key={n.code}>
            <p className="text-xs font-semibold">
              {n.auteur.nomPrenom} · {formatDateTime(n.createdAt)}
              {n.updatedAt ? ` (${NOTES_TEXT.edited})` : ''}
            </p>
            <p className="break-words whitespace-pre-line">{n.texte}</p>
          </li>
        ))}
      </ul>
    </Part>
  );
}

/** The names of the evidence files, withheld as on the detail. */
export function FilesPart({ data }: { data: PrintData }) {
  const files = data.piecesJointes;
  return (
    <Part title={EVIDENCE_TEXT.title} testId="print-files">
      {files.masquees > 0 && <Empty>{EVIDENCE_TEXT.masked(files.masquees)}</Empty>}
      {files.piecesJointes.length === 0 && files.masquees === 0 && <Empty>{PRINT_TEXT.noneFile}</Empty>}
      <ul className="flex flex-col gap-0.5 text-sm">
        {files.piecesJointes.map((f) => (
          <li key={f.code} className="break-words">
            <span className="font-semibold">{f.nom}</span> — {kindOf(f.type)}, {formatBytes(f.taille)},{' '}
            {f.auteur.nomPrenom}, {formatDateTime(f.createdAt)}
          </li>
        ))}
      </ul>
    </Part>
  );
}

/** The history, newest first, when the print was asked with it. */
export function HistoryPart({ entries }: { entries: NonNullable<PrintData['historique']> }) {
  return (
    <section data-testid="print-history">
      <h2 className="mb-1.5 border-b border-base-300 pb-0.5 text-sm font-bold tracking-wide uppercase break-after-avoid">
        Historique
      </h2>
      {entries.length === 0 ? (
        <Empty>{PRINT_TEXT.noneHistory}</Empty>
      ) : (
        <ol className="flex flex-col gap-1.5 text-xs">
          {entries.map((entry) => (
            <li key={entry.id} className="break-inside-avoid">
              <p>
                <span className="font-semibold">{actionLabel(entry.action)}</span> —{' '}
                {formatDateTime(entry.at)}
                {entry.user ? ` · ${entry.user.nomPrenom}` : ''}
              </p>
              {entry.masque ? (
                <p>{MASKED_TEXT}</p>
              ) : (
                historyLines(entry.action, entry.changes).map((line) => (
                  <p key={line.field} className="break-words">
                    {line.label} : {line.from} → {line.to}
                  </p>
                ))
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
