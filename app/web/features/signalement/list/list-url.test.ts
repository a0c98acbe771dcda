import { describe, expect, it } from 'vitest';
import { signalementListSchema } from '#shared/schemas/signalements';
import {
  EMPTY_FILTERS,
  hasActiveFilters,
  listSearchString,
  myCasesPath,
  myOpenCasesPath,
  NOT_ASSIGNED,
  parseListSearch,
  toExportQuery,
  toListInput,
  type ListFilters,
} from './list-url';

const full: ListFilters = {
  page: 3,
  search: 'détournement',
  sort: 'partenaire',
  partenaires: ['IVY', 'P2'],
  subjects: ['CORRUPTION', 'OTHERS'],
  createdBy: ['U1'],
  assignee: 'U2',
  region: 'R1',
  district: 'D1',
  commune: 'C1',
  after: '2024-01-01',
  before: '2024-12-31',
  echeance: 'en_retard',
  etat: 'ouvert',
};

describe('list URL', () => {
  it('keeps the plain list URL bare', () => {
    expect(listSearchString(EMPTY_FILTERS)).toBe('');
    expect(parseListSearch('')).toEqual(EMPTY_FILTERS);
  });

  it('round-trips every filter, the sort and the page', () => {
    const search = listSearchString(full);
    expect(parseListSearch(`?${search}`)).toEqual(full);
  });

  it('ignores junk: bad page, unknown sort, malformed dates, blanks and duplicates', () => {
    const parsed = parseListSearch(
      'page=-2&tri=random&du=01/02/2024&au=2024-13&partenaire=&partenaire=IVY&partenaire=IVY',
    );
    expect(parsed.page).toBe(1);
    expect(parsed.sort).toBe('recent');
    expect(parsed.after).toBeNull();
    expect(parsed.before).toBe(null);
    expect(parsed.partenaires).toEqual(['IVY']);
  });

  it('drops a district without its region and a commune without its district (cascade of §4)', () => {
    expect(parseListSearch('district=D1&commune=C1')).toMatchObject({
      region: null,
      district: null,
      commune: null,
    });
    expect(parseListSearch('region=R1&commune=C1')).toMatchObject({
      region: 'R1',
      district: null,
      commune: null,
    });
    expect(listSearchString({ ...EMPTY_FILTERS, district: 'D1', commune: 'C1' })).toBe('');
  });

  it('tells whether a filter narrows the list, ignoring page and sort', () => {
    expect(hasActiveFilters({ ...EMPTY_FILTERS, page: 4, sort: 'code' })).toBe(false);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, after: '2024-01-01' })).toBe(true);
  });
});

describe('API input', () => {
  it('sends the §7 vocabulary, descending but for the due day, with page size 20', () => {
    expect(toListInput(full)).toEqual({
      page: 3,
      itemsPerPage: 20,
      search: 'détournement',
      order: { 'partenaire.designation': 'desc' },
      'partenaire.code': ['IVY', 'P2'],
      'subjects.code': ['CORRUPTION', 'OTHERS'],
      'createdBy.code': ['U1'],
      'assignees.code': ['U2'],
      'region.code': 'R1',
      'district.code': 'D1',
      'commune.code': 'C1',
      echeance: 'en_retard',
      etat: 'ouvert',
      signalementAt: { after: '2024-01-01', before: '2024-12-31' },
    });
    expect(toListInput(EMPTY_FILTERS)).toEqual({
      page: 1,
      itemsPerPage: 20,
      order: { signalementAt: 'desc' },
    });
  });

  it('is accepted by the shared list schema', () => {
    expect(signalementListSchema.safeParse(toListInput(full)).success).toBe(true);
  });

  it('builds the export query string without pagination, arrays as field[]', () => {
    expect(toExportQuery(full)).toBe(
      'search=d%C3%A9tournement&order[partenaire.designation]=desc&partenaire.code[]=IVY&partenaire.code[]=P2' +
        '&subjects.code[]=CORRUPTION&subjects.code[]=OTHERS&createdBy.code[]=U1&assignees.code[]=U2&region.code=R1&district.code=D1' +
        '&commune.code=C1&echeance=en_retard&etat=ouvert&signalementAt[after]=2024-01-01&signalementAt[before]=2024-12-31',
    );
    expect(toExportQuery({ ...EMPTY_FILTERS, page: 5 })).toBe('order[signalementAt]=desc');
  });

  it('sorts by due day ascending (the nearest first) and keeps only known deadline filters', () => {
    expect(toListInput({ ...EMPTY_FILTERS, sort: 'echeance' }).order).toEqual({ echeance: 'asc' });
    expect(parseListSearch('tri=echeance&echeance=sous_7_jours')).toMatchObject({
      sort: 'echeance',
      echeance: 'sous_7_jours',
    });
    expect(parseListSearch('echeance=bientot').echeance).toBeNull();
    expect(toExportQuery({ ...EMPTY_FILTERS, sort: 'echeance', echeance: 'sous_7_jours' })).toBe(
      'order[echeance]=asc&echeance=sous_7_jours',
    );
  });

  it('sends « Non assigné » as exists[assignees]=false, and « Mes dossiers » is the list on my code', () => {
    const unassigned = { ...EMPTY_FILTERS, assignee: NOT_ASSIGNED };
    expect(toListInput(unassigned)).toMatchObject({ exists: { assignees: false } });
    expect(toListInput(unassigned)).not.toHaveProperty('assignees.code');
    expect(signalementListSchema.parse(toListInput(unassigned)).exists).toEqual({ assignees: false });
    expect(toExportQuery(unassigned)).toBe('order[signalementAt]=desc&exists[assignees]=false');
    expect(parseListSearch(myCasesPath('U 7').split('?')[1]!)).toEqual({ ...EMPTY_FILTERS, assignee: 'U 7' });
  });

  it('filters on the state (« Ouverts », « Traités ou clos »), keeps only known states, and « Mes dossiers ouverts » is my open cases', () => {
    for (const etat of ['ouvert', 'traite'] as const) {
      const filters = { ...EMPTY_FILTERS, assignee: NOT_ASSIGNED, etat };
      expect(listSearchString(filters)).toBe(`assigne=aucun&etat=${etat}`);
      expect(parseListSearch(listSearchString(filters))).toEqual(filters);
      expect(signalementListSchema.parse(toListInput(filters)).etat).toBe(etat);
      expect(toExportQuery(filters)).toBe(`order[signalementAt]=desc&exists[assignees]=false&etat=${etat}`);
    }
    expect(parseListSearch('etat=clos').etat).toBeNull();
    expect(hasActiveFilters({ ...EMPTY_FILTERS, etat: 'traite' })).toBe(true);
    expect(parseListSearch(myOpenCasesPath('U 7').split('?')[1]!)).toEqual({
      ...EMPTY_FILTERS,
      assignee: 'U 7',
      etat: 'ouvert',
    });
  });
});
