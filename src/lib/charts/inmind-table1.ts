import type { TopLevelSpec } from 'vega-lite';
import { provenanceTooltip } from './provenance.ts';

export interface Table1Datum {
  label: string;
  row: string;
  system: string;
  group: string;
  variant: string;
  metric: 'naive' | 'target_recall' | 'application';
  metric_label: string;
  value: number;
  value_text: string;
  unit: string;
  paper: string;
  table: string;
  section: string;
  source_line: number;
  note: string;
}

export const TABLE1_METRICS = ['Naive', 'Target Recall', 'Application'] as const;
export const EMBEDDING_CHOICES = ['both', 'MiniLM', 'text-embedding-3-large'] as const;
export type EmbeddingChoice = (typeof EMBEDDING_CHOICES)[number];

/** Colour-blind-safe (Okabe–Ito) metric colours, shared by every InMind chart. */
export const METRIC_COLORS = ['#0072B2', '#E69F00', '#009E73'];

/**
 * InMind Table 1: bars per system grouped by metric; the in-context backbone as a reference line.
 * The embedding choice filters the memory systems; Naive RAG baselines always show.
 */
export function inmindTable1Spec(
  bars: Table1Datum[],
  backbone: Table1Datum | null,
  embedding: EmbeddingChoice = 'both',
): TopLevelSpec {
  const shown = bars.filter(
    (d) => embedding === 'both' || d.group === 'Naive RAG' || d.variant === embedding,
  );
  const labels = [...new Set(shown.map((d) => d.label))];
  const layers: NonNullable<Extract<TopLevelSpec, { layer: unknown }>['layer']> = [
    {
      data: { name: 'bars', values: shown },
      params: [
        { name: 'metricPick', select: { type: 'point', fields: ['metric_label'] }, bind: 'legend' },
      ],
      transform: [
        {
          calculate: "datum.label + ' | ' + datum.metric_label + ' | ' + datum.value_text",
          as: 'aria',
        },
      ],
      mark: { type: 'bar', tooltip: true },
      encoding: {
        x: {
          field: 'label',
          type: 'nominal',
          sort: labels,
          title: null,
          axis: { labelAngle: -40, labelLimit: 220 },
        },
        xOffset: { field: 'metric_label', sort: [...TABLE1_METRICS] },
        y: {
          field: 'value',
          type: 'quantitative',
          title: 'Score (%)',
          scale: { domain: [0, 100] },
        },
        color: {
          field: 'metric_label',
          type: 'nominal',
          sort: [...TABLE1_METRICS],
          scale: { domain: [...TABLE1_METRICS], range: METRIC_COLORS },
          legend: { title: 'Metric (click to filter)', orient: 'top' },
        },
        opacity: { condition: { param: 'metricPick', value: 1 }, value: 0.12 },
        description: { field: 'aria', type: 'nominal' },
        tooltip: [
          { field: 'row', title: 'System' },
          { field: 'group', title: 'Group' },
          { field: 'metric_label', title: 'Metric' },
          { field: 'value_text', title: 'Value (%)' },
          ...provenanceTooltip(),
        ],
      },
    },
  ];
  if (backbone) {
    layers.push({
      data: { name: 'backbone', values: [backbone] },
      transform: [
        {
          calculate: "'Backbone in context | ' + datum.metric_label + ' | ' + datum.value_text",
          as: 'aria',
        },
      ],
      layer: [
        {
          mark: {
            type: 'rule',
            strokeDash: [6, 4],
            strokeWidth: 2,
            color: '#CC79A7',
            tooltip: true,
          },
          encoding: {
            y: { field: 'value', type: 'quantitative' },
            description: { field: 'aria', type: 'nominal' },
            tooltip: [
              { field: 'row', title: 'System' },
              { field: 'metric_label', title: 'Metric' },
              { field: 'value_text', title: 'Value (%)' },
              ...provenanceTooltip(),
            ],
          },
        },
        {
          mark: { type: 'text', align: 'right', dy: -6, color: '#CC79A7', x: 'width' },
          encoding: {
            y: { field: 'value', type: 'quantitative' },
            text: {
              value: `Backbone with the memory in context: ${backbone.value_text}% application`,
            },
          },
        },
      ],
    });
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description:
      'InMind Table 1: naive recall, target recall and application (%) per memory system; dashed line: backbone with the memory in context.',
    width: 960,
    height: 300,
    layer: layers,
    config: { font: 'system-ui, sans-serif' },
  } as TopLevelSpec;
}
