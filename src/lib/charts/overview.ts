import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import {
  ARIA_ENCODING,
  CHART_CONFIG,
  FULL_WIDTH,
  DECORATION,
  OKABE_ITO,
  VL_SCHEMA,
  ariaTransform,
  colorEncoding,
  filteredOpacity,
  firstSeen,
  legendFilter,
  resultTooltip,
  type ResultDatum,
  RESULT_COLUMNS,
} from './chart-kit.ts';

export interface OverviewDatum extends ResultDatum {
  paper_label: string;
  side: 'asked' | 'used';
  side_label: string;
  measure: string;
  pct: number;
  who: string;
}

export const overviewRow = rowSchema({
  ...RESULT_COLUMNS,
  paper_label: 'string',
  side: ['asked', 'used'],
  side_label: 'string',
  measure: 'string',
  pct: 'number',
  who: 'string',
});

export const OVERVIEW_SIDES = [
  'Recall (asked for, or retrieved)',
  'Use (needed, not asked for)',
] as const;

/** Per paper, its best "recall" number against its best "use" number, joined by a line. */
export function overviewSpec(rows: readonly OverviewDatum[]): TopLevelSpec {
  const papers = firstSeen(rows, (d) => d.paper_label);
  const y = { field: 'paper_label', type: 'nominal' as const, sort: papers, title: null };
  const x = {
    type: 'quantitative' as const,
    title: 'Best printed score in the paper (%, 0–1 scores × 100)',
    scale: { domain: [0, 100] },
  };
  return {
    $schema: VL_SCHEMA,
    description: `Across ${papers.length} papers, the best score when the memory is asked for (or retrieved) against the best score when the conversation needs it without asking; each point is one printed number, named in its tooltip.`,
    ...FULL_WIDTH,
    height: Math.max(1, papers.length) * 44,
    data: { values: rows },
    encoding: { y },
    layer: [
      {
        transform: [{ pivot: 'side', value: 'pct', groupby: ['paper_label'] }],
        mark: { type: 'rule', color: OKABE_ITO.grey, strokeWidth: 3, ...DECORATION },
        encoding: { x: { field: 'used', ...x }, x2: { field: 'asked' } },
      },
      {
        params: [legendFilter('sidePick', 'side_label')],
        transform: [ariaTransform('datum.paper_label', 'datum.side_label', 'datum.value_text')],
        mark: { type: 'point', filled: true, size: 160, tooltip: true },
        encoding: {
          x: { field: 'pct', ...x },
          color: colorEncoding(
            'side_label',
            OVERVIEW_SIDES,
            [OKABE_ITO.blue, OKABE_ITO.vermillion],
            'Memory',
          ),
          opacity: filteredOpacity('sidePick'),
          description: ARIA_ENCODING,
          tooltip: resultTooltip(
            { field: 'paper_label', title: 'Paper' },
            { field: 'measure', title: 'Measure' },
            { field: 'who', title: 'Best row' },
            { field: 'pct', title: 'Plotted (%)' },
            { field: 'value_text', title: 'Value as printed' },
            { field: 'unit', title: 'Unit' },
          ),
        },
      },
      {
        // One scale for every paper: the label is the plotted percentage; the printed value
        // (.470, 1.0, 92.0) stays in the tooltip.
        transform: [{ calculate: "format(datum.pct, '.1f') + '%'", as: 'pct_label' }],
        mark: { type: 'text', dy: -14, fontSize: 12, ...DECORATION },
        encoding: { x: { field: 'pct', ...x }, text: { field: 'pct_label' } },
      },
    ],
    config: CHART_CONFIG,
  };
}
