import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsNormalized, normalizeForMatch } from '../../../src/lib/userdata/normalize.ts';
import { normalizedSql } from '../../../src/lib/query/user-tables.ts';
import { quoteString } from '../../../src/lib/query/sql-text.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import type { SqlEngine } from '../../../src/lib/db/engine.ts';

const SAMPLES = [
  "I've been diagnosed with asthma.",
  'I\u2019m currently waiting — for the result of my Green Card!',
  '  Tabs\tand\nnew\r\nlines\u000b\u000cand\u00a0nbsp\u2003em\u3000ideographic  ',
  '¿Qué tal? «Très bien», said Zoë; 50% off + $5 = €4.50 #tags @you 😀',
  'snake_case, kebab-case, (parens) [brackets] {braces} "quotes" \'single\'',
  'ÀÉÎÕÜ ÇÑ ǅ Σίσυφος ДОБРО',
  '',
];

let engine: SqlEngine;
beforeAll(async () => {
  engine = await openNodeEngine();
});
afterAll(async () => {
  await engine.close();
});

describe('match normalisation', () => {
  it('lowercases, strips punctuation and symbols, collapses whitespace', () => {
    expect(normalizeForMatch("  I've been DIAGNOSED,\twith   asthma!! ")).toBe(
      'ive been diagnosed with asthma',
    );
    expect(normalizeForMatch('I\u2019m waiting — for it')).toBe('im waiting for it');
    expect(
      containsNormalized(
        'Earlier: ive been DIAGNOSED with asthma',
        "I've been diagnosed with asthma.",
      ),
    ).toBe(true);
    expect(containsNormalized('diagnosed with asthma', "I've been diagnosed with asthma.")).toBe(
      false,
    );
  });

  it.each(SAMPLES)('DuckDB gives the same result as the page for %j', async (text) => {
    const [row] = await engine.query(`SELECT ${normalizedSql(quoteString(text))} AS n`);
    expect(row.n).toBe(normalizeForMatch(text));
  });
});
