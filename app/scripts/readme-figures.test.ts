// The README's figures are what docs/figures/ renders: a marked block edited by hand, a block without its
// file, or a file changed without `npm run readme:figures`, fails here (docs/decisions/0042-measured-figures.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  allFigures,
  readmeBlocks,
  README,
  renderFigures,
  replaceBlocks,
  updatedReadme,
  type Figures,
} from './figures';

const readme = readFileSync(README, 'utf8');

const sample: Figures = {
  name: 'sample',
  command: 'npm run bench:sample',
  date: '2026-11-26T12:00:00Z',
  machine: '2 cores (test), 4 GiB, Linux, Node v24.0.0, load average 0.5',
  source: 'measured by npm run bench:sample',
  tables: [
    {
      caption: 'A caption.',
      columns: ['case', 'ms', 'total'],
      decimals: [null, 1, null],
      rows: [
        ['first | page', 3, 1009167],
        ['search', 26.04, null],
      ],
    },
  ],
};

describe('README figures', () => {
  it('has a file for every marked block, and every block is what its file renders', () => {
    const blocks = readmeBlocks(readme);
    expect(blocks.size).toBeGreaterThanOrEqual(6);
    const figures = allFigures();
    for (const name of blocks.keys()) expect(figures.map((f) => f.name)).toContain(name);
    for (const f of figures.filter((f) => blocks.has(f.name))) {
      expect(blocks.get(f.name), `bloc « ${f.name} » : lancez « npm run readme:figures »`).toBe(
        renderFigures(f),
      );
    }
    expect(updatedReadme(readme, figures).text).toBe(readme);
  });

  it('gives every file its command, date, machine and source', () => {
    for (const f of allFigures()) {
      expect(f.command).toMatch(/^npm run /);
      expect(Number.isNaN(Date.parse(f.date))).toBe(false);
      expect(f.machine).toMatch(/cores/);
      expect(f.source).toMatch(/^(measured by npm run |recorded by hand from )/);
      expect(f.tables.length).toBeGreaterThan(0);
      for (const table of f.tables) {
        for (const row of table.rows) expect(row).toHaveLength(table.columns.length);
      }
    }
  });

  it('fails on a figure typed into a block by hand, and the rewrite restores it', () => {
    const [name, body] = [...readmeBlocks(readme)][0]!;
    const edited = readme.replace(
      body.split('\n').find((line) => /\d/.test(line))!,
      '| typed | 1.8 s |',
    );
    expect(edited).not.toBe(readme);
    const result = updatedReadme(edited);
    expect(result.changed).toEqual([name]);
    expect(result.text).toBe(readme);
  });

  it('renders a table with its decimals, escaped pipes, empty cells and the line naming its origin', () => {
    expect(renderFigures(sample)).toBe(
      [
        'A caption.',
        '',
        '| case | ms | total |',
        '| --- | --- | --- |',
        '| first \\| page | 3.0 | 1,009,167 |',
        '| search | 26.0 |  |',
        '',
        '<sub>Measured by `npm run bench:sample` on 2026-11-26, 2 cores (test), 4 GiB, Linux, Node v24.0.0, load average 0.5 (`docs/figures/sample.json`).</sub>',
      ].join('\n'),
    );
    expect(renderFigures({ ...sample, source: 'recorded by hand from the run of abc123' })).toContain(
      '`npm run bench:sample` on 2026-11-26, 2 cores (test), 4 GiB, Linux, Node v24.0.0, load average 0.5: recorded by hand from the run of abc123',
    );
  });

  it('writes a block at the indentation of its marker, inside a list item, and reads it back', () => {
    const markdown = '- item:\n\n  <!-- figures:sample -->\n  old\n  <!-- /figures:sample -->\n\nafter\n';
    const written = replaceBlocks(markdown, new Map([['sample', renderFigures(sample)]]));
    expect(written).toContain('\n  | first \\| page | 3.0 | 1,009,167 |\n');
    expect(written.endsWith('  <!-- /figures:sample -->\n\nafter\n')).toBe(true);
    expect(readmeBlocks(written).get('sample')).toBe(renderFigures(sample));
    expect(updatedReadme(markdown, [sample]).changed).toEqual(['sample']);
    expect(updatedReadme(markdown, []).withoutFile).toEqual(['sample']);
  });
});
