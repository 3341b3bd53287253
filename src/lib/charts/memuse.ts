import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import { CHART_CONFIG } from './chart-kit.ts';
import * as kit from './chart-kit.ts';

export interface ConditionDatum extends kit.ResultDatum {
  label: string;
  condition: string;
  metric_label: string;
}

const CONDITION_COLUMNS = {
  ...kit.RESULT_COLUMNS,
  label: 'string',
  condition: 'string',
  metric_label: 'string',
} as const;
export const conditionRow = rowSchema(CONDITION_COLUMNS);

export interface Table13Datum extends kit.ResultDatum {
  condition: string;
  metric_label: string;
  panel: 'capacity' | 'satisfaction';
  center: number;
}

export const table13Row = rowSchema({
  ...kit.RESULT_COLUMNS,
  condition: 'string',
  metric_label: 'string',
  panel: ['capacity', 'satisfaction'],
  center: 'number',
});

export interface Table14Datum extends kit.ResultDatum {
  condition: string;
  benchmark: string;
}

export const table14Row = rowSchema({
  ...kit.RESULT_COLUMNS,
  condition: 'string',
  benchmark: 'string',
});

const FIGURE1_METRICS = ['Direct QA', 'Natural Integration'] as const;
const TABLE13_METRICS = [
  'Existing QA accuracy',
  'Direct QA',
  'Reference',
  'Natural Integration',
  'Satisfaction (z)',
  'Satisfaction ± SE',
] as const;
const TABLE13_COLORS = [
  kit.OKABE_ITO.sky,
  kit.OKABE_ITO.blue,
  kit.OKABE_ITO.purple,
  kit.OKABE_ITO.vermillion,
  kit.OKABE_ITO.black,
  kit.OKABE_ITO.grey,
];
const BENCHMARKS = ['LUFY', 'LoCoMo', 'RealTalk', 'Avg.'] as const;
const BENCHMARK_COLORS = [
  kit.OKABE_ITO.orange,
  kit.OKABE_ITO.green,
  kit.OKABE_ITO.sky,
  kit.OKABE_ITO.black,
];

function conditionAxis(
  rows: readonly { condition: string }[],
  title: string | null = 'Memory condition',
) {
  return {
    field: 'condition',
    type: 'nominal' as const,
    sort: kit.firstSeen(rows, (d) => d.condition),
    title,
    axis: { labelAngle: 0 },
  };
}

/** Lines join conditions of one family only: LC-10 → LC-100, RAG-10 → RAG-50. */
const FAMILY = {
  calculate: "indexof(datum.condition, '-') > 0 ? split(datum.condition, '-')[0] : datum.condition",
  as: 'family',
};

const percentAxis = (title: string) => ({
  field: 'value',
  type: 'quantitative' as const,
  title,
  scale: { domain: [0, 100] },
});

/**
 * MemUse Figure 1: Direct QA against Natural Integration per memory condition. The text prints the
 * numbers only in Table 18 (the caption says so); the query reads the `Figure 1` rows taken from it.
 */
export function memuseFigure1Spec(rows: readonly ConditionDatum[]): TopLevelSpec {
  const models = kit.firstSeen(rows, (d) => d.variant).join(', ');
  return {
    $schema: kit.VL_SCHEMA,
    description: `MemUse Figure 1 (values from Table 18): Direct QA and Natural Integration (%) for ${models} across ${kit.firstSeen(rows, (d) => d.condition).length} memory conditions; a grey line joins the two numbers of each condition.`,
    ...kit.FULL_WIDTH,
    height: 280,
    data: { values: rows },
    encoding: { x: conditionAxis(rows, `Memory condition (${models})`) },
    layer: [
      {
        transform: [{ pivot: 'metric_label', value: 'value', groupby: ['condition'] }],
        mark: { type: 'rule', color: kit.OKABE_ITO.grey, strokeWidth: 2, ...kit.DECORATION },
        encoding: {
          y: { field: 'Direct QA', type: 'quantitative' },
          y2: { field: 'Natural Integration' },
        },
      },
      {
        ...kit.pickedLayer('fig1Pick', 'metric_label', 'label'),
        mark: { type: 'point', filled: true, size: 90, tooltip: true },
        encoding: {
          y: percentAxis('Score (%)'),
          color: kit.colorEncoding(
            'metric_label',
            FIGURE1_METRICS,
            [kit.OKABE_ITO.blue, kit.OKABE_ITO.vermillion],
            'Metric',
          ),
          ...kit.pickedMarks(
            'fig1Pick',
            { field: 'label', title: 'Model / condition' },
            { field: 'metric_label', title: 'Metric' },
            { field: 'value_text', title: 'Value (%)' },
          ),
        },
      },
    ],
    config: CHART_CONFIG,
  };
}

function table13Capacity(
  rows: readonly Table13Datum[],
  color: ReturnType<typeof kit.colorEncoding>,
) {
  const shown = rows.filter((d) => d.panel === 'capacity');
  const tooltip = kit.resultTooltip(
    { field: 'condition', title: 'Condition' },
    { field: 'metric_label', title: 'Measure' },
    { field: 'value_text', title: 'Value (%)' },
  );
  return {
    width: 600,
    height: 240,
    data: { values: shown },
    encoding: { x: conditionAxis(shown), color, opacity: kit.filteredOpacity('t13Pick') },
    layer: [
      {
        transform: [FAMILY],
        mark: { type: 'line' as const, strokeWidth: 1.5, ...kit.DECORATION },
        encoding: { y: percentAxis('Accuracy / integration (%)'), detail: { field: 'family' } },
      },
      {
        ...kit.pickedLayer('t13Pick', 'metric_label', 'condition'),
        mark: { type: 'point' as const, filled: true, size: 60, tooltip: true },
        encoding: {
          y: percentAxis('Accuracy / integration (%)'),
          description: kit.ARIA_ENCODING,
          tooltip,
        },
      },
    ],
  };
}

function table13Satisfaction(
  rows: readonly Table13Datum[],
  color: ReturnType<typeof kit.colorEncoding>,
) {
  const shown = rows.filter((d) => d.panel === 'satisfaction');
  const y = {
    type: 'quantitative' as const,
    title: 'Satisfaction (z ± SE)',
    scale: { domain: [-0.3, 0.3] },
  };
  const tooltip = kit.resultTooltip(
    { field: 'condition', title: 'Condition' },
    { field: 'metric_label', title: 'Measure' },
    { field: 'value_text', title: 'Value (z)' },
  );
  const common = {
    color,
    opacity: kit.filteredOpacity('t13Pick'),
    description: kit.ARIA_ENCODING,
    tooltip,
  };
  return {
    width: 380,
    height: 240,
    data: { values: shown },
    transform: [
      kit.ariaTransform('datum.condition', 'datum.metric_label', 'datum.value_text'),
      { calculate: 'datum.center - datum.value', as: 'low' },
      { calculate: 'datum.center + datum.value', as: 'high' },
    ],
    encoding: { x: conditionAxis(shown) },
    layer: [
      {
        mark: { type: 'rule' as const, color: '#666666', ...kit.DECORATION },
        encoding: { y: { datum: 0, ...y } },
      },
      {
        transform: [{ filter: "datum.metric === 'satisfaction_z_se'" }],
        mark: { type: 'rule' as const, strokeWidth: 2, tooltip: true },
        encoding: { y: { field: 'low', ...y }, y2: { field: 'high' }, ...common },
      },
      {
        transform: [{ filter: "datum.metric === 'satisfaction_z'" }],
        mark: { type: 'point' as const, filled: true, size: 60, tooltip: true },
        encoding: { y: { field: 'value', ...y }, ...common },
      },
    ],
  };
}

/** MemUse Table 13: capacity measures rise with the memory condition; satisfaction stays flat. */
export function memuseTable13Spec(rows: readonly Table13Datum[]): TopLevelSpec {
  const color = kit.colorEncoding('metric_label', TABLE13_METRICS, TABLE13_COLORS, 'Measure');
  return {
    $schema: kit.VL_SCHEMA,
    description: `MemUse Table 13 (GPT-4.1-mini): existing-benchmark QA accuracy, Direct QA, Reference and Natural Integration (%) per memory condition, and per-condition user satisfaction (z ± SE); ${kit.firstSeen(rows, (d) => d.condition).length} conditions printed.`,
    hconcat: [table13Capacity(rows, color), table13Satisfaction(rows, color)],
    resolve: { scale: { color: 'shared' } },
    config: CHART_CONFIG,
  };
}

/** MemUse Table 14: QA accuracy on three existing benchmarks (and their average) per condition. */
export function memuseTable14Spec(rows: readonly Table14Datum[]): TopLevelSpec {
  const y = percentAxis('QA accuracy (%)');
  return {
    $schema: kit.VL_SCHEMA,
    description: `MemUse Table 14: QA accuracy (%) on LUFY, LoCoMo and RealTalk and their average for ${kit.firstSeen(rows, (d) => d.condition).length} memory conditions.`,
    ...kit.FULL_WIDTH,
    height: 260,
    data: { values: rows },
    encoding: {
      x: conditionAxis(rows),
      color: kit.colorEncoding('benchmark', BENCHMARKS, BENCHMARK_COLORS, 'Benchmark'),
      opacity: kit.filteredOpacity('t14Pick'),
    },
    layer: [
      {
        transform: [FAMILY],
        mark: { type: 'line', strokeWidth: 1.5, ...kit.DECORATION },
        encoding: { y, detail: { field: 'family' } },
      },
      {
        ...kit.pickedLayer('t14Pick', 'benchmark', 'condition'),
        mark: { type: 'point', filled: true, size: 60, tooltip: true },
        encoding: {
          y,
          ...kit.spokenTooltip(
            { field: 'condition', title: 'Condition' },
            { field: 'benchmark', title: 'Benchmark' },
            { field: 'value_text', title: 'Accuracy (%)' },
          ),
        },
      },
    ],
    config: CHART_CONFIG,
  };
}

const MEMUSE_CONDITIONS = `['Summary', 'LC-10', 'LC-50', 'LC-100', 'RAG-10', 'RAG-50', 'RAG-100']`;

/** The text prints no Figure 1 numbers; its caption points to Table 18, whose rows these are. */
export const MEMUSE_FIGURE1_SQL = `SELECT "row" AS label, system AS condition, variant AS model,
  "column" AS metric_label, ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'memuse' AND "table" = 'Figure 1'
ORDER BY list_position(${MEMUSE_CONDITIONS}, system), list_position(['direct_qa', 'natural_integration'], metric)`;

/** Table 13 body: capacity measures per condition, and satisfaction z with its SE (centred on z). */
export const MEMUSE_TABLE13_SQL = `WITH t AS (
  SELECT * FROM results WHERE paper = 'memuse' AND "table" = 'Table 13' AND "row" <> '(caption)'
)
SELECT t.system AS condition,
  CASE t.metric WHEN 'existing_qa_acc' THEN 'Existing QA accuracy'
                WHEN 'direct_qa' THEN 'Direct QA'
                WHEN 'reference' THEN 'Reference'
                WHEN 'natural_integration' THEN 'Natural Integration'
                WHEN 'satisfaction_z' THEN 'Satisfaction (z)'
                ELSE 'Satisfaction ± SE' END AS metric_label,
  CASE WHEN t.metric LIKE 'satisfaction%' THEN 'satisfaction' ELSE 'capacity' END AS panel,
  z.value AS center,
  t."row", t."column", t.system, t.variant, t.metric, t.value, t.value_text, t.unit, t.delta,
  t.paper, t."table", t.section, t.source_line, t.note
FROM t LEFT JOIN t z ON z.system = t.system AND z.metric = 'satisfaction_z'
ORDER BY list_position(${MEMUSE_CONDITIONS}, t.system),
  list_position(['existing_qa_acc', 'direct_qa', 'reference', 'natural_integration', 'satisfaction_z', 'satisfaction_z_se'], t.metric)`;

export const MEMUSE_TABLE14_SQL = `SELECT system AS condition, variant AS benchmark, ${kit.RESULT_FIELDS}
FROM results
WHERE paper = 'memuse' AND "table" = 'Table 14'
ORDER BY list_position(${MEMUSE_CONDITIONS}, system), list_position(['LUFY', 'LoCoMo', 'RealTalk', 'Avg.'], variant)`;
