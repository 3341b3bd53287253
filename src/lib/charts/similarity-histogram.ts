import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, VL_SCHEMA } from './chart-kit.ts';
import type { HistogramBin } from '../protocol-kit/summary.ts';

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

/** The x-interval selection a drag on the histogram sets; its value is `{ start: [lo, hi] }`. */
export const SCORE_BRUSH = 'score_brush';

/** Vega-Lite names each wrapped facet's cell `child__facet_facet_<series>`: the series a brush was drawn in. */
const FACET_UNIT = 'child__facet_facet_';

export function seriesOfUnit(unit: string | null): string | null {
  return unit?.startsWith(FACET_UNIT) ? unit.slice(FACET_UNIT.length) : null;
}

export function unitOfSeries(series: string): string {
  return `${FACET_UNIT}${series}`;
}

/**
 * Layered density histograms, target vs background, one panel per series on a shared axis;
 * with `brush`, dragging across a panel selects a score range (drawn from `brush` when given).
 */
export function similarityHistogramSpec(
  bins: readonly HistogramBin[],
  scoreTitle: string,
  brush?: { value: readonly [number, number] | null },
): TopLevelSpec {
  const params = brush
    ? [
        {
          name: SCORE_BRUSH,
          select: { type: 'interval' as const, encodings: ['x' as const] },
          ...(brush.value
            ? { value: { x: [brush.value[0], brush.value[1]] as [number, number] } }
            : {}),
        },
      ]
    : [];
  const series = [...new Set(bins.map((b) => b.series))];
  return {
    $schema: VL_SCHEMA,
    description: `${scoreTitle}: target vs background density per query series`,
    data: { values: similarityData(bins) },
    // Panels wrap into rows on a narrow card and grow on a wide one (charts/fit-width).
    facet: {
      field: 'series',
      type: 'nominal',
      title: null,
      sort: [...series],
    },
    columns: series.length,
    usermeta: { fit: { minPanel: 300, aside: 70, aspect: 0.5 } },
    spec: {
      width: 260,
      height: 180,
      ...(params.length ? { params } : {}),
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
