// The comparison mode's charts: recall@k per retriever with its interval and the tie groups as
// brackets, overlaid recall curves with bands, and the score histograms side by side.
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_INK_MUTED, FULL_WIDTH, VL_SCHEMA } from './chart-kit.ts';
import type { Comparison } from '../protocol-kit/compare.ts';
import { tieLegend } from '../protocol-kit/compare-report.ts';
import type { ComparedRetriever } from '../protocol-kit/compare.ts';
import {
  isWholeSeries,
  recallCurves,
  similarityHistogram,
  type CurvePoint,
  type HistogramBin,
} from '../protocol-kit/summary.ts';

export interface TieDot {
  retriever: string;
  rank: number;
  percent: number;
  lo: number;
  hi: number;
}

export interface TieBracket {
  group: number;
  from: string;
  to: string;
  /** x of the bracket's spine, in percent, right of every interval. */
  at: number;
  members: string;
  /** The bracket's accessible label. */
  aria: string;
  /** Its number, drawn beside it. */
  label: string;
}

/** One series' dots (recall@k, best first) and its tie groups as brackets. */
export function tieChartData(
  c: Comparison,
  series: string,
): { dots: TieDot[]; brackets: TieBracket[] } {
  const ties = c.ties.find((t) => t.series === series && isWholeSeries(t));
  if (!ties) return { dots: [], brackets: [] };
  const dots = ties.order.map((retriever, rank) => {
    const cell = c.cells.find(
      (x) =>
        x.retriever === retriever &&
        x.series === series &&
        isWholeSeries(x) &&
        x.metric === 'recall' &&
        x.k === ties.k,
    );
    return {
      retriever,
      rank,
      percent: (cell?.value ?? 0) * 100,
      lo: (cell?.lo ?? 0) * 100,
      hi: (cell?.hi ?? 0) * 100,
    };
  });
  // Numbered as the legend under the chart names them.
  const legend = tieLegend(ties);
  const brackets = ties.groups.map(([first, last], group) => ({
    group,
    from: ties.order[first],
    to: ties.order[last],
    at: 103 + 3 * group,
    ...legend[group],
    aria: `tie group ${group + 1}: ${ties.order.slice(first, last + 1).join(', ')}`,
  }));
  return { dots, brackets };
}

/** recall@k with 95% intervals, best on top, and a bracket joining each tie group. */
export function tieChartSpec(c: Comparison, series: string): TopLevelSpec {
  const { dots, brackets } = tieChartData(c, series);
  const y = {
    field: 'retriever',
    type: 'nominal' as const,
    sort: dots.map((d) => d.retriever),
    title: null,
  };
  const x = {
    type: 'quantitative' as const,
    scale: { domain: [0, 100 + 3 * (brackets.length + 2)] },
  };
  return {
    $schema: VL_SCHEMA,
    description: `${series}: recall@${c.tieK} per retriever with 95% intervals; brackets join retrievers not separable after Holm at α = ${c.alpha}`,
    ...FULL_WIDTH,
    height: { step: 28 },
    layer: [
      {
        data: { values: dots },
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          y,
          // The brackets' gutter right of 100 is no recall: the axis stops at 100.
          x: {
            field: 'lo',
            ...x,
            title: `recall@${c.tieK} (%)`,
            axis: { values: [0, 20, 40, 60, 80, 100] },
          },
          x2: { field: 'hi' },
        },
      },
      {
        data: { values: dots },
        mark: { type: 'point', filled: true, size: 70, tooltip: true },
        encoding: {
          y,
          x: { field: 'percent', ...x },
          tooltip: [
            { field: 'retriever', type: 'nominal' },
            { field: 'percent', type: 'quantitative', format: '.1f', title: 'recall (%)' },
            { field: 'lo', type: 'quantitative', format: '.1f', title: '95% low' },
            { field: 'hi', type: 'quantitative', format: '.1f', title: '95% high' },
          ],
        },
      },
      {
        data: { values: brackets },
        mark: { type: 'rule', strokeWidth: 3, color: CHART_INK_MUTED, tooltip: true },
        encoding: {
          x: { field: 'at', ...x },
          y: { ...y, field: 'from' },
          y2: { field: 'to' },
          description: { field: 'aria', type: 'nominal' },
          tooltip: [{ field: 'members', type: 'nominal', title: 'tie group' }],
        },
      },
      {
        data: { values: brackets },
        mark: { type: 'tick', orient: 'horizontal', color: CHART_INK_MUTED, thickness: 2 },
        encoding: { x: { field: 'at', ...x }, y: { ...y, field: 'from' } },
      },
      {
        data: { values: brackets },
        mark: { type: 'tick', orient: 'horizontal', color: CHART_INK_MUTED, thickness: 2 },
        encoding: { x: { field: 'at', ...x }, y: { ...y, field: 'to' } },
      },
      {
        // Each group's number beside its bracket: a group of one is a numbered tick, not a dash.
        data: { values: brackets },
        mark: { type: 'text', align: 'left', dx: 4, color: CHART_INK_MUTED, fontSize: 10 },
        encoding: {
          x: { field: 'at', ...x },
          y: { ...y, field: 'from' },
          text: { field: 'label', type: 'nominal' },
        },
      },
    ],
    config: CHART_CONFIG,
  };
}

export interface CompareCurvePoint extends CurvePoint {
  retriever: string;
}

/** recall@k, k = 1..K, one line per retriever over its 95% band; one panel per series. */
export function compareCurveSpec(points: readonly CompareCurvePoint[], k: number): TopLevelSpec {
  const values = points.map((p) => ({
    ...p,
    percent: p.recall * 100,
    lo_percent: p.lo * 100,
    hi_percent: p.hi * 100,
  }));
  const color = {
    field: 'retriever',
    type: 'nominal' as const,
    sort: [...new Set(points.map((p) => p.retriever))],
    legend: { title: null, orient: 'top' as const },
  };
  const y = { type: 'quantitative' as const, scale: { domain: [0, 100] } };
  return {
    $schema: VL_SCHEMA,
    description: 'Recall@k per retriever and series, with 95% bands',
    data: { values },
    facet: { column: { field: 'series', type: 'nominal', title: null } },
    spec: {
      width: 260,
      height: 200,
      layer: [
        {
          mark: { type: 'area', opacity: 0.15, aria: false },
          encoding: {
            x: { field: 'k', type: 'quantitative' },
            y: { field: 'lo_percent', ...y },
            y2: { field: 'hi_percent' },
            color,
          },
        },
        {
          mark: { type: 'line', tooltip: true },
          encoding: {
            x: { field: 'k', type: 'quantitative', title: 'k' },
            y: { field: 'percent', ...y, title: 'Recall@k (%)' },
            color,
            tooltip: [
              { field: 'retriever', type: 'nominal' },
              { field: 'k', type: 'quantitative' },
              { field: 'percent', type: 'quantitative', format: '.1f', title: 'recall (%)' },
              { field: 'lo_percent', type: 'quantitative', format: '.1f', title: '95% low' },
              { field: 'hi_percent', type: 'quantitative', format: '.1f', title: '95% high' },
            ],
          },
        },
        {
          transform: [{ filter: `datum.k === ${k}` }],
          mark: { type: 'rule', strokeDash: [4, 3], color: CHART_INK_MUTED },
          encoding: { x: { field: 'k', type: 'quantitative' } },
        },
      ],
    },
    config: CHART_CONFIG,
  };
}

export interface CompareBin extends HistogramBin {
  retriever: string;
}

/**
 * Target and background score densities, one panel per retriever (columns) and series (rows),
 * each on its own x and density scale: BM25 scores and cosines differ, and BM25's spread-out
 * densities would look empty beside a cosine's peak on a shared one.
 */
export function compareHistogramSpec(bins: readonly CompareBin[]): TopLevelSpec {
  return {
    $schema: VL_SCHEMA,
    description:
      'Target vs background score densities per retriever and series, each panel on its own score and density scale',
    data: { values: bins.map((b) => ({ ...b })) },
    facet: {
      column: {
        field: 'retriever',
        type: 'nominal',
        sort: [...new Set(bins.map((b) => b.retriever))],
        title: null,
      },
      row: { field: 'series', type: 'nominal', title: null },
    },
    spec: {
      width: 200,
      height: 110,
      mark: { type: 'rect', opacity: 0.6, tooltip: true },
      encoding: {
        x: { field: 'start', type: 'quantitative', title: 'score' },
        x2: { field: 'end' },
        y: { field: 'density', type: 'quantitative', title: 'density (own scale)', stack: null },
        color: { field: 'population', type: 'nominal', legend: { title: null, orient: 'top' } },
        tooltip: [
          { field: 'retriever', type: 'nominal' },
          { field: 'population', type: 'nominal' },
          { field: 'start', type: 'quantitative', format: '.3f' },
          { field: 'count', type: 'quantitative' },
        ],
      },
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
    config: CHART_CONFIG,
  };
}

/** Every retriever's recall curves, tagged with its ref. */
export function compareCurvePoints(retrievers: readonly ComparedRetriever[]): CompareCurvePoint[] {
  return retrievers.flatMap((r) =>
    recallCurves(r.evaluation).map((p) => ({ ...p, retriever: r.ref })),
  );
}

/** Every retriever's score histograms, tagged with its ref. */
export function compareBins(retrievers: readonly ComparedRetriever[]): CompareBin[] {
  return retrievers.flatMap((r) =>
    similarityHistogram(r.evaluation).map((b) => ({ ...b, retriever: r.ref })),
  );
}
