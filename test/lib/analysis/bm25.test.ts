import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/lib/analysis/bm25.ts';
import { asciiWordTokens } from '../../../src/lib/analysis/tokenize.ts';

const docs = [
  ['apple', 'banana', 'apple'],
  ['apple', 'cherry'],
  ['apple', 'banana', 'date', 'date'],
  ['elder'],
];

// N = 4; lengths 3, 2, 4, 1 -> avgdl = 10 / 4 = 2.5.
// Document frequencies in first-seen order: apple 3, banana 2, cherry 1, date 1, elder 1.
const rawApple = Math.log(4 - 3 + 0.5) - Math.log(3 + 0.5); // negative: 3 of 4 docs
const banana = Math.log(4 - 2 + 0.5) - Math.log(2 + 0.5); // exactly 0: not floored (idf < 0 only)
const rare = Math.log(4 - 1 + 0.5) - Math.log(1 + 0.5); // cherry, date, elder
const averageIdf = (rawApple + banana + rare + rare + rare) / 5;
const eps = 0.25 * averageIdf; // apple's floored idf
// k1 * (1 - b + b * dl / avgdl) for dl = 3, 2, 4, 1:
const norm = [3, 2, 4, 1].map((dl) => 1.5 * (1 - 0.75 + (0.75 * dl) / 2.5));

function expectClose(actual: ArrayLike<number>, expected: number[], tol: number): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((e, i) => expect(Math.abs(actual[i] - e)).toBeLessThanOrEqual(tol));
}

describe('Bm25Index (rank_bm25 BM25Okapi)', () => {
  const index = new Bm25Index(docs);

  it('computes avgdl and idf with the epsilon floor', () => {
    expect(index.avgdl).toBe(2.5);
    expect(banana).toBe(0);
    expect(rawApple).toBeLessThan(0);
    expect(index.averageIdf).toBeCloseTo(averageIdf, 15);
    expect(index.idfOf('apple')).toBeCloseTo(eps, 15);
    expect(index.idfOf('apple')).toBeGreaterThan(0);
    expect(index.idfOf('banana')).toBe(0);
    expect(index.idfOf('date')).toBeCloseTo(rare, 15);
    expect(index.idfOf('zebra')).toBe(0);
    expect(norm).toEqual([1.725, 1.275, 2.175, 0.825].map((x) => expect.closeTo(x, 14)));
  });

  it('scores a query by hand', () => {
    // apple: f = 2, 1, 1, 0; date: f = 0, 0, 2, 0; each term adds idf * f * 2.5 / (f + norm).
    const expected = [
      eps * ((2 * 2.5) / (2 + norm[0])),
      eps * ((1 * 2.5) / (1 + norm[1])),
      eps * ((1 * 2.5) / (1 + norm[2])) + rare * ((2 * 2.5) / (2 + norm[2])),
      0,
    ];
    expectClose(index.scores(['apple', 'date']), expected, 1e-12);
    // Printed by Python rank_bm25 0.2.2 for the same corpus and query.
    expectClose(
      index.scores(['apple', 'date']),
      [0.11373125642781257, 0.0931096549876048, 1.0814443434712435, 0],
      1e-15,
    );
    expect(index.topK(['apple', 'date'], 4).map((r) => r.index)).toEqual([2, 0, 1, 3]);
  });

  it('counts repeated query tokens each time and ignores unknown tokens', () => {
    // date twice in doc 2: 2 * rare * (2 * 2.5) / (2 + 2.175); zebra unknown -> 0; banana idf 0.
    const d2 = rare * ((2 * 2.5) / (2 + norm[2])) + rare * ((2 * 2.5) / (2 + norm[2]));
    expectClose(index.scores(['date', 'date', 'zebra', 'banana']), [0, 0, d2, 0], 1e-12);
    expectClose(index.scores(['zebra']), [0, 0, 0, 0], 0);
    // All-zero ties rank by lower index.
    expect(index.topK(['date', 'date', 'zebra'], 10)).toEqual([
      { index: 2, score: expect.closeTo(d2, 12) },
      { index: 0, score: 0 },
      { index: 1, score: 0 },
      { index: 3, score: 0 },
    ]);
    expect(index.topK(['date'], 0)).toEqual([]);
  });

  it('uses a negative epsilon when the average idf is negative', () => {
    // x in 3 of 4 docs, y in 4 of 4: idf_x = log 1.5 - log 3.5, idf_y = log 0.5 - log 4.5.
    const idfX = Math.log(1.5) - Math.log(3.5);
    const idfY = Math.log(0.5) - Math.log(4.5);
    const common = new Bm25Index([['x', 'y'], ['x', 'y'], ['x', 'y'], ['y']]);
    expect(common.idfOf('x')).toBeCloseTo((0.25 * (idfX + idfY)) / 2, 15);
    expect(common.idfOf('x')).toBeLessThan(0);
  });

  it('matches rank_bm25 0.2.2 on tokenized text, including a tie', () => {
    const texts = [
      'I adopted a dog named Max last spring.',
      'Max the dog loves the beach; the beach loves Max!',
      'We went to Paris in 2019 and again in 2021.',
      "My sister's dog, Luna, is afraid of thunder.",
      'The quick brown fox jumps over the lazy dog.',
      'Thunder and lightning scared everyone at the beach party.',
    ];
    const bm = Bm25Index.fromTexts(texts);
    const q = asciiWordTokens('Where did Max the dog go?');
    const python = [
      0.9270322430044078, 1.090761075963012, 0, 0.2885124698471494, 0.2885124698471494, 0,
    ];
    expectClose(bm.scores(q), python, 1e-15);
    expect(bm.averageIdf).toBeCloseTo(1.144607653102691, 15);
    expectClose(
      bm.scores(asciiWordTokens('beach thunder thunder')),
      [0, 0.8158553077505752, 0, 1.1852710016358037, 0, 1.7779065024537055],
      1e-15,
    );
    expect(bm.topK(q, 4).map((r) => r.index)).toEqual([1, 0, 3, 4]);
  });

  it('treats an empty corpus as scoring nothing', () => {
    const empty = new Bm25Index([]);
    expect(empty.scores(['a'])).toEqual(new Float64Array(0));
    expect(new Bm25Index([[], []]).scores(['a'])).toEqual(new Float64Array([0, 0]));
  });
});
