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
  RESULT_FIELDS,
} from './chart-kit.ts';
import { quoteString } from '../query/sql-text.ts';

export interface Table1Datum extends ResultDatum {
  label: string;
  group: string;
  metric: 'naive' | 'target_recall' | 'application';
  metric_label: string;
}

export const table1Row = rowSchema({
  ...RESULT_COLUMNS,
  label: 'string',
  group: 'string',
  metric: ['naive', 'target_recall', 'application'],
  metric_label: 'string',
});

export const TABLE1_METRICS = ['Naive', 'Target Recall', 'Application'] as const;
export const EMBEDDING_CHOICES = ['both', 'MiniLM', 'text-embedding-3-large'] as const;
export type EmbeddingChoice = (typeof EMBEDDING_CHOICES)[number];

/** Colour-blind-safe (Okabe–Ito) metric colours, shared by every InMind chart. */
export const METRIC_COLORS = [OKABE_ITO.blue, OKABE_ITO.orange, OKABE_ITO.green];

const PICK = 'metricPick';

function backboneNote(backbone: readonly Table1Datum[]): string {
  const parts = backbone.map((d) => `${d.metric_label.toLowerCase()} ${d.value_text}%`);
  return parts.length ? `Dashed: backbone with the memory in context (${parts.join(', ')})` : '';
}

/**
 * InMind Table 1: bars per system grouped by metric; the backbone (memory in context) as dashed
 * lines, one per printed backbone cell. The rows are the query's, already filtered by embedding.
 */
export function inmindTable1Spec(rows: readonly Table1Datum[]): TopLevelSpec {
  const bars = rows.filter((d) => d.system !== 'Backbone');
  const backbone = rows.filter((d) => d.system === 'Backbone');
  const color = colorEncoding('metric_label', TABLE1_METRICS, METRIC_COLORS, 'Metric');
  const tooltip = resultTooltip(
    { field: 'row', title: 'System' },
    { field: 'group', title: 'Group' },
    { field: 'metric_label', title: 'Metric' },
    { field: 'value_text', title: 'Value (%)' },
  );
  return {
    $schema: VL_SCHEMA,
    description: `InMind Table 1: naive recall, target recall and application (%) for ${firstSeen(bars, (d) => d.label).length} memory systems; dashed lines: the backbone with the memory in context.`,
    ...FULL_WIDTH,
    height: 300,
    encoding: {
      y: { field: 'value', type: 'quantitative', title: 'Score (%)', scale: { domain: [0, 100] } },
    },
    layer: [
      {
        data: { name: 'bars', values: bars },
        params: [legendFilter(PICK, 'metric_label')],
        transform: [ariaTransform('datum.label', 'datum.metric_label', 'datum.value_text')],
        mark: { type: 'bar', tooltip: true },
        encoding: {
          x: {
            field: 'label',
            type: 'nominal',
            sort: firstSeen(bars, (d) => d.label),
            title: null,
            axis: { labelAngle: -40, labelLimit: 220 },
          },
          xOffset: { field: 'metric_label', sort: [...TABLE1_METRICS] },
          color,
          opacity: filteredOpacity(PICK),
          description: ARIA_ENCODING,
          tooltip,
        },
      },
      {
        data: { name: 'backbone', values: backbone },
        transform: [
          ariaTransform("'Backbone in context'", 'datum.metric_label', 'datum.value_text'),
        ],
        mark: { type: 'rule', strokeDash: [6, 4], strokeWidth: 2, tooltip: true },
        encoding: { color, opacity: filteredOpacity(PICK), description: ARIA_ENCODING, tooltip },
      },
      {
        data: { values: [{ text: backboneNote(backbone) }] },
        mark: {
          type: 'text',
          align: 'right',
          baseline: 'top',
          x: 'width',
          color: '#444444',
          ...DECORATION,
        },
        encoding: { text: { field: 'text' }, y: { value: -28 } },
      },
    ],
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
  return `SELECT ${T1_LABEL} AS label, ${T1_GROUP} AS "group", "column" AS metric_label, ${RESULT_FIELDS}
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1'
  AND metric IN ('naive', 'target_recall', 'application')${inmindEmbeddingFilter(embedding)}
ORDER BY system = 'Backbone', source_line,
  list_position(CASE WHEN system = 'Backbone' THEN ['application', 'target_recall']
                     ELSE ['naive', 'target_recall', 'application'] END, metric)`;
}
