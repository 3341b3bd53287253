import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import { CHART_CONFIG } from './chart-kit.ts';
import * as kit from './chart-kit.ts';
import { LABEL_CHARS, wrappedLabelExpr } from './label-wrap.ts';

export interface Table2Datum extends kit.ResultDatum {
  label: string;
  metric_label: string;
  panel: 'score' | 'delta';
}

export const table2Row = rowSchema({
  ...kit.RESULT_COLUMNS,
  label: 'string',
  metric_label: 'string',
  panel: ['score', 'delta'],
});

const LABELS = ['Naive', 'Indirect', 'Δ Indirect − Backbone'] as const;
const COLORS = [kit.OKABE_ITO.blue, kit.OKABE_ITO.green, kit.OKABE_ITO.vermillion];
const PICK = 'table2Pick';

function panel(
  rows: readonly Table2Datum[],
  which: Table2Datum['panel'],
  xTitle: string,
  domain: [number, number],
) {
  const shown = rows.filter((d) => d.panel === which);
  return {
    width: 460,
    height: 160,
    data: { values: shown },
    layer: [
      {
        mark: { type: 'rule' as const, color: '#666666', ...kit.DECORATION },
        encoding: { x: { datum: 0, type: 'quantitative' as const } },
      },
      {
        ...(which === 'score' ? { params: [kit.legendFilter(PICK, 'metric_label')] } : {}),
        transform: [kit.ariaTransform('datum.label', 'datum.metric_label', 'datum.value_text')],
        mark: { type: 'bar' as const, tooltip: true },
        encoding: {
          y: {
            field: 'label',
            type: 'nominal' as const,
            sort: kit.firstSeen(rows, (d) => d.label),
            title: null,
            // Each panel names its rows: stacked on a phone, the second is read on its own.
            axis: {
              labelLimit: 96,
              labelExpr: wrappedLabelExpr(
                kit.firstSeen(rows, (d) => d.label),
                LABEL_CHARS,
              ),
            },
          },
          yOffset: { field: 'metric_label', sort: [...LABELS] },
          x: { field: 'value', type: 'quantitative' as const, title: xTitle, scale: { domain } },
          color: kit.colorEncoding('metric_label', LABELS, COLORS, 'Column'),
          opacity: kit.filteredOpacity(PICK),
          description: kit.ARIA_ENCODING,
          tooltip: kit.resultTooltip(
            { field: 'row', title: 'Configuration' },
            { field: 'metric_label', title: 'Column' },
            { field: 'value_text', title: 'Value' },
            { field: 'unit', title: 'Unit' },
          ),
        },
      },
    ],
  };
}

/** InMind Table 2: keeping the memory visible (always-in-state) recovers most of the gap. */
export function inmindTable2Spec(rows: readonly Table2Datum[]): TopLevelSpec {
  return {
    $schema: kit.VL_SCHEMA,
    description:
      'InMind Table 2: naive and indirect scores (%) for the backbone with the memory in context, the best retrieval configuration and the always-in-state memory; right: indirect minus backbone (percentage points).',
    // The labels' width beside the bars: the panels stack when both do not fit (charts/fit-width).
    usermeta: { fit: { minPanel: 160, aside: 120 } },
    hconcat: [
      panel(rows, 'score', 'Score (%)', [0, 100]),
      panel(rows, 'delta', 'Δ Indirect − Backbone (pp)', [-100, 0]),
    ],
    resolve: { scale: { color: 'shared' } },
    config: CHART_CONFIG,
  };
}

export const INMIND_TABLE2_SQL = `SELECT "row" AS label,
  CASE metric WHEN 'naive' THEN 'Naive' WHEN 'application' THEN 'Indirect'
              ELSE 'Δ Indirect − Backbone' END AS metric_label,
  CASE WHEN metric = 'delta_indirect_backbone' THEN 'delta' ELSE 'score' END AS panel,
  ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 2'
ORDER BY source_line, list_position(['naive', 'application', 'delta_indirect_backbone'], metric)`;
