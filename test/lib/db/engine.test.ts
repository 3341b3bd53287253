import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPlainValue, type SqlEngine } from '../../../src/lib/db/engine.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';

let engine: SqlEngine;

beforeAll(async () => {
  engine = await openNodeEngine();
});

afterAll(async () => {
  await engine?.close();
});

describe('Arrow rows to plain values', () => {
  it('turns DuckDB lists, structs, big integers and NULLs into JSON-like values', async () => {
    const [row] = await engine.query(
      "SELECT 42::BIGINT AS n, [1, 2, 3] AS list, {'a': 'x', 'b': [true]} AS struct, NULL AS nothing, 'é' AS text",
    );
    expect(row).toEqual({
      n: 42,
      list: [1, 2, 3],
      struct: { a: 'x', b: [true] },
      nothing: null,
      text: 'é',
    });
  });

  it('converts values Arrow hands out: BigInt, typed arrays, dates', () => {
    expect(toPlainValue(7n)).toBe(7);
    expect(toPlainValue(new Float32Array([0.5, 2]))).toEqual([0.5, 2]);
    expect(toPlainValue(new Date(Date.UTC(2024, 0, 2)))).toBe('2024-01-02T00:00:00.000Z');
    expect(toPlainValue(undefined)).toBeNull();
    expect(toPlainValue({ toJSON: () => ({ k: 1n }) })).toEqual({ k: 1 });
  });
});
