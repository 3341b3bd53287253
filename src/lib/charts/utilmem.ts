import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import { CHART_CONFIG } from './chart-kit.ts';
import * as kit from './chart-kit.ts';

export interface SystemDatum extends kit.ResultDatum {
  label: string;
  measure: 'NR' | 'DR';
  bound: 'value' | 'range lower' | 'range upper';
}

export const systemRow = rowSchema({
  ...kit.RESULT_COLUMNS,
  label: 'string',
  measure: ['NR', 'DR'],
  bound: ['value', 'range lower', 'range upper'],
});

export interface NoiseDatum extends kit.ResultDatum {
  label: string;
  measure: string;
  pct: number;
}

export const noiseRow = rowSchema({
  ...kit.RESULT_COLUMNS,
  label: 'string',
  measure: 'string',
  pct: 'number',
});

export interface NoiseKDatum extends kit.ResultDatum {
  label: string;
  marker: string;
}

export const noiseKRow = rowSchema({ ...kit.RESULT_COLUMNS, label: 'string', marker: 'string' });

const MEASURES = ['NR', 'DR'] as const;
const MEASURE_COLORS = [kit.OKABE_ITO.blue, kit.OKABE_ITO.vermillion];
const MEASURE_TITLE = 'Measure';
/** Short under the axis; what NR and DR mean goes in two lines above the plot (a phone's width holds each). */
const PERCENT_TITLE = 'NR, DR (%)';
const MEASURE_NOTE = {
  text: 'NR: quality kept (higher is better)',
  subtitle: 'DR: answers degraded (lower is better)',
  fontSize: 11,
  fontWeight: 'normal' as const,
  color: '#444444',
  anchor: 'start' as const,
  subtitleColor: '#444444',
  subtitleFontSize: 11,
};

const percent = (field: string, title: string) => ({
  field,
  type: 'quantitative' as const,
  title,
  scale: { domain: [0, 100] },
});

/**
 * UtilMem §5.1: NR and DR per memory system. MemOS, LangMem and EverMemOS are printed only as a
 * joint range, drawn as its two ends joined by a line.
 */
export function utilmemSystemsSpec(rows: readonly SystemDatum[]): TopLevelSpec {
  const y = {
    field: 'label',
    type: 'nominal' as const,
    sort: kit.firstSeen(rows, (d) => d.label),
    title: null,
    // Long group names give way to the bars on a narrow card (the tooltip has them whole).
    axis: { labelLimit: { expr: 'max(120, width * 0.4)' } },
  };
  const yOffset = { field: 'measure', sort: [...MEASURES] };
  const x = percent('value', PERCENT_TITLE);
  const color = kit.colorEncoding('measure', MEASURES, MEASURE_COLORS, MEASURE_TITLE);
  return {
    $schema: kit.VL_SCHEMA,
    description: `UtilMem §5.1 (summary): Normalized Robustness (NR) and Degradation Rate (DR) for ${kit.firstSeen(rows, (d) => d.label).length} memory systems or system groups; a range is printed for MemOS, LangMem and EverMemOS.`,
    ...kit.FULL_WIDTH,
    title: MEASURE_NOTE,
    height: Math.max(1, kit.firstSeen(rows, (d) => d.label).length) * 20,
    data: { values: rows },
    encoding: { y, yOffset, color, opacity: kit.filteredOpacity('sysPick') },
    layer: [
      {
        transform: [
          { filter: "datum.bound !== 'value'" },
          { pivot: 'bound', value: 'value', groupby: ['label', 'measure'] },
        ],
        mark: { type: 'rule', strokeWidth: 3, ...kit.DECORATION },
        encoding: { x: percent('range lower', PERCENT_TITLE), x2: { field: 'range upper' } },
      },
      {
        ...kit.pickedLayer('sysPick', 'measure', 'label', 'column'),
        mark: { type: 'point', filled: true, size: 70, tooltip: true },
        encoding: {
          x,
          shape: {
            field: 'bound',
            type: 'nominal',
            scale: {
              domain: ['value', 'range lower', 'range upper'],
              range: ['circle', 'triangle-left', 'triangle-right'],
            },
            // Below the plot: beside the colour legend it was drawn past a phone's chart.
            legend: { title: 'Printed as', orient: 'bottom', columns: kit.NARROW_LEGEND_COLUMNS },
          },
          ...kit.spokenTooltip(
            { field: 'row', title: 'System' },
            { field: 'column', title: 'Measure' },
            { field: 'value_text', title: 'Value' },
          ),
        },
      },
    ],
    config: CHART_CONFIG,
  };
}

/** UtilMem §5.3: under strong noise at k = 40, NR and DR per backbone while recall@k stays 1.0. */
export function utilmemNoiseK40Spec(rows: readonly NoiseDatum[]): TopLevelSpec {
  const bars = rows.filter((d) => d.measure !== 'recall@k');
  const recall = rows.filter((d) => d.measure === 'recall@k');
  const tooltip = kit.resultTooltip(
    { field: 'label', title: 'Backbone' },
    { field: 'column', title: 'Measure' },
    { field: 'value_text', title: 'Value as printed' },
    { field: 'unit', title: 'Unit' },
  );
  const y = percent('pct', 'NR, DR and recall@k × 100 (%)');
  return {
    $schema: kit.VL_SCHEMA,
    description: `UtilMem §5.3 (summary): NR and DR of ${kit.firstSeen(bars, (d) => d.label).length} Qwen3 backbones under strong noise at k = 40; the line marks recall@k, which stays at 1.0.`,
    ...kit.FULL_WIDTH,
    height: 260,
    layer: [
      {
        data: { values: bars },
        ...kit.pickedLayer('noisePick', 'measure', 'label', 'column'),
        mark: { type: 'bar', tooltip: true },
        encoding: {
          x: {
            field: 'label',
            type: 'nominal',
            sort: kit.firstSeen(bars, (d) => d.label),
            title: null,
            axis: { labelAngle: 0 },
          },
          xOffset: { field: 'measure', sort: [...MEASURES] },
          y,
          color: kit.colorEncoding('measure', MEASURES, MEASURE_COLORS, MEASURE_TITLE),
          opacity: kit.filteredOpacity('noisePick'),
          description: kit.ARIA_ENCODING,
          tooltip,
        },
      },
      {
        data: { values: recall },
        transform: [kit.ariaTransform('datum.label', 'datum.column', 'datum.value_text')],
        mark: {
          type: 'rule',
          strokeDash: [6, 4],
          strokeWidth: 2,
          color: kit.OKABE_ITO.black,
          tooltip: true,
        },
        encoding: { y, description: kit.ARIA_ENCODING, tooltip },
      },
      {
        data: { values: recall },
        mark: { type: 'text', align: 'right', dy: -6, x: 'width', ...kit.DECORATION },
        encoding: { y, text: { value: 'recall@k (evidence retrieved) = 1.0' } },
      },
    ],
    config: CHART_CONFIG,
  };
}

const MARKERS = [
  'k75%',
  'marginal loss peaks within',
  'loss saturates after',
  'NR and DR reported at',
] as const;
const MARKER_COLORS = [
  kit.OKABE_ITO.purple,
  kit.OKABE_ITO.orange,
  kit.OKABE_ITO.green,
  kit.OKABE_ITO.black,
];

/**
 * UtilMem §5.3: the summary prints no NR-vs-k curve, only positions on the k axis: k75% per
 * backbone, the band where marginal loss peaks, where it saturates, and the k of the reported values.
 */
export function utilmemNoiseKSpec(rows: readonly NoiseKDatum[]): TopLevelSpec {
  const x = {
    field: 'value',
    type: 'quantitative' as const,
    title: 'k (retrieved items, log scale)',
    scale: { type: 'log' as const, domain: [1, 50] },
  };
  const color = kit.colorEncoding('marker', MARKERS, MARKER_COLORS, 'Printed position');
  const tooltip = kit.resultTooltip(
    { field: 'label', title: 'What' },
    { field: 'column', title: 'Printed as' },
    { field: 'value_text', title: 'k' },
  );
  const common = {
    color,
    opacity: kit.filteredOpacity('kPick'),
    description: kit.ARIA_ENCODING,
    tooltip,
  };
  const backbones = kit.firstSeen(
    rows.filter((d) => d.metric === 'k75'),
    (d) => d.label,
  );
  return {
    $schema: kit.VL_SCHEMA,
    description: `UtilMem §5.3 (summary), strong noise: k75% for ${backbones.length} backbones, the k range where marginal NR loss peaks, the k after which it saturates, and the k = 40 at which NR and DR are reported.`,
    ...kit.FULL_WIDTH,
    height: 160,
    data: { values: rows },
    transform: [kit.ariaTransform('datum.label', 'datum.column', 'datum.value_text')],
    layer: [
      {
        transform: [{ filter: "datum.metric !== 'k75'" }],
        mark: { type: 'rule', strokeDash: [5, 3], strokeWidth: 2, tooltip: true },
        encoding: { x, ...common },
      },
      {
        params: [kit.legendFilter('kPick', 'marker')],
        transform: [{ filter: "datum.metric === 'k75'" }],
        mark: { type: 'point', filled: true, size: 80, tooltip: true },
        encoding: {
          x,
          y: { field: 'label', type: 'nominal', sort: backbones, title: null },
          ...common,
        },
      },
    ],
    config: CHART_CONFIG,
  };
}

const UTILMEM_BOUND = `CASE WHEN metric LIKE '%range_min' THEN 'range lower'
       WHEN metric LIKE '%range_max' THEN 'range upper' ELSE 'value' END`;

export const UTILMEM_SYSTEMS_SQL = `SELECT "row" AS label, upper(split_part(metric, '_', 1)) AS measure,
  ${UTILMEM_BOUND} AS bound, ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'utilmem' AND "table" = 'Summary: §5.1 system results'
ORDER BY source_line, "row", metric LIKE 'dr%', value`;

/** Strong noise at k = 40: NR and DR per backbone, and the recall@k they share (a fraction, shown as %). */
export const UTILMEM_NOISE_K40_SQL = `SELECT CASE WHEN system = '' THEN 'All three backbones' ELSE system END AS label,
  CASE metric WHEN 'recall_at_k' THEN 'recall@k' ELSE upper(metric) END AS measure,
  CASE WHEN unit = 'fraction' THEN value * 100 ELSE value END AS pct,
  ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'utilmem' AND variant = 'strong noise, k=40'
ORDER BY metric = 'recall_at_k', list_position(['Qwen3-30B', 'Qwen3-235B', 'Qwen3-Max'], system), metric DESC`;

/** What the summary prints about the NR-vs-k curve under strong noise: positions on the k axis. */
export const UTILMEM_NOISE_K_SQL = `SELECT CASE WHEN metric = 'k75' THEN system ELSE "row" END AS label,
  CASE metric WHEN 'k75' THEN 'k75%'
              WHEN 'k' THEN 'NR and DR reported at'
              WHEN 'saturation_k' THEN 'loss saturates after'
              ELSE 'marginal loss peaks within' END AS marker,
  ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'utilmem' AND "table" = 'Summary: §5.3 noise sensitivity' AND variant = 'strong noise'
ORDER BY metric <> 'k75', value`;
