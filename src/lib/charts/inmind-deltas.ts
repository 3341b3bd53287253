import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import { CHART_CONFIG } from './chart-kit.ts';
import * as kit from './chart-kit.ts';
import { LABEL_CHARS, wrappedLabelExpr } from './label-wrap.ts';
import { T1_GROUP, T1_LABEL, inmindEmbeddingFilter } from './inmind-table1.ts';

export interface DeltaDatum extends kit.ResultDatum {
  label: string;
  group: string;
  metric_label: string;
}

export const deltaRow = rowSchema({
  ...kit.RESULT_COLUMNS,
  label: 'string',
  group: 'string',
  metric_label: 'string',
});

export const DELTA_LABELS = [
  'Δ Recall − Naive',
  'Δ Application − Recall',
  'Δ Application − Naive',
] as const;
const DELTA_COLORS = [kit.OKABE_ITO.vermillion, kit.OKABE_ITO.sky, kit.OKABE_ITO.purple];
const PICK = 'deltaPick';

/** InMind Table 1's three Δ columns (percentage points), as printed, per system. */
export function inmindDeltaSpec(rows: readonly DeltaDatum[]): TopLevelSpec {
  return {
    $schema: kit.VL_SCHEMA,
    description: `InMind Table 1 Δ columns in percentage points for ${kit.firstSeen(rows, (d) => d.label).length} configurations: recall minus naive, application minus recall, application minus naive.`,
    ...kit.FULL_WIDTH,
    // Configurations down the side, so their names read at any width.
    height: { step: 10 },
    data: { values: rows },
    layer: [
      {
        mark: { type: 'rule', color: '#666666', ...kit.DECORATION },
        encoding: { x: { datum: 0, type: 'quantitative' } },
      },
      {
        params: [kit.legendFilter(PICK, 'metric_label')],
        transform: [kit.ariaTransform('datum.label', 'datum.metric_label', 'datum.value_text')],
        mark: { type: 'bar', tooltip: true },
        encoding: {
          y: {
            field: 'label',
            type: 'nominal',
            sort: kit.firstSeen(rows, (d) => d.label),
            title: null,
            axis: {
              labelLimit: { expr: 'max(120, width * 0.4)' },
              labelExpr: wrappedLabelExpr(
                kit.firstSeen(rows, (d) => d.label),
                LABEL_CHARS,
              ),
            },
          },
          yOffset: { field: 'metric_label', sort: [...DELTA_LABELS] },
          x: {
            field: 'value',
            type: 'quantitative',
            title: 'Δ (percentage points)',
            scale: { domain: [-100, 20] },
            axis: { orient: 'top', tickCount: 10 },
          },
          color: kit.colorEncoding('metric_label', DELTA_LABELS, DELTA_COLORS, 'Δ column'),
          opacity: kit.filteredOpacity(PICK),
          description: kit.ARIA_ENCODING,
          tooltip: kit.resultTooltip(
            { field: 'row', title: 'System' },
            { field: 'group', title: 'Group' },
            { field: 'metric_label', title: 'Δ column' },
            { field: 'value_text', title: 'Value (pp)' },
          ),
        },
      },
    ],
    config: CHART_CONFIG,
  };
}

export function inmindTable1DeltasSql(embedding = 'both'): string {
  return `SELECT ${T1_LABEL} AS label, ${T1_GROUP} AS "group",
  CASE metric WHEN 'delta_recall_naive' THEN 'Δ Recall − Naive'
              WHEN 'delta_app_recall' THEN 'Δ Application − Recall'
              ELSE 'Δ Application − Naive' END AS metric_label,
  ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1'
  AND metric IN ('delta_recall_naive', 'delta_app_recall', 'delta_app_naive')${inmindEmbeddingFilter(embedding)}
ORDER BY source_line, list_position(['delta_recall_naive', 'delta_app_recall', 'delta_app_naive'], metric)`;
}
