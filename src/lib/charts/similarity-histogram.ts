import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, VL_SCHEMA } from './chart-kit.ts';
import type { HistogramBin } from '../protocols/summary.ts';

/** Okabe–Ito: orange targets over blue background, as the paper's Figure 4. */
export const POPULATION_COLORS = { target: '#E69F00', background: '#0072B2' } as const;

export interface SimilarityDatum extends HistogramBin {
  aria: string;
}

export function similarityData(bins: readonly HistogramBin[]): SimilarityDatum[] {
  return bins.map((b) => ({
    ...b,
    aria: `${b.series} | ${b.population} | ${b.start.toFixed(3)}..${b.end.toFixed(3)} | ${b.density.toFixed(4)}`,
  }));
}

/** Layered density histograms, target vs background, one panel per series on a shared axis. */
export function similarityHistogramSpec(
  bins: readonly HistogramBin[],
  scoreTitle: string,
): TopLevelSpec {
  return {
    $schema: VL_SCHEMA,
    description: `${scoreTitle}: target vs background density per query series`,
    data: { values: similarityData(bins) },
    facet: {
      column: {
        field: 'series',
        type: 'nominal',
        title: null,
        sort: [...new Set(bins.map((b) => b.series))],
      },
    },
    spec: {
      width: 260,
      height: 180,
      mark: { type: 'bar', opacity: 0.55, binSpacing: 0, tooltip: true },
      encoding: {
        x: { field: 'start', type: 'quantitative', title: scoreTitle },
        x2: { field: 'end' },
        y: { field: 'density', type: 'quantitative', title: 'Density', stack: null },
        y2: { datum: 0 },
        color: {
          field: 'population',
          type: 'nominal',
          scale: {
            domain: ['target', 'background'],
            range: [POPULATION_COLORS.target, POPULATION_COLORS.background],
          },
          legend: { title: null, orient: 'top' },
        },
        description: { field: 'aria', type: 'nominal' },
        tooltip: [
          { field: 'series', type: 'nominal' },
          { field: 'population', type: 'nominal' },
          { field: 'start', type: 'quantitative', format: '.3f' },
          { field: 'end', type: 'quantitative', format: '.3f' },
          { field: 'density', type: 'quantitative', format: '.4f' },
          { field: 'count', type: 'quantitative' },
        ],
      },
    },
    config: CHART_CONFIG,
  };
}
