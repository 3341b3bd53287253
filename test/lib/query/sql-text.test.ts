import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlEngine } from '../../../src/lib/db/engine.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { containsPattern, quoteIdent, quoteString } from '../../../src/lib/query/sql-text.ts';

let engine: SqlEngine;
beforeAll(async () => {
  engine = await openNodeEngine();
});
afterAll(async () => {
  await engine.close();
});

const NASTY = [
  '',
  "'",
  "''",
  '"',
  '""',
  'it\'s "quoted"',
  '\u0000',
  'a\u0000b',
  '\u0000\u0000',
  "'; DROP TABLE results; --",
  '"; DROP TABLE results; --',
  'line\nbreak\r\n',
  '\t tab',
  '\\',
  '\\%_',
  'é ü 中文 🦆 \u202e rtl',
  '\uFEFFbom',
  'select',
  'from',
  'table',
  'NULL',
  '$1',
  '?',
  'x'.repeat(10_000),
];

/** Random strings mixing the characters that break SQL text, seeded so a failure repeats. */
function randomStrings(count: number, seed = 15): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = [
    "'",
    '"',
    '\u0000',
    '\\',
    '%',
    '_',
    '\n',
    ';',
    '-',
    'a',
    'é',
    '🦆',
    ' ',
    '\u2028',
  ];
  return Array.from({ length: count }, () =>
    Array.from(
      { length: Math.floor(next() * 40) },
      () => alphabet[Math.floor(next() * alphabet.length)],
    ).join(''),
  );
}

describe('quoteString', () => {
  it('round-trips every nasty and random value through DuckDB unchanged', async () => {
    for (const value of [...NASTY, ...randomStrings(300)]) {
      const lit = quoteString(value);
      const [row] = await engine.query(`SELECT ${lit} AS v, strlen(${lit}) AS bytes`);
      // DuckDB holds the value exactly (its UTF-8 length); the Arrow decoder drops a leading BOM.
      expect(row.bytes).toBe(Buffer.byteLength(value, 'utf8'));
      expect(row.v, JSON.stringify(value.slice(0, 40))).toBe(value.replace(/^\uFEFF/, ''));
    }
  });

  it('matches literally inside LIKE, NUL included', async () => {
    for (const needle of ['a\u0000b', '%', '_', '\\', "'"]) {
      const hay = `xx${needle}yy`;
      const [row] = await engine.query(
        `SELECT ${quoteString(hay)} ILIKE ${containsPattern(needle)} ESCAPE '\\' AS hit, 'zz' ILIKE ${containsPattern(needle)} ESCAPE '\\' AS miss`,
      );
      expect(row).toEqual({ hit: true, miss: false });
    }
  });
});

describe('quoteIdent', () => {
  it('creates and finds tables under every nasty name; NUL names match no table', async () => {
    const names = NASTY.filter((n) => n !== '' && !n.includes('\u0000') && n.length < 200);
    for (const name of [...names, 'x'.repeat(10_000)]) {
      await engine.query(`CREATE OR REPLACE TABLE ${quoteIdent(name)} AS SELECT 1 AS one`);
      const [row] = await engine.query(`SELECT one FROM ${quoteIdent(name)}`);
      expect(row.one, name.slice(0, 40)).toBe(1);
      await engine.query(`DROP TABLE ${quoteIdent(name)}`);
    }
    await expect(engine.query(`SELECT * FROM ${quoteIdent('user_\u0000x')}`)).rejects.toThrow(
      /does not exist/,
    );
  });
});
