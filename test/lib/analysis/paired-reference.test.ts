// The paired statistics against the reference environment (.venv): scipy's exact binomial test
// and statsmodels' McNemar and Holm, on the same per-query hits.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { referencePython } from '../../../scripts/lib/pypi-model.ts';
import { discordant, holm, mcnemarExact } from '../../../src/lib/analysis/paired.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

const SCRIPT = `
import json, sys
import numpy as np
from scipy.stats import binomtest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
cases = json.load(sys.stdin)
out = []
for case in cases:
    a = np.array(case["a"]); b = np.array(case["b"])
    table = [[int(((a == 1) & (b == 1)).sum()), int(((a == 1) & (b == 0)).sum())],
             [int(((a == 0) & (b == 1)).sum()), int(((a == 0) & (b == 0)).sum())]]
    n01, n10 = table[0][1], table[1][0]
    sm = mcnemar(table, exact=True).pvalue
    sp = binomtest(min(n01, n10), n01 + n10, 0.5).pvalue if n01 + n10 > 0 else 1.0
    out.append({"b": n01, "c": n10, "statsmodels": float(sm), "scipy": float(sp)})
holm = multipletests([o["statsmodels"] for o in out], method="holm")[1].tolist()
print(json.dumps({"cases": out, "holm": holm}))
`;

/** Paired hit vectors: n queries, A hits with pa, B agrees with A except with probability flip. */
function pairedHits(n: number, pa: number, flip: number, seed: number) {
  const random = seededRandom(seed);
  const a = Array.from({ length: n }, () => (random() < pa ? 1 : 0));
  const b = a.map((x) => (random() < flip ? 1 - x : x));
  return { a, b };
}

const CASES = [
  pairedHits(125, 0.5, 0.1, 1),
  pairedHits(125, 0.7, 0.3, 2),
  pairedHits(125, 0.4, 0.02, 3),
  pairedHits(250, 0.5, 0.5, 4),
  pairedHits(1986, 0.6, 0.15, 5),
  pairedHits(3000, 0.5, 0.4, 6),
  { a: [1, 1, 0], b: [1, 1, 0] },
  { a: [1, 1, 1, 1, 1, 1, 0, 0], b: [0, 0, 0, 0, 0, 0, 1, 1] },
];

describe('paired statistics vs scipy / statsmodels', () => {
  // No .venv fails here: npm test makes it (scripts/setup-python.sh) before any test runs.
  const res = spawnSync(referencePython(), ['-c', SCRIPT], {
    input: JSON.stringify(CASES),
    encoding: 'utf8',
  });
  it('the reference ran', () => {
    expect(res.error).toBeUndefined();
    expect(res.stderr).not.toMatch(/Error/);
    expect(res.status).toBe(0);
  });
  const ref = JSON.parse(res.stdout || '{"cases":[],"holm":[]}') as {
    cases: { b: number; c: number; statsmodels: number; scipy: number }[];
    holm: number[];
  };

  it('b, c and the exact McNemar p agree to 1e-12 on every case', () => {
    expect(ref.cases).toHaveLength(CASES.length);
    CASES.forEach((hits, i) => {
      const { b, c } = discordant(hits.a, hits.b);
      expect({ b, c }).toEqual({ b: ref.cases[i].b, c: ref.cases[i].c });
      const p = mcnemarExact(b, c);
      expect(Math.abs(p - ref.cases[i].statsmodels)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(p - ref.cases[i].scipy)).toBeLessThanOrEqual(1e-12);
    });
    // The cases span separable and not: some p below 0.05, some above.
    const ps = ref.cases.map((r) => r.statsmodels);
    expect(ps.some((p) => p < 0.05) && ps.some((p) => p > 0.05)).toBe(true);
  });

  it('Holm-adjusted p-values agree to 1e-12', () => {
    const ours = holm(
      CASES.map((h) => mcnemarExact(discordant(h.a, h.b).b, discordant(h.a, h.b).c)),
    );
    expect(ref.holm).toHaveLength(ours.length);
    ours.forEach((p, i) => expect(Math.abs(p - ref.holm[i])).toBeLessThanOrEqual(1e-12));
  });
});
