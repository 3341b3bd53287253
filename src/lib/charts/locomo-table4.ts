import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../query/row-schema.ts';
import {
  ARIA_ENCODING,
  CHART_CONFIG,
  DECORATION,
  OKABE_ITO,
  VL_SCHEMA,
  ariaTransform,
  colorEncoding,
  filteredOpacity,
  legendFilter,
  resultTooltip,
  type ResultDatum,
  RESULT_COLUMNS,
} from './chart-kit.ts';

export interface Table4Datum extends ResultDatum {
  label: string;
  kind: string;
  style: string;
  base_value: number;
  base_text: string;
}

export const table4Row = rowSchema({
  ...RESULT_COLUMNS,
  label: 'string',
  kind: 'string',
  style: 'string',
  base_value: 'number',
  base_text: 'string',
});

export const LOCOMO_STYLES = ['Dialog', 'Implicit', 'Counterfactual', 'Composed'] as const;
export const LOCOMO_SYSTEMS = ['Naive RAG', 'A-MEM', 'AnchorMem', 'mem0', 'Memora'] as const;
const KINDS = [
  'Base',
  '+ Query Rewriting',
  'w/ Response CoT',
  'No memory (floor)',
  'Oracle (ceiling)',
] as const;
const KIND_COLORS = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.purple,
  OKABE_ITO.grey,
  OKABE_ITO.green,
];
const VARIANTS = ['+ Query Rewriting', 'w/ Response CoT'];
const REFERENCES = ['No memory (floor)', 'Oracle (ceiling)'];
const PICK = 'kindPick';

const oneOf = (values: readonly string[]) => `indexof(${JSON.stringify(values)}, datum.kind) >= 0`;

export type Table4Measure = 'recall' | 'response';

const MEASURE_TITLE: Record<Table4Measure, string> = {
  recall: 'Retrieval recall@10',
  response: 'Response quality',
};

function tooltip() {
  return resultTooltip(
    { field: 'label', title: 'System' },
    { field: 'style', title: 'Query style' },
    { field: 'value_text', title: 'Value' },
    { field: 'base_text', title: 'Base row' },
    { field: 'delta', title: 'Change printed' },
  );
}

/**
 * LoCoMo-Conv Table 4, one measure: a dot per system's base row, an arrow from it to the value with
 * query rewriting or response CoT, and (response only) the no-memory floor and oracle ceiling lines.
 */
export function locomoTable4Spec(
  rows: readonly Table4Datum[],
  measure: Table4Measure,
): TopLevelSpec {
  const kinds = KINDS.filter((k) => rows.some((r) => r.kind === k));
  const offsets = kinds.filter((k) => !REFERENCES.includes(k));
  const x = {
    type: 'quantitative' as const,
    scale: { domain: [0, 1] },
    title: MEASURE_TITLE[measure],
  };
  const y = { field: 'system', type: 'nominal' as const, sort: [...LOCOMO_SYSTEMS], title: null };
  const yOffset = { field: 'kind', scale: { domain: offsets } };
  const color = colorEncoding(
    'kind',
    kinds,
    kinds.map((k) => KIND_COLORS[KINDS.indexOf(k)]),
    'Row',
  );
  const hasReferences = rows.some((r) => REFERENCES.includes(r.kind));
  const common = {
    color,
    opacity: filteredOpacity(PICK),
    description: ARIA_ENCODING,
    tooltip: tooltip(),
  };
  return {
    $schema: VL_SCHEMA,
    description: `LoCoMo-Conv Table 4, ${MEASURE_TITLE[measure].toLowerCase()} by query style for ${LOCOMO_SYSTEMS.length} memory systems: dots are the base rows, arrows the change with query rewriting${measure === 'response' ? ' or response chain-of-thought; vertical lines are the no-memory floor and the oracle ceiling' : ''}.`,
    data: { values: rows },
    transform: [
      ariaTransform('datum.label', 'datum.column', 'datum.value_text'),
      {
        calculate: "datum.value >= datum.base_value ? 'triangle-right' : 'triangle-left'",
        as: 'head',
      },
    ],
    facet: { column: { field: 'style', type: 'nominal', sort: [...LOCOMO_STYLES], title: null } },
    spec: {
      width: 260,
      height: { step: 12 },
      layer: [
        // An empty layer still draws a mark group that axe reads as an image without a text alternative.
        ...(hasReferences
          ? [
              {
                transform: [{ filter: oneOf(REFERENCES) }],
                mark: { type: 'rule' as const, strokeDash: [4, 3], strokeWidth: 2, tooltip: true },
                encoding: { x: { field: 'value', ...x }, ...common },
              },
            ]
          : []),
        {
          transform: [{ filter: oneOf(VARIANTS) }],
          mark: { type: 'rule', strokeWidth: 2, tooltip: true },
          encoding: {
            x: { field: 'base_value', ...x },
            x2: { field: 'value' },
            y,
            yOffset,
            ...common,
          },
        },
        {
          transform: [{ filter: oneOf(VARIANTS) }],
          mark: { type: 'point', filled: true, size: 45, ...DECORATION },
          encoding: {
            x: { field: 'value', ...x },
            y,
            yOffset,
            shape: { field: 'head', type: 'nominal', scale: null },
            color,
            opacity: filteredOpacity(PICK),
          },
        },
        {
          params: [legendFilter(PICK, 'kind')],
          transform: [{ filter: "datum.kind === 'Base'" }],
          mark: { type: 'point', filled: true, size: 50, tooltip: true },
          encoding: { x: { field: 'value', ...x }, y, yOffset, ...common },
        },
      ],
    },
    config: CHART_CONFIG,
  };
}
