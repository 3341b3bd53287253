import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_INK_MUTED, FULL_WIDTH, VL_SCHEMA } from './chart-kit.ts';
import type { CurvePoint } from '../protocol-kit/summary.ts';

export interface RecallDatum extends CurvePoint {
  percent: number;
  lo_percent: number;
  hi_percent: number;
  aria: string;
}

export function recallData(points: readonly CurvePoint[]): RecallDatum[] {
  return points.map((p) => ({
    ...p,
    percent: p.recall * 100,
    lo_percent: p.lo * 100,
    hi_percent: p.hi * 100,
    aria:
      `${p.series} | k=${p.k} | ${(p.recall * 100).toFixed(1)}% ` +
      `(95% ${(p.lo * 100).toFixed(1)}–${(p.hi * 100).toFixed(1)})`,
  }));
}

/** Mean recall@k for k = 1..kMax, one line per series over its 95% band, with a rule at the chosen k. */
export function recallCurveSpec(points: readonly CurvePoint[], k: number): TopLevelSpec {
  return {
    $schema: VL_SCHEMA,
    description: `Recall@k curve, k = 1..${points.reduce((m, p) => Math.max(m, p.k), 0)}`,
    ...FULL_WIDTH,
    height: 220,
    layer: [
      {
        data: { values: recallData(points) },
        mark: { type: 'area', opacity: 0.18, aria: false },
        encoding: {
          x: { field: 'k', type: 'quantitative' },
          y: { field: 'lo_percent', type: 'quantitative', scale: { domain: [0, 100] } },
          y2: { field: 'hi_percent' },
          color: {
            field: 'series',
            type: 'nominal',
            sort: [...new Set(points.map((p) => p.series))],
          },
        },
      },
      {
        data: { values: recallData(points) },
        mark: { type: 'line', point: true, tooltip: true },
        encoding: {
          x: { field: 'k', type: 'quantitative', title: 'k (retrieved documents)' },
          y: {
            field: 'percent',
            type: 'quantitative',
            title: 'Recall@k (%)',
            scale: { domain: [0, 100] },
          },
          color: {
            field: 'series',
            type: 'nominal',
            sort: [...new Set(points.map((p) => p.series))],
            legend: { title: null, orient: 'top' },
          },
          description: { field: 'aria', type: 'nominal' },
          tooltip: [
            { field: 'series', type: 'nominal' },
            { field: 'k', type: 'quantitative' },
            { field: 'percent', type: 'quantitative', format: '.1f', title: 'recall (%)' },
            { field: 'lo_percent', type: 'quantitative', format: '.1f', title: '95% low (%)' },
            { field: 'hi_percent', type: 'quantitative', format: '.1f', title: '95% high (%)' },
            { field: 'method', type: 'nominal', title: 'interval' },
          ],
        },
      },
      {
        data: { values: [{ k }] },
        mark: { type: 'rule', strokeDash: [4, 3], color: CHART_INK_MUTED },
        encoding: { x: { field: 'k', type: 'quantitative' } },
      },
    ],
    config: CHART_CONFIG,
  };
}
