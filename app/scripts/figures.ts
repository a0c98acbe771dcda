// The README's figures come from the scripts that measure them, never from a hand: each measuring script
// writes what it measured to docs/figures/<name>.json (with the command, the machine and the date) and prints
// the Markdown it renders to; `npm run readme:figures` writes that Markdown between the README's markers
// `<!-- figures:<name> -->` and `<!-- /figures:<name> -->`, and scripts/readme-figures.test.ts fails when a
// marked block differs from what its file renders (docs/decisions/0042-measured-figures.md).
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const FIGURES_DIR = resolve(import.meta.dirname, '../docs/figures');
export const README = resolve(import.meta.dirname, '../../README.md');

export type Cell = string | number | null;

export interface FiguresTable {
  /** A sentence printed above the table (what, unit). */
  caption?: string;
  columns: string[];
  /** Decimals shown for the numbers of each column (3.0 stays 3.0); none given: as many as the number has. */
  decimals?: (number | null)[];
  rows: Cell[][];
}

export interface Figures {
  /** The block's name: `docs/figures/<name>.json`, `<!-- figures:<name> -->`. */
  name: string;
  /** The command that measured them, as a user types it. */
  command: string;
  /** ISO date and time of the run. */
  date: string;
  /** Cores, processor, memory, system and Node of the machine that ran it. */
  machine: string;
  /**
   * Who wrote the file: `measured by <command>` when the script did; `recorded by hand from the run of …`
   * for figures of an earlier run, before the script wrote its own file.
   */
  source: string;
  tables: FiguresTable[];
}

/** The machine a run happened on, in one line, with its load when the run ended (a shared machine varies). */
export function machine(): string {
  const cores = cpus();
  const model = cores[0]?.model.replace(/\s+/g, ' ').trim() ?? 'processeur inconnu';
  return `${cores.length} cores (${model}), ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`;
}

/** The command a script was run with, as the user typed it: `npm run <script> -- <its options>`. */
export function typedCommand(script: string, argv = process.argv.slice(2)): string {
  return `npm run ${script}${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`;
}

/** The fields every script fills the same way: command, date, machine, source. */
export function measured(name: string, command: string, tables: FiguresTable[]): Figures {
  return {
    name,
    command,
    date: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    machine: machine(),
    source: `measured by ${command}`,
    tables,
  };
}

function cell(value: Cell, decimals: number | null = null): string {
  if (value === null) return '';
  if (typeof value === 'number') {
    return decimals === null
      ? value.toLocaleString('en-US', { maximumFractionDigits: 3 })
      : value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  }
  return value.replace(/\|/g, '\\|');
}

/** The Markdown of a figures file: its tables, then one line saying where they come from. */
export function renderFigures(figures: Figures): string {
  const parts: string[] = [];
  for (const table of figures.tables) {
    const lines: string[] = [];
    if (table.caption) lines.push(table.caption, '');
    lines.push(`| ${table.columns.map((column) => cell(column)).join(' | ')} |`);
    lines.push(`| ${table.columns.map(() => '---').join(' | ')} |`);
    for (const row of table.rows) {
      lines.push(`| ${row.map((value, i) => cell(value, table.decimals?.[i] ?? null)).join(' | ')} |`);
    }
    parts.push(lines.join('\n'));
  }
  const run = `${figures.date.slice(0, 10)}, ${figures.machine}`;
  const origin =
    figures.source === `measured by ${figures.command}`
      ? `Measured by \`${figures.command}\` on ${run}`
      : `\`${figures.command}\` on ${run}: ${figures.source}`;
  parts.push(`<sub>${origin} (\`docs/figures/${figures.name}.json\`).</sub>`);
  return parts.join('\n\n');
}

export function figuresPath(name: string, dir = FIGURES_DIR): string {
  return join(dir, `${name}.json`);
}

/** Writes the file and returns the Markdown the README will show, for the script to print. */
export function writeFigures(figures: Figures, dir = FIGURES_DIR): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(figuresPath(figures.name, dir), `${JSON.stringify(figures, null, 2)}\n`);
  return renderFigures(figures);
}

export function readFigures(name: string, dir = FIGURES_DIR): Figures {
  return JSON.parse(readFileSync(figuresPath(name, dir), 'utf8')) as Figures;
}

export function allFigures(dir = FIGURES_DIR): Figures[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => readFigures(file.slice(0, -'.json'.length), dir));
}

const BLOCK = /^([ \t]*)<!-- figures:([\w-]+) -->\n([\s\S]*?)^[ \t]*<!-- \/figures:\2 -->$/gm;

/** The marked blocks of a Markdown text: name → the text between the markers, indentation removed. */
export function readmeBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of markdown.matchAll(BLOCK)) {
    const [, indent, name, body] = match;
    blocks.set(
      name!,
      body!
        .replace(/^\n+|\n+$/g, '')
        .split('\n')
        .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
        .join('\n'),
    );
  }
  return blocks;
}

/** The text with each named block's content replaced by its rendering, at the indentation of its marker. */
export function replaceBlocks(markdown: string, rendered: Map<string, string>): string {
  return markdown.replace(BLOCK, (whole, indent: string, name: string) => {
    const body = rendered.get(name);
    if (body === undefined) return whole;
    const lines = body.split('\n').map((line) => (line === '' ? '' : `${indent}${line}`));
    // Blank lines around the content: the comment lines are HTML blocks of their own, the table a block apart.
    return `${indent}<!-- figures:${name} -->\n\n${lines.join('\n')}\n\n${indent}<!-- /figures:${name} -->`;
  });
}

/** The README as the figures files render it, and what does not pair: a block without file, a file without block. */
export function updatedReadme(markdown: string, figures: Figures[] = allFigures()) {
  const rendered = new Map(figures.map((f) => [f.name, renderFigures(f)]));
  const blocks = readmeBlocks(markdown);
  return {
    text: replaceBlocks(markdown, rendered),
    withoutFile: [...blocks.keys()].filter((name) => !rendered.has(name)),
    withoutBlock: [...rendered.keys()].filter((name) => !blocks.has(name)),
    changed: [...blocks.keys()].filter(
      (name) => rendered.has(name) && blocks.get(name) !== rendered.get(name),
    ),
  };
}
