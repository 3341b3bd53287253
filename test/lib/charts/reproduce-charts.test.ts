import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import { recallCurveSpec, recallData } from '../../../src/lib/charts/recall-curve.ts';
import { releaseData, releaseScatterSpec } from '../../../src/lib/charts/release-scatter.ts';
import { compareRelease } from '../../../src/lib/protocol-kit/locomo-plus-release.ts';
import {
  similarityData,
  similarityHistogramSpec,
} from '../../../src/lib/charts/similarity-histogram.ts';
import type { CurvePoint, HistogramBin } from '../../../src/lib/protocol-kit/summary.ts';

const bins: HistogramBin[] = [
  { series: 'naive', population: 'target', start: 0, end: 0.5, density: 1.2, count: 3 },
  { series: 'naive', population: 'background', start: 0, end: 0.5, density: 0.8, count: 40 },
];
const curve: CurvePoint[] = [
  { series: 'naive', k: 1, recall: 0.384, lo: 0.3, hi: 0.47, method: 'wilson' },
  { series: 'naive', k: 2, recall: 0.5, lo: 0.41, hi: 0.59, method: 'wilson' },
];

describe('similarity histogram spec', () => {
  it('compiles and labels each bar with series, population, range and density', () => {
    const spec = similarityHistogramSpec(bins, 'BM25 score');
    expect(() => compile(spec)).not.toThrow();
    expect(similarityData(bins).map((d) => d.aria)).toEqual([
      'naive | target | 0.000..0.500 | 1.2000',
      'naive | background | 0.000..0.500 | 0.8000',
    ]);
  });

  it('overlays the populations instead of stacking them', () => {
    const spec = similarityHistogramSpec(bins, 'cosine');
    expect(JSON.stringify(spec)).toContain('"stack":null');
  });
});

describe('recall curve spec', () => {
  it('compiles, in percent, with a rule at k and a 95% band', () => {
    const spec = recallCurveSpec(curve, 2);
    expect(() => compile(spec)).not.toThrow();
    expect(recallData(curve).map((d) => [d.percent, d.aria])).toEqual([
      [38.4, 'naive | k=1 | 38.4% (95% 30.0–47.0)'],
      [50, 'naive | k=2 | 50.0% (95% 41.0–59.0)'],
    ]);
    expect(JSON.stringify(spec)).toContain('"y2":{"field":"hi_percent"}');
    expect(JSON.stringify(spec)).toContain('"values":[{"k":2}]');
  });
});

describe('release scatter spec', () => {
  const pair = (i: number, released: number | null) => ({
    item_id: `lp-${i}`,
    item_index: i,
    relation_type: 'goal',
    cue_dialogue: 'A: x',
    trigger_query: 'A: y',
    released,
    releasedBm25Rank: 1,
  });
  const release = compareRelease([pair(0, 0.5), pair(1, null)], [0.52, 0.3], {
    id: 'tiny-bert',
    label: 'tiny-bert',
    dtype: 'fp32',
  });

  it('compiles, one labelled point per item with a released score, over y = x', () => {
    expect(() => compile(releaseScatterSpec(release))).not.toThrow();
    expect(releaseData(release).map((d) => d.aria)).toEqual([
      'lp-0 | goal | released 0.5000 | recomputed 0.5200',
    ]);
    expect(JSON.stringify(releaseScatterSpec(release))).toContain('"values":[{"x":0},{"x":1}]');
  });
});
