import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import { CHART_CONFIG } from './chart-kit.ts';
import * as kit from './chart-kit.ts';
import { LABEL_CHARS, wrappedLabelExpr } from './label-wrap.ts';
import { quoteString } from '../query/sql-text.ts';

export interface Table1Datum extends kit.ResultDatum {
  label: string;
  group: string;
  metric: 'naive' | 'target_recall' | 'application';
  metric_label: string;
}

export const table1Row = rowSchema({
  ...kit.RESULT_COLUMNS,
  label: 'string',
  group: 'string',
  metric: ['naive', 'target_recall', 'application'],
  metric_label: 'string',
});

export const TABLE1_METRICS = ['Naive', 'Target Recall', 'Application'] as const;
export const EMBEDDING_CHOICES = ['both', 'MiniLM', 'text-embedding-3-large'] as const;
export type EmbeddingChoice = (typeof EMBEDDING_CHOICES)[number];

/** Colour-blind-safe (Okabe–Ito) metric colours, shared by every InMind chart. */
export const METRIC_COLORS = [kit.OKABE_ITO.blue, kit.OKABE_ITO.orange, kit.OKABE_ITO.green];

const PICK = 'metricPick';
const SCORE_X = {
  field: 'value',
  type: 'quantitative' as const,
  title: 'Score (%)',
  scale: { domain: [0, 100] },
};

/** Two short lines under the chart (a phone's width holds each). */
function backboneNote(backbone: readonly Table1Datum[]): string[] {
  const parts = backbone.map((d) => `${d.metric_label.toLowerCase()} ${d.value_text}%`);
  return parts.length
    ? ['Dashed: backbone with the memory in context', `(${parts.join(', ')})`]
    : [];
}

/**
 * InMind Table 1: bars per system grouped by metric; the backbone (memory in context) as dashed
 * lines, one per printed backbone cell. The rows are the query's, already filtered by embedding.
 */
export function inmindTable1Spec(rows: readonly Table1Datum[]): TopLevelSpec {
  const bars = rows.filter((d) => d.system !== 'Backbone');
  const backbone = rows.filter((d) => d.system === 'Backbone');
  const color = kit.colorEncoding('metric_label', TABLE1_METRICS, METRIC_COLORS, 'Metric');
  const tooltip = kit.resultTooltip(
    { field: 'row', title: 'System' },
    { field: 'group', title: 'Group' },
    { field: 'metric_label', title: 'Metric' },
    { field: 'value_text', title: 'Value (%)' },
  );
  const systems = kit.firstSeen(bars, (d) => d.label);
  const note = backboneNote(backbone);
  return {
    $schema: kit.VL_SCHEMA,
    description: `InMind Table 1: naive recall, target recall and application (%) for ${systems.length} memory systems; dashed lines: the backbone with the memory in context.`,
    ...kit.FULL_WIDTH,
    // Two short lines above the bars, inside the chart's bounds at any width.
    title: {
      text: note[0] ?? '',
      subtitle: note[1] ?? '',
      fontSize: 11,
      fontWeight: 'normal',
      color: '#444444',
      anchor: 'start',
      subtitleColor: '#444444',
      subtitleFontSize: 11,
    },
    // Systems down the side, so their names read at any width (a phone's included).
    height: { step: 10 },
    encoding: {
      x: { ...SCORE_X, axis: { orient: 'top', tickCount: 10 } },
    },
    layer: [
      {
        data: { name: 'bars', values: bars },
        params: [kit.legendFilter(PICK, 'metric_label')],
        transform: [kit.ariaTransform('datum.label', 'datum.metric_label', 'datum.value_text')],
        mark: { type: 'bar', tooltip: true },
        encoding: {
          y: {
            field: 'label',
            type: 'nominal',
            sort: systems,
            title: null,
            axis: {
              labelLimit: { expr: 'max(120, width * 0.4)' },
              labelExpr: wrappedLabelExpr(systems, LABEL_CHARS),
            },
          },
          yOffset: { field: 'metric_label', sort: [...TABLE1_METRICS] },
          color,
          opacity: kit.filteredOpacity(PICK),
          description: kit.ARIA_ENCODING,
          tooltip,
        },
      },
      {
        data: { name: 'backbone', values: backbone },
        transform: [
          kit.ariaTransform("'Backbone in context'", 'datum.metric_label', 'datum.value_text'),
        ],
        mark: { type: 'rule', strokeDash: [6, 4], strokeWidth: 2, tooltip: true },
        encoding: {
          // The score axis under the bars as well as over them: the chart is taller than a screen.
          x: { ...SCORE_X, axis: { orient: 'bottom', tickCount: 10 } },
          color,
          opacity: kit.filteredOpacity(PICK),
          description: kit.ARIA_ENCODING,
          tooltip,
        },
      },
    ],
    resolve: { axis: { x: 'independent' } },
    config: CHART_CONFIG,
  };
}

export const T1_GROUP = `regexp_extract(note, 'group: ([^;]+)', 1)`;
export const T1_LABEL = `CASE WHEN system = 'Backbone' THEN 'Backbone in context'
       WHEN ${T1_GROUP} = 'Naive RAG' THEN "row"
       ELSE system || ' (' || variant || ')' END`;

/** 'both' keeps every memory system; otherwise only those built on that embedding (baselines always). */
export function inmindEmbeddingFilter(embedding: string): string {
  if (embedding === 'both') return '';
  return ` AND (system = 'Backbone' OR ${T1_GROUP} = 'Naive RAG' OR variant = ${quoteString(embedding)})`;
}

/** Table 1 scores: bars per system and metric, then the backbone rows (application first) as lines. */
export function inmindTable1ScoresSql(embedding = 'both'): string {
  return `SELECT ${T1_LABEL} AS label, ${T1_GROUP} AS "group", "column" AS metric_label, ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1'
  AND metric IN ('naive', 'target_recall', 'application')${inmindEmbeddingFilter(embedding)}
ORDER BY system = 'Backbone', source_line,
  list_position(CASE WHEN system = 'Backbone' THEN ['application', 'target_recall']
                     ELSE ['naive', 'target_recall', 'application'] END, metric)`;
}
