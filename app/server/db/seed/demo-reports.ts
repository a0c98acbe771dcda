import { OTHERS_CODE, type StatutKind } from '#shared/constants';
import { reportSearchText } from '#server/domains/signalements/search-text';
import { type Schema } from '../client';
import {
  ACTIONS_PROVISOIRES,
  AUTEUR_FUNCTIONS,
  AUTRE_OBJETS,
  AUTRES_CANAUX,
  DESCRIPTION_TEMPLATES,
  FIRST_NAMES,
  FOKONTANY,
  LAST_NAMES,
  PREUVES,
  SERVICES,
  SOURCE_DESCRIPTIONS,
  VICTIM_FUNCTIONS,
} from './demo-data';

// In-memory drafts of demo reports and their children; demo.ts writes them in batches.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const DEMO_SPAN_MS = 730 * DAY;

/** mulberry32: small and fast; the same seed gives the same demo content (codes stay random). */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    const total = items.reduce((sum, item) => sum + weight(item), 0);
    let r = this.next() * total;
    for (const item of items) {
      r -= weight(item);
      if (r < 0) return item;
    }
    return items[items.length - 1]!;
  }
  /** k distinct items, each drawn by weight. */
  sample<T>(items: readonly T[], k: number, weight: (item: T) => number = () => 1): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < k && pool.length > 0) {
      const item = this.weighted(pool, weight);
      out.push(item);
      pool.splice(pool.indexOf(item), 1);
    }
    return out;
  }
}

export interface Ref {
  id: number;
  code: string;
  designation: string;
}

export interface ReportContext {
  now: number;
  users: Array<{ id: number; roleCode: string }>;
  partners: Array<Ref & { projects: Array<{ id: number; designation: string }> }>;
  subjects: Ref[];
  canals: Ref[];
  niveaux: Ref[];
  statuts: Array<Ref & { kind: StatutKind }>;
  resultats: Ref[];
  regions: Array<{
    id: number;
    designation: string;
    communes: Array<{ id: number; designation: string; districtId: number; district: string }>;
  }>;
}

export type SignalementDraftRow = Schema['signalements']['$inferInsert'] & {
  code: string;
  searchText: string;
};

export interface ReportDraft {
  row: SignalementDraftRow;
  subjectIds: number[];
  projectIds: number[];
  auteurs: Array<{ code: string; nomPrenom: string; fonction: string | null; description: string | null }>;
  sources: Array<{
    code: string;
    nomPrenom: string | null;
    contact: string | null;
    description: string | null;
    autreCanal: string | null;
    canalIds: number[];
  }>;
  victimes: Array<{ code: string; nomPrenom: string; fonction: string | null; contact: string | null }>;
}

// Relative frequencies by code; a code added later by an administrator gets weight 1.
// prettier-ignore
const SUBJECT_WEIGHTS: Record<string, number> = {
  CORRUPTION: 30, DETOURNEMENT: 14, ABUS_POUVOIR: 12, FRAUDE: 10, NEGLIGENCE: 8, CONFLIT_INTERETS: 5,
  FAVORITISME: 6, EXTORSION: 7, TRAFIC_INFLUENCE: 4, ENRICHISSEMENT_ILLICITE: 3, [OTHERS_CODE]: 3,
};
// prettier-ignore
const CANAL_WEIGHTS: Record<string, number> = {
  TELEPHONE: 30, EMAIL: 14, EN_PERSONNE: 22, COURRIER: 9, SITE_WEB: 10, SMS: 8, RESEAUX_SOCIAUX: 5, [OTHERS_CODE]: 2,
};
const NIVEAU_WEIGHTS: Record<string, number> = { FAIBLE: 35, MOYEN: 35, ELEVE: 20, CRITIQUE: 10 };
// prettier-ignore
const RESULT_WEIGHTS: Record<string, number> = {
  RESULTAT_AVERE: 30, RESULTAT_NON_AVERE: 20, RESULTAT_PARTIELLEMENT_AVERE: 20, RESULTAT_NON_DETERMINE: 15,
  RESULTAT_FAUX_SIGNALEMENT: 8,
};
// prettier-ignore
const REJECTED_RESULT_WEIGHTS: Record<string, number> = {
  RESULTAT_FAUX_SIGNALEMENT: 3, RESULTAT_NON_AVERE: 3, RESULTAT_NON_DETERMINE: 1,
};
const AMOUNTS = [5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_500_000].map((n) =>
  n.toLocaleString('fr-FR'),
);
const OPERATOR_PREFIXES = ['32', '33', '34', '38'];

const by = (weights: Record<string, number>) => (item: { code: string }) => weights[item.code] ?? 1;

export class ReportFactory {
  private readonly byKind: Record<StatutKind, Array<Ref & { kind: StatutKind }>>;
  private readonly resultats: Map<string, Ref>;

  constructor(
    private readonly ctx: ReportContext,
    private readonly rng: Random,
    private readonly newCode: (prefix: string) => string,
  ) {
    this.byKind = {
      open: ctx.statuts.filter((s) => s.kind === 'open'),
      treated: ctx.statuts.filter((s) => s.kind === 'treated'),
      closed: ctx.statuts.filter((s) => s.kind === 'closed'),
    };
    this.resultats = new Map(ctx.resultats.map((r) => [r.code, r]));
  }

  private person(): string {
    return `${this.rng.pick(LAST_NAMES).toUpperCase()} ${this.rng.pick(FIRST_NAMES)}`;
  }

  private phone(): string {
    return `+261${this.rng.pick(OPERATOR_PREFIXES)}${String(this.rng.int(0, 9_999_999)).padStart(7, '0')}`;
  }

  /** A report date in the last two years, rarer at the weekend. */
  signalementAt(): number {
    const { rng, ctx } = this;
    for (;;) {
      const at = ctx.now - Math.floor(rng.next() * DEMO_SPAN_MS);
      const day = new Date(at).getUTCDay();
      // Offices receive fewer reports at the weekend.
      if ((day !== 0 && day !== 6) || rng.chance(0.35)) return at;
    }
  }

  private statut(age: number): (Ref & { kind: StatutKind }) | null {
    const { rng } = this;
    if (rng.chance(0.06)) return null;
    const ageFrac = age / DEMO_SPAN_MS;
    let kind: StatutKind = 'open';
    // Older reports have had time to be handled; nothing younger than two days is finished.
    if (age > 2 * DAY) {
      const r = rng.next();
      const closed = 0.08 + 0.55 * ageFrac;
      if (r < closed) kind = 'closed';
      else if (r < closed + 0.08 + 0.12 * ageFrac) kind = 'treated';
    }
    const choices = this.byKind[kind];
    if (choices.length === 0) return null;
    const recent = age < 30 * DAY;
    return rng.weighted(choices, (s) =>
      s.code === 'NOUVEAU' ? (recent ? 5 : 1) : s.code === 'REJETE' ? 1 : s.code === 'CLOTURE' ? 4 : 3,
    );
  }

  private resultat(statut: (Ref & { kind: StatutKind }) | null): Ref | null {
    const { rng } = this;
    const all = [...this.resultats.values()];
    if (all.length === 0) return null;
    if (!statut || statut.kind === 'open') {
      return rng.chance(0.1) ? (this.resultats.get('RESULTAT_NON_DETERMINE') ?? null) : null;
    }
    if (statut.code === 'REJETE') return rng.weighted(all, by(REJECTED_RESULT_WEIGHTS));
    return rng.chance(0.92) ? rng.weighted(all, by(RESULT_WEIGHTS)) : null;
  }

  private location(index: number) {
    const { rng, ctx } = this;
    // The first reports visit every region once so that even a small demo covers the whole map.
    const forced = index < ctx.regions.length;
    const region = forced ? ctx.regions[index]! : rng.weighted(ctx.regions, (r) => r.communes.length);
    const r = rng.next();
    if (!forced && r < 0.08) return null;
    const commune = rng.pick(region.communes);
    const level = r < 0.15 ? 'region' : r < 0.27 ? 'district' : 'commune';
    return {
      region,
      district: level === 'region' ? null : { id: commune.districtId, designation: commune.district },
      commune: level === 'commune' ? commune : null,
      fokontany: level === 'commune' && rng.chance(0.7) ? rng.pick(FOKONTANY) : null,
    };
  }

  private description(place: string, project: string | undefined): string {
    const { rng } = this;
    return rng
      .pick(DESCRIPTION_TEMPLATES)
      .replace('{service}', rng.pick(SERVICES))
      .replace('{montant}', rng.pick(AMOUNTS))
      .replace('{lieu}', place)
      .replace('{projet}', project ?? 'Programme d’appui social');
  }

  /** The report number `index` of the run, dated `at` (from signalementAt()). */
  make(index: number, at: number): ReportDraft {
    const { rng, ctx } = this;
    const age = ctx.now - at;
    const statut = this.statut(age);
    const isClosed = statut?.kind === 'closed';
    const closeAt = isClosed ? at + Math.max(HOUR, Math.floor(rng.next() * Math.min(age, 240 * DAY))) : null;
    const lastActionAt =
      statut && statut.code !== 'NOUVEAU' ? at + Math.floor(rng.next() * ((closeAt ?? ctx.now) - at)) : null;

    const partner = rng.weighted(ctx.partners, (p) => (p.code === 'IVY' ? 2 : 3));
    const subjects = rng.sample(
      ctx.subjects,
      rng.weighted([1, 2, 3], (n) => [0, 6, 3, 1][n]!),
      by(SUBJECT_WEIGHTS),
    );
    const hasOthers = subjects.some((s) => s.code === OTHERS_CODE);
    const canal = rng.chance(0.05) ? null : rng.weighted(ctx.canals, by(CANAL_WEIGHTS));
    const projects = rng.chance(0.6) ? rng.sample(partner.projects, rng.int(1, 2)) : [];
    const where = this.location(index);
    const place = where?.commune?.designation ?? where?.district?.designation ?? where?.region.designation;
    const description = rng.chance(0.05)
      ? null
      : this.description(place ?? 'la commune', projects[0]?.designation);
    const isAnonyme = rng.chance(0.25);

    const auteurs = Array.from({ length: rng.weighted([0, 1, 2, 3], (n) => [3, 5, 2, 1][n]!) }, () => ({
      code: this.newCode('AUT'),
      nomPrenom: this.person(),
      fonction: rng.chance(0.85) ? rng.pick(AUTEUR_FUNCTIONS) : null,
      description: rng.chance(0.4) ? 'Mis en cause par plusieurs témoins.' : null,
    }));
    const sources = Array.from({ length: isAnonyme ? rng.int(0, 1) : rng.int(0, 2) }, () => {
      const canaux = rng.sample(ctx.canals, rng.int(1, 2), by(CANAL_WEIGHTS));
      return {
        code: this.newCode('SRC'),
        nomPrenom: isAnonyme ? null : this.person(),
        contact: isAnonyme ? null : this.phone(),
        description: isAnonyme ? 'Source anonyme' : rng.pick(SOURCE_DESCRIPTIONS),
        autreCanal: canaux.some((c) => c.code === OTHERS_CODE) ? rng.pick(AUTRES_CANAUX) : null,
        canalIds: canaux.map((c) => c.id),
      };
    });
    const victimes = Array.from({ length: rng.weighted([0, 1, 2], (n) => [4, 4, 1][n]!) }, () => ({
      code: this.newCode('VIC'),
      nomPrenom: this.person(),
      fonction: rng.chance(0.8) ? rng.pick(VICTIM_FUNCTIONS) : null,
      contact: rng.chance(0.6) ? this.phone() : null,
    }));

    const code = this.newCode('SIG');
    const autreObject = hasOthers ? rng.pick(AUTRE_OBJETS) : null;
    const niveau = rng.chance(0.1) ? null : rng.weighted(ctx.niveaux, by(NIVEAU_WEIGHTS));
    const resultat = this.resultat(statut);
    const row: SignalementDraftRow = {
      code,
      signalementAt: new Date(at),
      createdAt: new Date(Math.min(ctx.now, at + Math.floor(rng.next() * 48 * HOUR))),
      closeAt: closeAt === null ? null : new Date(closeAt),
      lastActionAt: lastActionAt === null ? null : new Date(lastActionAt),
      createdById: rng.weighted(ctx.users, (u) => (u.roleCode === 'ROLE_ADMIN' ? 1 : 3)).id,
      partenaireId: partner.id,
      canalPrincipalId: canal?.id ?? null,
      autreCanalPrincipal: canal?.code === OTHERS_CODE ? rng.pick(AUTRES_CANAUX) : null,
      autreObject,
      regionId: where?.region.id ?? null,
      districtId: where?.district?.id ?? null,
      communeId: where?.commune?.id ?? null,
      fokontany: where?.fokontany ?? null,
      isTreated: statut !== null && statut.kind !== 'open',
      isInternalResponsability: rng.chance(partner.code === 'IVY' ? 0.3 : 0.05),
      isConfict: rng.chance(0.1),
      isRecurrent: rng.chance(0.2),
      isAnonyme,
      niveauId: niveau?.id ?? null,
      statutId: statut?.id ?? null,
      resultatId: resultat?.id ?? null,
      description,
      actionProvisoires: rng.sample(ACTIONS_PROVISOIRES, rng.int(0, 3)),
      preuves: rng.sample(PREUVES, rng.int(0, 3)),
      // Sources' names are encrypted, never searchable text (reportSearchText).
      searchText: reportSearchText(
        {
          code,
          description,
          partenaire: partner,
          subjects,
          autreObject,
          places: [where?.region, where?.district, where?.commune],
          fokontany: where?.fokontany ?? null,
        },
        [...auteurs.map((a) => a.nomPrenom), ...victimes.map((v) => v.nomPrenom)],
      ),
    };
    return {
      row,
      subjectIds: subjects.map((s) => s.id),
      projectIds: projects.map((p) => p.id),
      auteurs,
      sources,
      victimes,
    };
  }
}
