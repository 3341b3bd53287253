import type { TopLevelSpec } from 'vega-lite';
import { rowSchema } from '../../query/row-schema.ts';
import { quoteString } from '../../query/sql-text.ts';
import type { PaperInfo } from '../../charts/paper-charts.ts';
import { CHART_CONFIG } from '../../charts/chart-kit.ts';
import * as kit from '../../charts/chart-kit.ts';

export interface Table4Datum extends kit.ResultDatum {
  label: string;
  kind: string;
  style: string;
  base_value: number;
  base_text: string;
}

export const table4Row = rowSchema({
  ...kit.RESULT_COLUMNS,
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
  kit.OKABE_ITO.blue,
  kit.OKABE_ITO.orange,
  kit.OKABE_ITO.purple,
  kit.OKABE_ITO.grey,
  kit.OKABE_ITO.green,
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
  return kit.resultTooltip(
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
  const color = kit.colorEncoding(
    'kind',
    kinds,
    kinds.map((k) => KIND_COLORS[KINDS.indexOf(k)]),
    'Row',
  );
  const hasReferences = rows.some((r) => REFERENCES.includes(r.kind));
  const common = {
    color,
    opacity: kit.filteredOpacity(PICK),
    description: kit.ARIA_ENCODING,
    tooltip: tooltip(),
  };
  return {
    $schema: kit.VL_SCHEMA,
    description: `LoCoMo-Conv Table 4, ${MEASURE_TITLE[measure].toLowerCase()} by query style for ${LOCOMO_SYSTEMS.length} memory systems: dots are the base rows, arrows the change with query rewriting${measure === 'response' ? ' or response chain-of-thought; vertical lines are the no-memory floor and the oracle ceiling' : ''}.`,
    data: { values: rows },
    transform: [
      kit.ariaTransform('datum.label', 'datum.column', 'datum.value_text'),
      {
        calculate: "datum.value >= datum.base_value ? 'triangle-right' : 'triangle-left'",
        as: 'head',
      },
    ],
    // Panels wrap into rows on a narrow card (one column on a phone) and fill a wide one.
    facet: { field: 'style', type: 'nominal', sort: [...LOCOMO_STYLES], title: null },
    columns: LOCOMO_STYLES.length,
    usermeta: { fit: { minPanel: 240, aside: 100 } },
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
          mark: { type: 'point', filled: true, size: 45, ...kit.DECORATION },
          encoding: {
            x: { field: 'value', ...x },
            y,
            yOffset,
            shape: { field: 'head', type: 'nominal', scale: null },
            color,
            opacity: kit.filteredOpacity(PICK),
          },
        },
        {
          params: [kit.legendFilter(PICK, 'kind')],
          transform: [{ filter: "datum.kind === 'Base'" }],
          mark: { type: 'point', filled: true, size: 50, tooltip: true },
          encoding: { x: { field: 'value', ...x }, y, yOffset, ...common },
        },
      ],
    },
    config: CHART_CONFIG,
  };
}

/* Table 4 over `results`: the rows each chart draws, one mark per row. */

const SQL_SYSTEMS = `['No Memory', 'Oracle', 'Naive RAG', 'A-MEM', 'AnchorMem', 'mem0', 'Memora']`;
const SQL_STYLES = `['dialog', 'implicit', 'counterfactual', 'composed']`;

/** Table 4 cells of one measure; each variant row carries its system's base value (its arrow's tail). */
function locomoTable4Sql(metric: 'recall@10' | 'response_quality'): string {
  return `WITH t4 AS (
  SELECT *, split_part(variant, ' / ', 1) AS style_key FROM results
  WHERE paper = 'locomo-conv' AND "table" = 'Table 4'
)
SELECT CASE WHEN r."row" IN ('+ Query Rewriting', 'w/ Response CoT') THEN r.system || ' ' || r."row"
            ELSE r.system END AS label,
  CASE WHEN r.system = 'No Memory' THEN 'No memory (floor)'
       WHEN r.system = 'Oracle' THEN 'Oracle (ceiling)'
       WHEN r."row" IN ('+ Query Rewriting', 'w/ Response CoT') THEN r."row"
       ELSE 'Base' END AS kind,
  upper(r.style_key[1]) || r.style_key[2:] AS style,
  b.value AS base_value, b.value_text AS base_text,
  r."row", r."column", r.system, r.variant, r.metric, r.value, r.value_text, r.unit, r.delta,
  r.paper, r."table", r.section, r.source_line, r.note
FROM t4 r JOIN t4 b ON b.system = r.system AND b.metric = r.metric AND b.variant = r.style_key
WHERE r.metric = ${quoteString(metric)}
ORDER BY list_position(${SQL_SYSTEMS}, r.system),
  list_position(['Base', '+ Query Rewriting', 'w/ Response CoT'], CASE WHEN r."row" IN ('+ Query Rewriting', 'w/ Response CoT') THEN r."row" ELSE 'Base' END),
  list_position(${SQL_STYLES}, r.style_key)`;
}

export const LOCOMO_TABLE4_RECALL_SQL = locomoTable4Sql('recall@10');
export const LOCOMO_TABLE4_RESPONSE_SQL = locomoTable4Sql('response_quality');

export const LOCOMO_CONV_PAPER: PaperInfo = {
  id: 'locomo-conv',
  label: 'LoCoMo-Conv',
  title:
    "When Users Don't Ask: Benchmarking Context-Driven Memory Retrieval in Conversational Agents",
  citation:
    "Chang and Chen. When Users Don't Ask: Benchmarking Context-Driven Memory Retrieval in Conversational Agents. arXiv:2609.03467.",
  textFile: 'locomo-conv.txt',
  intro:
    'LoCoMo-Conv rewrites each LoCoMo question the way people actually bring a memory up: as a direct "do you remember…" (dialog), as a situation that never asks (implicit), with a wrong premise to correct (counterfactual), or as a request needing two memories (composed). All five memory systems retrieve less, and answer worse, when the user does not ask (implicit) or needs two memories at once (composed) than when asked directly. Query rewriting lifts retrieval for raw-turn memories but barely moves the abstractive ones; a chain-of-thought step helps dialog and implicit answers and hurts counterfactual corrections.',
  teaser:
    'LoCoMo questions rewritten as conversation: asked directly, implied, mistaken, or combined.',
  notCharted: [
    'Tables 5–8, 13 and 15–20: only their captions survive in the text extraction; the few numbers the prose gives about them are in the CSV but not charted.',
    'Retrieval recall of No Memory, Oracle and the response-CoT rows is printed as "—" (not applicable).',
  ],
};

export const LOCOMO_CONV_CHARTS: readonly kit.ChartDef[] = [
  kit.defineChart({
    id: 'locomo-table4-recall',
    title: 'Table 4 (left): retrieval recall@10 by query style, with query rewriting',
    source: 'LoCoMo-Conv §5–§7.2, Table 4',
    sql: LOCOMO_TABLE4_RECALL_SQL,
    decode: table4Row,
    spec: (rows) => locomoTable4Spec(rows, 'recall'),
  }),
  kit.defineChart({
    id: 'locomo-table4-response',
    title:
      'Table 4 (right): response quality by query style, with query rewriting and response CoT',
    source: 'LoCoMo-Conv §6.2 and §7.4, Table 4',
    sql: LOCOMO_TABLE4_RESPONSE_SQL,
    decode: table4Row,
    spec: (rows) => locomoTable4Spec(rows, 'response'),
  }),
];
