import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import { CHART_CONFIG } from './chart-kit.ts';
import * as kit from './chart-kit.ts';
import { quoteString } from '../query/sql-text.ts';

export interface OverviewDatum extends kit.ResultDatum {
  paper_label: string;
  side: 'asked' | 'used';
  side_label: string;
  measure: string;
  pct: number;
  who: string;
}

export const overviewRow = rowSchema({
  ...kit.RESULT_COLUMNS,
  paper_label: 'string',
  side: ['asked', 'used'],
  side_label: 'string',
  measure: 'string',
  pct: 'number',
  who: 'string',
});

const PCT_X = {
  type: 'quantitative' as const,
  // Two lines: on one, a phone's chart cut it at its right edge.
  title: ['Best printed score in the paper', '(%, 0–1 scores × 100)'],
  scale: { domain: [0, 100] },
};

export const OVERVIEW_SIDES = [
  'Recall (asked for, or retrieved)',
  'Use (needed, not asked for)',
] as const;

function pctLabels(side: OverviewDatum['side'], dy: number) {
  return {
    transform: [
      { filter: `datum.side === '${side}'` },
      { calculate: "format(datum.pct, '.1f') + '%'", as: 'pct_label' },
    ],
    mark: { type: 'text' as const, dy, fontSize: 12, ...kit.DECORATION },
    encoding: { x: { field: 'pct', ...PCT_X }, text: { field: 'pct_label' } },
  };
}

/** Per paper, its best "recall" number against its best "use" number, joined by a line. */
export function overviewSpec(rows: readonly OverviewDatum[]): TopLevelSpec {
  const papers = kit.firstSeen(rows, (d) => d.paper_label);
  const y = { field: 'paper_label', type: 'nominal' as const, sort: papers, title: null };
  const x = PCT_X;
  return {
    $schema: kit.VL_SCHEMA,
    description: `Across ${papers.length} papers, the best score when the memory is asked for (or retrieved) against the best score when the conversation needs it without asking; each point is one printed number, named in its tooltip.`,
    ...kit.FULL_WIDTH,
    height: Math.max(1, papers.length) * 44,
    data: { values: rows },
    encoding: { y },
    layer: [
      {
        transform: [{ pivot: 'side', value: 'pct', groupby: ['paper_label'] }],
        mark: { type: 'rule', color: kit.OKABE_ITO.grey, strokeWidth: 3, ...kit.DECORATION },
        encoding: { x: { field: 'used', ...x }, x2: { field: 'asked' } },
      },
      {
        params: [kit.legendFilter('sidePick', 'side_label')],
        transform: [kit.ariaTransform('datum.paper_label', 'datum.side_label', 'datum.value_text')],
        mark: { type: 'point', filled: true, size: 160, tooltip: true },
        encoding: {
          x: { field: 'pct', ...x },
          color: kit.colorEncoding(
            'side_label',
            OVERVIEW_SIDES,
            [kit.OKABE_ITO.blue, kit.OKABE_ITO.vermillion],
            'Memory',
          ),
          opacity: kit.filteredOpacity('sidePick'),
          description: kit.ARIA_ENCODING,
          tooltip: kit.resultTooltip(
            { field: 'paper_label', title: 'Paper' },
            { field: 'measure', title: 'Measure' },
            { field: 'who', title: 'Best row' },
            { field: 'pct', title: 'Plotted (%)' },
            { field: 'value_text', title: 'Value as printed' },
            { field: 'unit', title: 'Unit' },
          ),
        },
      },
      // One scale for every paper: the label is the plotted percentage; the printed value
      // (.470, 1.0, 92.0) stays in the tooltip. Recall's above its point, use's below, so two
      // close points never run their labels together ("47.0%66.9%" on a phone).
      pctLabels('asked', -14),
      pctLabels('used', 16),
    ],
    config: CHART_CONFIG,
  };
}

/**
 * One point of the overview in words, in the chart's unit (percent, one decimal, as its labels);
 * the value as the paper prints it follows where it reads differently (.669, a 0–1 score).
 */
export function overviewPointText(d: OverviewDatum): string {
  const plotted = `${d.pct.toFixed(1)}%`;
  const printed = `${d.value_text}${d.unit === '%' ? '%' : ''}`;
  const asPrinted = printed === plotted ? '' : ` (printed ${printed})`;
  return `${d.measure}: ${plotted}${asPrinted}`;
}

/** A home-overview candidate: rows of `results`, the number each gives and whose it is. */
export interface OverviewCandidate {
  side: 'asked' | 'used';
  measure: string;
  /** SQL expression: the row's number in percent. */
  pct: string;
  /** SQL expression: the system (and setting) the number is for. */
  who: string;
  /** SQL condition over `results`. */
  where: string;
}

/** One paper's candidates for the home overview. */
export interface OverviewPart {
  paper: string;
  label: string;
  candidates: readonly OverviewCandidate[];
}

function overviewCandidateSql(c: OverviewCandidate): string {
  return `SELECT ${quoteString(c.side)} AS side, ${quoteString(c.measure)} AS measure, ${c.pct} AS pct,
    ${c.who} AS who, *
  FROM results WHERE ${c.where}`;
}

/**
 * Home overview: per paper, the best number where the memory is asked for directly and the best
 * where the conversation needs it without asking; memory systems only (no backbone, oracle, floor).
 * `parts` come from the benchmark registry, in its order; their SQL is written there, not by users.
 */
export function overviewSql(parts: readonly OverviewPart[]): string {
  const candidates = parts
    .flatMap((p) => p.candidates.map(overviewCandidateSql))
    .join('\n  UNION ALL\n');
  const labels = parts.map((p) => `WHEN ${quoteString(p.paper)} THEN ${quoteString(p.label)}`);
  const order = parts.map((p) => quoteString(p.paper)).join(', ');
  return `WITH candidates AS (
  ${candidates}
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY paper, side ORDER BY pct DESC, source_line, who) AS rank
  FROM candidates
)
SELECT CASE paper ${labels.join(' ')} END AS paper_label,
  CASE side WHEN 'asked' THEN 'Recall (asked for, or retrieved)'
            ELSE 'Use (needed, not asked for)' END AS side_label,
  side, measure, round(pct, 1) AS pct, who, ${kit.RESULT_FIELDS}
FROM ranked WHERE rank = 1
ORDER BY list_position([${order}], paper), side`;
}
