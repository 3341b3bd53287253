// MemLens's own recomputed numbers (`data/reproduced/*.csv`), in the released results' long
// format plus what produced each one: model, dtype, the weights' revision or sha256, protocol.
import { csvRecordsOf } from './results-csv.ts';

export const REPRODUCED_COLUMNS = [
  'paper',
  'benchmark',
  'protocol',
  'scope',
  'table',
  'row',
  'column',
  'value',
  'unit',
  'n',
  'note',
  'system',
  'variant',
  'metric',
  'k',
  'model',
  'dtype',
  'revision',
  'command',
] as const;

export type ReproducedColumn = (typeof REPRODUCED_COLUMNS)[number];

export interface ReproducedRow {
  /** Always `memlens`: these numbers are ours, not a paper's. */
  paper: 'memlens';
  benchmark: string;
  protocol: string;
  /** What of the paper's pool the series had (e.g. one conversation of ten); empty: all of it. */
  scope: string;
  table: string;
  row: string;
  column: string;
  value: number;
  unit: string;
  /** Queries (or pairs) behind the number. */
  n: number;
  note: string;
  system: string;
  variant: string;
  metric: string;
  k: number | null;
  model: string;
  dtype: string;
  revision: string;
  command: string;
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function reproducedToCsv(rows: readonly ReproducedRow[]): string {
  const lines = [REPRODUCED_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push(
      REPRODUCED_COLUMNS.map((c) => {
        const v = r[c];
        return csvField(v === null ? '' : String(v));
      }).join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export class ReproducedCsvError extends Error {
  constructor(file: string, line: number, detail: string) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'ReproducedCsvError';
  }
}

function finite(text: string, file: string, line: number, column: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) {
    throw new ReproducedCsvError(file, line, `${column} "${text}" is not a number`);
  }
  return n;
}

export function parseReproducedCsv(text: string, file: string): ReproducedRow[] {
  const [header, ...records] = csvRecordsOf(text, file, ReproducedCsvError);
  if (!header || header.fields.join(',') !== REPRODUCED_COLUMNS.join(',')) {
    throw new ReproducedCsvError(file, 1, `header must be ${REPRODUCED_COLUMNS.join(',')}`);
  }
  return records
    .filter((r) => r.fields.some((f) => f !== ''))
    .map(({ fields, line }) => {
      if (fields.length !== REPRODUCED_COLUMNS.length) {
        throw new ReproducedCsvError(file, line, `expected ${REPRODUCED_COLUMNS.length} fields`);
      }
      const get = (c: ReproducedColumn) => fields[REPRODUCED_COLUMNS.indexOf(c)];
      if (get('paper') !== 'memlens') {
        throw new ReproducedCsvError(file, line, `paper must be "memlens", got "${get('paper')}"`);
      }
      return {
        paper: 'memlens',
        benchmark: get('benchmark'),
        protocol: get('protocol'),
        scope: get('scope'),
        table: get('table'),
        row: get('row'),
        column: get('column'),
        value: finite(get('value'), file, line, 'value'),
        unit: get('unit'),
        n: finite(get('n'), file, line, 'n'),
        note: get('note'),
        system: get('system'),
        variant: get('variant'),
        metric: get('metric'),
        k: get('k') === '' ? null : finite(get('k'), file, line, 'k'),
        model: get('model'),
        dtype: get('dtype'),
        revision: get('revision'),
        command: get('command'),
      };
    });
}
