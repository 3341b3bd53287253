import { describe, expect, it } from 'vitest';
import { compareRetrievers } from '../../../src/lib/protocol-kit/compare.ts';
import {
  comparisonCsvRows,
  comparisonLines,
  formatDelta,
  formatP,
  formatTies,
  tieLegend,
} from '../../../src/lib/protocol-kit/compare-report.ts';
import { compared } from './compare-fixture.ts';

const c = compareRetrievers(
  [compared('poor', (q) => (q % 4 === 0 ? 1 : 6)), compared('best', () => 1)],
  { ks: [1, 5], tieK: 1 },
);

describe('comparison report', () => {
  it('prints each series: the table with intervals, each pair with b, c, p and Δ, the tie groups', () => {
    const text = comparisonLines(c).join('\n');
    expect(text).toMatch(/seed 20260101; 1000 resamples, AUC 200/);
    expect(text).toMatch(/^naive \(20 queries\)$/m);
    expect(text).toMatch(/^ {2}best +100\.0% \[\d+\.\d, 100\.0\]/m);
    expect(text).toMatch(
      /poor − best +Δrecall@1 +b +0 +c +15 +p +6\.1e-5 +Holm +6\.1e-5 \* +-75\.0 \[-\d/,
    );
    expect(text).toMatch(/poor − best +ΔAUC +-0\.\d{3} \[/);
    expect(text).toMatch(/tie groups at recall@1: \{best\} · \{poor\}/);
    // Each group: recall@tieK's b, c and p, and its paired ΔAUC.
    expect(text).toMatch(/by group, recall@1 \(Holm within each group\) and ΔAUC:/);
    expect(text).toMatch(
      /\n {2}odd +n +10 poor − best +Δrecall@1 +b +0 +c +10 .* ΔAUC -0\.\d{3} \[/,
    );
  });

  it('writes one CSV row per pair × series × group × metric × k with b, c, p and the interval', () => {
    const rows = comparisonCsvRows(c);
    // 1 pair × 2 series × 3 slices (all and two groups) × (2 k + AUC).
    expect(rows).toHaveLength(2 * 3 * (2 + 1));
    expect(rows[0]).toMatchObject({
      retriever_a: 'poor',
      retriever_b: 'best',
      series: 'naive',
      level: 'series',
      group: null,
      metric: 'recall',
      k: 1,
      b: 0,
      c: 15,
      significant: true,
      bootstrap_seed: 20260101,
    });
    expect(rows.find((r) => r.metric === 'auc')).toMatchObject({ b: null, p_mcnemar_exact: null });
    expect(rows[0]).toMatchObject({ revision_a: null, revision_b: null });
  });

  it("names what pins each side's weights in every row", () => {
    const pinned = compareRetrievers([
      { ...compared('poor', () => 6), revision: 'sha256:abc' },
      { ...compared('best', () => 1), revision: 'files:def' },
    ]);
    for (const row of comparisonCsvRows(pinned)) {
      expect(row).toMatchObject({ revision_a: 'sha256:abc', revision_b: 'files:def' });
    }
  });

  it('formats p, differences and groups', () => {
    expect(formatP(0.04321)).toBe('0.0432');
    expect(formatP(6.1e-15)).toBe('6.1e-15');
    expect(formatP(null)).toBe('—');
    expect(formatDelta({ metric: 'recall', delta: 0.12, lo: 0.048, hi: 0.192 })).toBe(
      '+12.0 [4.8, 19.2]',
    );
    expect(formatDelta({ metric: 'auc', delta: -1e-9, lo: -0.01, hi: 0.01 })).toBe(
      '0.000 [-0.010, 0.010]',
    );
    expect(
      formatTies({
        series: 's',
        group: null,
        k: 5,
        order: ['a', 'b', 'c'],
        groups: [
          [0, 1],
          [1, 2],
        ],
      }),
    ).toBe('{a, b} · {b, c}');
  });

  it('names what each numbered bracket joins, as the tie chart numbers them', () => {
    const row = { series: 's', group: null, k: 5, order: ['a', 'b', 'c'] };
    const groups: [number, number][] = [
      [0, 1],
      [2, 2],
    ];
    expect(tieLegend({ ...row, groups })).toEqual([
      { label: '1', members: 'a, b' },
      { label: '2', members: 'c' },
    ]);
  });
});
