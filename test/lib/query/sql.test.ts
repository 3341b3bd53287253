import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import type { SqlEngine } from '../../../src/lib/db/engine.ts';
import { containsLike, ident, joinSql, sql, trusted } from '../../../src/lib/query/sql.ts';

let engine: SqlEngine;
beforeAll(async () => {
  engine = await openNodeEngine();
});
afterAll(async () => {
  await engine.close();
});

const NASTY = [
  "'",
  "''; DROP TABLE t; --",
  '\u0000',
  'a\u0000b',
  '\n\r\t',
  '"',
  '\\',
  '😀',
  'x'.repeat(10_000),
];

describe('sql tag', () => {
  it('binds every value as a parameter, never as text', () => {
    const text = sql`SELECT * FROM t WHERE a = ${"o'hara"} AND b IN (${[1, 2, 3]})`;
    expect(text.sql).toBe('SELECT * FROM t WHERE a = ? AND b IN (?, ?, ?)');
    expect(text.params).toEqual(["o'hara", 1, 2, 3]);
  });

  it('inlines fragments with their parameters in order', () => {
    const where = joinSql([sql`x = ${1}`, sql`y = ${'two'}`], ' AND ');
    const text = sql`SELECT ${trusted('1')} FROM ${ident('my "t"')} WHERE ${where} LIMIT ${5}`;
    expect(text.sql).toBe('SELECT 1 FROM "my ""t""" WHERE x = ? AND y = ? LIMIT ?');
    expect(text.params).toEqual([1, 'two', 5]);
  });

  it('turns an empty list into NULL, which matches nothing', () => {
    expect(sql`a IN (${[]})`.sql).toBe('a IN (NULL)');
  });

  it('round-trips nasty values through DuckDB unchanged', async () => {
    for (const value of NASTY) {
      const text = sql`SELECT ${value} AS v`;
      const [row] = await engine.query(text.sql, text.params);
      expect(row.v).toBe(value);
    }
  });

  it('matches LIKE patterns literally', async () => {
    const rows = ['50%', '5_0', 'a\\b', 'plain'];
    for (const needle of ['%', '_', '\\']) {
      const text = sql`SELECT v FROM (VALUES ${trusted(rows.map((r) => `('${r.replaceAll("'", "''")}')`).join(', '))}) t(v)
WHERE v LIKE ${containsLike(needle)} ESCAPE '\\' ORDER BY v`;
      const found = (await engine.query(text.sql, text.params)).map((r) => r.v);
      expect(found).toEqual(rows.filter((r) => r.includes(needle)).sort());
    }
  });
});
