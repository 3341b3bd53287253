// LoCoMo-Conv: its files, tables, paper and Table 4 retrieval protocol, in one place.
import { parseJsonDocument } from '../../datasets/jsonl.ts';
import type { BenchmarkDef, FetchFirst } from '../benchmark-def.ts';
import { locomoConvComposedTables, locomoConvDialogTables } from './adapter.ts';
import { LOCOMO_CONV_CHARTS, LOCOMO_CONV_PAPER } from './charts.ts';
import { LOCOMO_CONV_PAPER_LINK } from './paper-link.ts';

async function loadLocomoConv(fetchFirst: FetchFirst) {
  const dialog = await fetchFirst(['locomo-conv-dialog', 'locomo-conv-dialog-sample0']);
  const d = locomoConvDialogTables(parseJsonDocument(dialog.text, dialog.label), dialog.label);
  const composed = await fetchFirst(['locomo-conv-multimem-full', 'locomo-conv-multimem']);
  const c = locomoConvComposedTables(
    parseJsonDocument(composed.text, composed.label),
    composed.label,
  );
  return {
    conversations: d.conversations,
    sessions: d.sessions,
    turns: d.turns,
    queries: [...d.queries, ...c.queries],
    extras: { locomo_conv_supportive: d.locomo_conv_supportive },
    files: { 'locomo-conv': dialog.label, 'locomo-conv composed': composed.label },
  };
}

// The home overview's Table 4 candidates: memory systems only, a variant row named after its system.
const RESPONSE_QUALITY = `paper = 'locomo-conv' AND "table" = 'Table 4' AND metric = 'response_quality'
    AND system NOT IN ('No Memory', 'Oracle')`;
const SYSTEM_AND_ROW = `system || CASE WHEN "row" IN ('+ Query Rewriting', 'w/ Response CoT') THEN ' ' || "row" ELSE '' END`;

const ours = "not a paper figure: MemLens's own view of this protocol";

export const LOCOMO_CONV = {
  id: 'locomo-conv',
  label: 'LoCoMo-Conv',
  paper: 'locomo-conv',
  page: { kind: 'paper', navLabel: 'LoCoMo-Conv' },
  dataset: {
    phase: 'benchmarks',
    required: false,
    sourceIds: [
      'locomo-conv-dialog',
      'locomo-conv-dialog-sample0',
      'locomo-conv-multimem-full',
      'locomo-conv-multimem',
    ],
    tables: ['conversations', 'sessions', 'turns', 'queries', 'locomo_conv_supportive'],
    load: loadLocomoConv,
  },
  protocols: [
    {
      id: 'locomo-conv',
      label: 'LoCoMo-Conv — Table 4 (recall@10)',
      run: {
        // Its builder and SQL load with the first run, kept out of the initial JS (budgets.json).
        build: async (reader) => (await import('./protocol.ts')).buildLocomoConv(reader),
        defaults: {
          benchmark: 'locomo-conv',
          k: 10,
          retriever: 'minilm',
          paperRetrievers: ['minilm'],
          queryPrefix: false,
          source: 'LoCoMo-Conv paper, Table 4 (Naive RAG, Retrieval Recall@10)',
          sentence:
            'Embeddings for every system: sentence-transformers/all-MiniLM-L6-v2; recall@10 against ' +
            'gold evidence turns',
          cite: 'LoCoMo-Conv README and Table 4',
        },
        recomputed:
          "LoCoMo-Conv's Table 4 retrieval: recall@10 of the gold evidence turns per query style, one index per conversation.",
        figures: {
          similarity: `${ours} (LoCoMo-Conv recall protocol)`,
          recall: 'LoCoMo-Conv paper, Table 4 (Retrieval Recall@10) protocol; PROTOCOL.md',
        },
        paper: LOCOMO_CONV_PAPER_LINK,
      },
    },
  ],
  results: { info: LOCOMO_CONV_PAPER, charts: LOCOMO_CONV_CHARTS },
  examples: [
    {
      id: 'locomo-conv-styles',
      title: 'LoCoMo-Conv: the same question asked in each style',
      sql: `SELECT style, count(*) AS queries, count(DISTINCT conv_id) AS conversations
FROM queries
WHERE dataset = 'locomo-conv'
GROUP BY style
ORDER BY queries DESC`,
    },
  ],
  overview: [
    {
      side: 'asked',
      measure: 'Dialog-style query: response quality',
      pct: 'value * 100',
      who: SYSTEM_AND_ROW,
      where: `${RESPONSE_QUALITY} AND split_part(variant, ' / ', 1) = 'dialog'`,
    },
    {
      side: 'used',
      measure: 'Implicit query: response quality',
      pct: 'value * 100',
      who: SYSTEM_AND_ROW,
      where: `${RESPONSE_QUALITY} AND split_part(variant, ' / ', 1) = 'implicit'`,
    },
  ],
} as const satisfies BenchmarkDef;
