import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import { parseResultsCsv, type ResultRow } from '../../../src/lib/results/results-csv';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAPERS_DIR = process.env.MEMLENS_PAPERS_DIR ?? join(ROOT, '../shared/papers');

function load(paper: string): ResultRow[] {
  const csv = `data/results/${paper}.csv`;
  return parseResultsCsv(readFileSync(join(ROOT, csv), 'utf8'), csv);
}

/** The site loads every CSV in data/results; each must parse and carry its provenance. */
describe.each(PAPERS.map((paper) => ({ paper })))('data/results/$paper.csv', ({ paper }) => {
  const rows = load(paper);

  it('parses, and every row belongs to the paper and says where it is printed', () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const where = `${r.table} / ${r.row} / ${r.column}`;
      expect(r.paper, where).toBe(paper);
      for (const field of [r.table, r.row, r.column, r.unit, r.section, r.metric]) {
        expect(field.trim(), where).not.toBe('');
      }
      expect(Number.isInteger(r.sourceLine) && r.sourceLine > 0, where).toBe(true);
    }
  });
});

describe('data/results holds exactly the four papers', () => {
  it('has one CSV per paper and nothing else', () => {
    const files = readdirSync(join(ROOT, 'data/results')).filter((f) => f.endsWith('.csv'));
    expect(files.sort()).toEqual(PAPERS.map((p) => `${p}.csv`).sort());
  });
});

/** Hand-read cells for the UtilMem summary blocks the per-paper tests check least. */
describe('UtilMem summary spot checks', () => {
  const rows = load('utilmem');
  const text = existsSync(join(PAPERS_DIR, 'utilmem-summary.txt'))
    ? readFileSync(join(PAPERS_DIR, 'utilmem-summary.txt'), 'utf8').split('\n')
    : null;
  const cell = (table: string, row: string, column: string) => {
    const hits = rows.filter((r) => r.table === table && r.row === row && r.column === column);
    expect(hits, `${table} / ${row} / ${column}`).toHaveLength(1);
    return hits[0];
  };
  const cases: [string, string, string, string, string][] = [
    [
      'Summary: §4 metrics',
      'Robustness Score (RS)',
      'per-instance score (max)',
      '10',
      'from 1 to 10',
    ],
    ['Summary: §4 metrics', 'Normalized Robustness (NR)', 'scale (max)', '100', '0–100'],
    ['Summary: §4 metrics', 'Oracle reference', 'score', '10', 'pinned at 10'],
    ['Summary: §4 metrics', 'Rubric', 'score retaining core facts', '7', 'Scores of 7'],
    [
      'Summary: App. B model settings',
      'Conversational synthesis and distractor generation',
      'temperature',
      '0.7',
      'Temperatures are 0.7',
    ],
    [
      'Summary: App. B model settings',
      'QA generation and evaluation',
      'temperature',
      '0',
      'and 0 for QA generation',
    ],
    [
      'Summary: App. E.4 Mem0 failure cases',
      'Learning Support: Creative-Writing Leakage',
      'judge score (first)',
      '1',
      'scores [1, 2]',
    ],
    [
      'Summary: App. E.4 Mem0 failure cases',
      'Learning Support: Creative-Writing Leakage',
      'judge score (second)',
      '2',
      'scores [1, 2]',
    ],
    [
      'Summary: App. E.4 Mem0 failure cases',
      'Anchor-based score',
      'scale (max)',
      '10',
      '1–10 anchor-based score',
    ],
  ];

  it.each(cases)('%s / %s / %s = %s', (table, row, column, value, printed) => {
    const r = cell(table, row, column);
    expect(r.valueText).toBe(value);
    if (text) expect(text[r.sourceLine - 1]).toContain(printed);
  });
});
