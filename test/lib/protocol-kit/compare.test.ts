import { describe, expect, it } from 'vitest';
import { holm, mcnemarExact } from '../../../src/lib/analysis/paired.ts';
import { compareRetrievers, disagreements, hitAt } from '../../../src/lib/protocol-kit/compare.ts';
import { compared, evaluate, protocol } from './compare-fixture.ts';

// best: gold first everywhere. close: gold first except queries 0 and 20 (rank 3).
// poor: gold first on every fourth query only, else rank 6.
const best = compared('best', () => 1);
const close = compared('close', (q) => (q === 0 || q === 20 ? 3 : 1));
const poor = compared('poor', (q) => (q % 4 === 0 ? 1 : 6));

describe('compareRetrievers', () => {
  const c = compareRetrievers([poor, best, close], { ks: [1, 5], tieK: 1, seed: 11 });
  const pair = (
    a: string,
    b: string,
    series: string,
    k: number | null,
    group: string | null = null,
  ) =>
    c.pairs.find(
      (p) =>
        p.a === a &&
        p.b === b &&
        p.series === series &&
        p.group === group &&
        p.k === k &&
        p.metric === (k === null ? 'auc' : 'recall'),
    );

  it('counts discordant queries and takes the exact McNemar p', () => {
    // naive = queries 0..19: poor hits 0, 4, 8, 12, 16 at k = 1; best hits all 20.
    const row = pair('poor', 'best', 'naive', 1);
    expect(row).toMatchObject({ onlyA: 0, onlyB: 15, valueA: 0.25, valueB: 1, queries: 20 });
    expect(row?.p).toBe(mcnemarExact(0, 15));
    expect(row?.delta).toBeCloseTo(-0.75, 12);
    expect(row?.lo).toBeLessThan(-0.5);
    expect(row?.hi).toBeLessThan(0);
    // best vs close at k = 1: close misses query 0 only → b = 1, c = 0, p = 1.
    expect(pair('best', 'close', 'naive', 1)).toMatchObject({ onlyA: 1, onlyB: 0, p: 1 });
    // At k = 5 close's rank-3 gold counts: no discordant query.
    expect(pair('best', 'close', 'naive', 5)).toMatchObject({ onlyA: 0, onlyB: 0, delta: 0 });
  });

  it('adjusts by Holm within each series, group and k, and marks significance at alpha', () => {
    const family = c.pairs.filter((p) => p.series === 'naive' && p.group === null && p.k === 1);
    expect(family).toHaveLength(3);
    const adjusted = holm(family.map((p) => p.p ?? 1));
    family.forEach((p, i) => {
      expect(p.pHolm).toBe(adjusted[i]);
      expect(p.significant).toBe(adjusted[i] < 0.05);
    });
    expect(pair('poor', 'best', 'naive', 1)?.significant).toBe(true);
    expect(pair('best', 'close', 'naive', 1)?.significant).toBe(false);
  });

  it('draws tie groups best first from the adjusted p-values', () => {
    const naive = c.ties.find((t) => t.series === 'naive' && t.group === null);
    expect(naive).toMatchObject({ k: 1, order: ['best', 'close', 'poor'] });
    expect(naive?.groups).toEqual([
      [0, 1],
      [2, 2],
    ]);
  });

  it('breaks each series down by group with the same statistics', () => {
    // even queries of naive: 0, 2, …, 18; poor hits 0, 4, 8, 12, 16.
    expect(pair('poor', 'best', 'naive', 1, 'even')).toMatchObject({
      onlyA: 0,
      onlyB: 5,
      queries: 10,
    });
    expect(c.ties.map((t) => `${t.series}/${t.group ?? '(whole series)'}`)).toEqual([
      'naive/(whole series)',
      'naive/even',
      'naive/odd',
      'indirect/(whole series)',
      'indirect/even',
      'indirect/odd',
    ]);
  });

  it('gives each retriever its cells and each pair a seeded ΔAUC interval', () => {
    expect(c.cells.filter((x) => x.retriever === 'best' && x.group === null)).toHaveLength(
      2 * 2 + 2,
    );
    const auc = pair('poor', 'best', 'naive', null);
    expect(auc?.delta).toBeLessThan(0);
    expect(auc?.hi).toBeLessThan(0);
    expect(auc?.significant).toBe(true);
    const again = compareRetrievers([poor, best, close], { ks: [1, 5], tieK: 1, seed: 11 });
    expect(again.pairs).toEqual(c.pairs);
    expect(c).toMatchObject({ seed: 11, alpha: 0.05, correction: 'holm', benchmark: 'fixture' });
  });

  it('gives each group its AUC with an interval and each pair its paired ΔAUC there too', () => {
    const groups = c.cells.filter((x) => x.retriever === 'poor' && x.metric === 'auc');
    expect(groups.map((x) => `${x.series}/${x.group ?? '(whole series)'}`).sort()).toEqual([
      'indirect/(whole series)',
      'indirect/even',
      'indirect/odd',
      'naive/(whole series)',
      'naive/even',
      'naive/odd',
    ]);
    for (const cell of groups) {
      expect(cell.value, cell.group ?? 'whole series').not.toBeNull();
      expect(cell.lo ?? 2).toBeLessThanOrEqual(cell.value ?? -1);
      expect(cell.hi ?? -1).toBeGreaterThanOrEqual(cell.value ?? 2);
    }
    // A group's AUC is its own queries' targets against their own backgrounds.
    const all = pair('poor', 'best', 'naive', null);
    const even = pair('poor', 'best', 'naive', null, 'even');
    expect(even).toMatchObject({ metric: 'auc', queries: 10 });
    expect(even?.hi).toBeLessThan(0);
    expect(even?.valueB).toBe(all?.valueB);
  });

  it('refuses one retriever, a name given twice and unpaired queries', () => {
    expect(() => compareRetrievers([best])).toThrow(/two or more/);
    expect(() => compareRetrievers([best, best])).toThrow(/"best" is named twice/);
    const fewer = {
      ...close,
      evaluation: { ...close.evaluation, outcomes: close.evaluation.outcomes.slice(1) },
    };
    expect(() => compareRetrievers([best, fewer])).toThrow(/ran on different queries/);
  });
});

describe('disagreements', () => {
  it('lists the queries one hits and the other misses, in both directions', () => {
    const a = evaluate('best', () => 1);
    const b = evaluate('poor', (q) => (q % 4 === 0 ? 1 : 6));
    const onlyBest = disagreements(a, b, 'indirect', 1, 'a');
    expect(onlyBest).toHaveLength(15);
    expect(onlyBest.every((d) => hitAt(d.a, 1) === 1 && hitAt(d.b, 1) === 0)).toBe(true);
    expect(disagreements(a, b, 'indirect', 1, 'b')).toEqual([]);
    expect(disagreements(b, a, 'indirect', 1, 'b').map((d) => d.query.id)).toEqual(
      onlyBest.map((d) => d.query.id),
    );
    expect(protocol.queries).toHaveLength(40);
  });
});
