import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import { View, parse } from 'vega';
import {
  compareCurveSpec,
  compareHistogramSpec,
  tieChartData,
  tieChartSpec,
} from '../../../src/lib/charts/compare-charts.ts';
import { compareRetrievers } from '../../../src/lib/protocol-kit/compare.ts';
import { recallCurves, similarityHistogram } from '../../../src/lib/protocol-kit/summary.ts';
import { compared } from '../protocol-kit/compare-fixture.ts';

const retrievers = [
  compared('best', () => 1),
  compared('close', (q) => (q === 0 || q === 20 ? 3 : 1)),
  compared('poor', (q) => (q % 4 === 0 ? 1 : 6)),
];
const c = compareRetrievers(retrievers, { ks: [1, 5], tieK: 1 });

async function render(spec: ReturnType<typeof tieChartSpec>): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}

describe('comparison charts', () => {
  it('puts the best first and one bracket per tie group', () => {
    const { dots, brackets } = tieChartData(c, 'naive');
    expect(dots.map((d) => d.retriever)).toEqual(['best', 'close', 'poor']);
    expect(dots[0]).toMatchObject({ percent: 100, hi: 100 });
    expect(brackets.map((b) => b.members)).toEqual(['best, close', 'poor']);
    expect(brackets[0]).toMatchObject({ from: 'best', to: 'close' });
    expect(tieChartData(c, 'nope')).toEqual({ dots: [], brackets: [] });
  });

  it('compiles and renders the tie chart, the curves and the histograms', async () => {
    const tie = await render(tieChartSpec(c, 'naive'));
    expect(tie).toContain('<svg');
    // The axis stops at 100 (the gutter right of it holds the brackets), and each group,
    // a group of one included, carries its number.
    const ticks = [...tie.matchAll(/<text[^>]*>(\d+)<\/text>/g)].map((m) => Number(m[1]));
    expect(Math.max(...ticks)).toBe(100);
    expect(tieChartData(c, 'naive').brackets.map((b) => b.label)).toEqual(['1', '2']);
    const curves = retrievers.flatMap((r) =>
      recallCurves(r.evaluation).map((p) => ({ ...p, retriever: r.ref })),
    );
    expect(await render(compareCurveSpec(curves, 1))).toContain('<svg');
    const bins = retrievers.flatMap((r) =>
      similarityHistogram(r.evaluation, 10).map((b) => ({ ...b, retriever: r.ref })),
    );
    const spec = compareHistogramSpec(bins);
    // Each panel its own density scale (BM25's spread-out scores would look empty on a shared
    // one), and the axis says so.
    expect(spec).toMatchObject({ resolve: { scale: { x: 'independent', y: 'independent' } } });
    expect(JSON.stringify(spec)).toContain('density (own scale)');
    expect(await render(spec)).toContain('<svg');
  });
});
