import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { BENCHMARKS } from '../../../src/lib/benchmarks/registry.ts';
import {
  parseReproducedCsv,
  reproducedToCsv,
  type ReproducedRow,
} from '../../../src/lib/results/reproduced-csv.ts';

const row: ReproducedRow = {
  paper: 'memlens',
  benchmark: 'inmind',
  protocol: 'Naive RAG, "chunk", 486 turns',
  scope: '',
  table: 'Reproduced: inmind',
  row: 'Dense (all-MiniLM-L6-v2)',
  column: 'recall@5 · naive',
  value: 95.2,
  unit: '%',
  n: 125,
  note: '',
  system: 'Dense',
  variant: 'naive',
  metric: 'recall',
  k: 5,
  model: 'sentence-transformers/all-MiniLM-L6-v2',
  dtype: 'fp32',
  revision: `sha256:${'a'.repeat(64)}`,
  command: 'npm run reproduce -- --benchmark inmind --model minilm',
};

describe('reproduced CSV', () => {
  it('round-trips rows, quotes included', () => {
    const csv = reproducedToCsv([row, { ...row, k: null, metric: 'auc', unit: '' }]);
    expect(parseReproducedCsv(csv, 'x.csv')).toEqual([
      row,
      { ...row, k: null, metric: 'auc', unit: '' },
    ]);
  });

  it('names file and line for a bad value or a row that is not ours', () => {
    const csv = reproducedToCsv([row]);
    expect(() =>
      parseReproducedCsv(csv.replace(',95.2,', ',n/a,'), 'data/reproduced/m.csv'),
    ).toThrow('data/reproduced/m.csv:2: value "n/a" is not a number');
    expect(() =>
      parseReproducedCsv(csv.replace('memlens,inmind', 'inmind,inmind'), 'm.csv'),
    ).toThrow('m.csv:2: paper must be "memlens"');
  });

  it('data/reproduced/memlens.csv cites the MiniLM weights by the sha256 the registry pins', async () => {
    const file = 'data/reproduced/memlens.csv';
    const rows = parseReproducedCsv(await readFile(file, 'utf8'), file);
    const minilm = getModelSpec('minilm');
    const fp32 = minilm.files.find((f) => f.dtype === 'fp32');
    const dense = rows.filter((r) => r.model === minilm.upstream);
    expect(dense.length).toBeGreaterThan(0);
    for (const r of dense) expect(r.revision).toBe(`sha256:${fp32?.sha256}`);
    // npm run reproduce:publish runs every protocol.
    expect(new Set(rows.map((r) => r.benchmark))).toEqual(new Set(BENCHMARKS));
  });
});
