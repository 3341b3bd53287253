import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../src/lib/userdata/format.ts';
import { arrayElementLines } from '../../../src/lib/userdata/json-document.ts';
import { userTableName, tableNameProblem } from '../../../src/lib/userdata/table-name.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('detectFormat', () => {
  it.each([
    ['a.jsonl', '{"a":1}', 'jsonl'],
    ['a.ndjson', '{"a":1}', 'jsonl'],
    ['a.json', '[{"a":1}]', 'json'],
    ['a.json', '{"a":1}\n{"a":2}\n', 'jsonl'],
    ['a.json', '{\n "a": 1\n}', 'json'],
    ['a.CSV', 'x,y', 'csv'],
    ['a.tsv', 'x\ty', 'tsv'],
    ['a.parquet', 'PAR1', 'parquet'],
    ['renamed.jsonl', 'PAR1xxxx', 'parquet'],
    ['download', '{"a":1}\n{"b":2}', 'jsonl'],
    ['download', '\uFEFF[1]', 'json'],
  ])('%s (%j) → %s', (name, head, format) => {
    expect(detectFormat(name, bytes(head))).toBe(format);
  });

  it('refuses an unknown extension with text content', () => {
    expect(() => detectFormat('notes.md', bytes('# hi'))).toThrow(
      'notes.md: expected a .json, .jsonl, .ndjson, .csv, .tsv or .parquet file, found ".md"',
    );
  });
});

describe('arrayElementLines', () => {
  it('finds where each element of an array document starts', () => {
    const text = '[\n  {"a": "x,\\"]"},\n  [1,\n 2], 3,\n\n  "s"\n]';
    expect(arrayElementLines(text)).toEqual([2, 3, 4, 6]);
  });
});

describe('user table names', () => {
  it.each([
    ['My Results (v2).jsonl', 'user_my_results_v2'],
    ['runs/2026-05-01.csv', 'user_2026_05_01'],
    ['...json', 'user_data'],
    ['über.json', 'user_ber'],
  ])('%s → %s', (file, table) => {
    expect(userTableName(file)).toBe(table);
    expect(tableNameProblem(table)).toBeNull();
  });

  it('rejects names that could clobber benchmark tables', () => {
    expect(tableNameProblem('turns')).not.toBeNull();
    expect(tableNameProblem('user_x; DROP TABLE turns')).not.toBeNull();
  });
});
