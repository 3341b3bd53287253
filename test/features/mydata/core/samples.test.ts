import { describe, expect, it } from 'vitest';
import { SAMPLES } from '../../../../src/features/mydata/core/samples.ts';
import { kindKey, rowKindOf } from '../../../../src/lib/userdata/row-kind.ts';

const rowsOf = (name: string): Record<string, unknown>[] => {
  const sample = SAMPLES.find((s) => s.name === name);
  if (!sample) throw new Error(`no sample ${name}`);
  return sample.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};

describe('Your data samples', () => {
  it('are JSON Lines, one record a line, ending in a newline', () => {
    for (const s of SAMPLES) {
      expect(s.text.endsWith('\n'), s.name).toBe(true);
      expect(rowsOf(s.name).length, s.name).toBeGreaterThan(1);
    }
  });

  it('has every gold id of the benchmark name one of its memories', () => {
    const rows = rowsOf('benchmark.jsonl');
    const ids = new Set(rows.flatMap((r) => (typeof r.id === 'string' ? [r.id] : [])));
    const gold = rows.flatMap((r) => (Array.isArray(r.gold) ? r.gold : []));
    expect(ids.size).toBe(4);
    expect(gold.length).toBe(3);
    for (const g of gold) expect(ids.has(String(g))).toBe(true);
  });

  it('gives every typed row a kind, split by its type field', () => {
    const rows = rowsOf('typed.jsonl');
    expect(kindKey(rows)).toBe('type');
    expect(rows.map((r) => rowKindOf(r.type))).toEqual([
      ...Array<string>(4).fill('memory'),
      ...Array<string>(3).fill('query'),
    ]);
  });

  it('prints each shape with its texts shortened', () => {
    expect(SAMPLES.map((s) => s.shape)[4]).toBe(
      '{"task_id": 0, "system": "MySystem", "config": {"k": 5}, "naive": {"context": "…", "answer": "…"}, "query": {"context": "…", "answer": "…"}}',
    );
  });
});
