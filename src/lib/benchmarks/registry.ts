// The benchmarks MemLens covers. Adding one is adding an entry here (plus its adapter): the nav,
// the Reproduce page, the CLI and the data loader read this list.
import { parseJsonDocument } from '../datasets/jsonl.ts';
import { locomoTables } from '../datasets/locomo.ts';
import { locomoPlusTables } from '../datasets/locomo-plus.ts';
import { locomoConvComposedTables, locomoConvDialogTables } from '../datasets/locomo-conv.ts';
import { memuseTables } from '../datasets/memuse.ts';
import type { BenchmarkDef, FetchFirst } from './benchmark-def.ts';

async function loadLocomo(fetchFirst: FetchFirst) {
  const f = await fetchFirst(['locomo']);
  const t = locomoTables(parseJsonDocument(f.text, f.label), f.label);
  return {
    ...t,
    extras: {
      locomo_observations: t.locomo_observations,
      locomo_session_summaries: t.locomo_session_summaries,
    },
    files: { locomo: f.label },
  };
}

async function loadLocomoPlus(fetchFirst: FetchFirst) {
  const f = await fetchFirst(['locomo-plus']);
  const t = locomoPlusTables(parseJsonDocument(f.text, f.label), f.label);
  return {
    turns: t.turns,
    queries: t.queries,
    extras: { locomo_plus_items: t.locomo_plus_items },
    files: { 'locomo-plus': f.label },
  };
}

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

async function loadMemuse(fetchFirst: FetchFirst) {
  const f = await fetchFirst(['memuse-instances', 'memuse-instances-first3']);
  const t = memuseTables(f.text, f.label);
  return {
    ...t,
    extras: {
      memuse_sub_questions: t.memuse_sub_questions,
      memuse_instances: t.memuse_instances,
    },
    files: { memuse: f.label },
  };
}

export const BENCHMARK_DEFS: readonly BenchmarkDef[] = [
  {
    id: 'inmind',
    label: 'InMind',
    paper: 'inmind',
    page: { kind: 'inmind', navLabel: 'InMind' },
    dataset: {
      phase: 'core',
      required: true,
      sourceIds: [
        'inmind-tasks',
        'inmind-background',
        'inmind-manifest',
        'inmind-submission-schema',
      ],
      tables: ['inmind_tasks', 'lme_background'],
    },
    protocols: [
      { id: 'inmind', label: 'InMind — Naive RAG (Table 1, App. 15.3)' },
      { id: 'inmind-figure4', label: 'InMind — Figure 4 (indirect query vs user_message)' },
    ],
  },
  {
    id: 'locomo',
    label: 'LoCoMo',
    paper: null,
    page: null,
    dataset: {
      phase: 'benchmarks',
      required: true,
      sourceIds: ['locomo'],
      tables: ['conversations', 'sessions', 'turns', 'queries', 'locomo_observations'],
      load: loadLocomo,
    },
    protocols: [{ id: 'locomo', label: 'LoCoMo — Figure 4 (question vs evidence turns)' }],
  },
  {
    id: 'locomo-plus',
    label: 'LoCoMo-Plus',
    paper: null,
    page: null,
    dataset: {
      phase: 'benchmarks',
      required: true,
      sourceIds: ['locomo-plus'],
      tables: ['turns', 'queries', 'locomo_plus_items'],
      load: loadLocomoPlus,
    },
    protocols: [{ id: 'locomo-plus', label: 'LoCoMo-Plus — release scores, or retrieval (ours)' }],
  },
  {
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
    protocols: [{ id: 'locomo-conv', label: 'LoCoMo-Conv — Table 4 recall@10 (PROTOCOL.md)' }],
  },
  {
    id: 'memuse',
    label: 'MemUse',
    paper: 'memuse',
    page: { kind: 'paper', navLabel: 'MemUse' },
    dataset: {
      phase: 'benchmarks',
      required: false,
      sourceIds: ['memuse-instances', 'memuse-instances-first3'],
      tables: ['conversations', 'turns', 'queries', 'memuse_instances', 'memuse_sub_questions'],
      load: loadMemuse,
    },
    protocols: [],
  },
  {
    id: 'utilmem',
    label: 'UtilMem',
    paper: 'utilmem',
    page: { kind: 'paper', navLabel: 'UtilMem' },
    dataset: null,
    protocols: [],
  },
];

export function benchmarkById(
  id: string,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): BenchmarkDef | undefined {
  return defs.find((d) => d.id === id);
}

/** Every protocol the Reproduce page offers and the CLI accepts, in registry order. */
export function protocolEntries(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS) {
  return defs.flatMap((d) => d.protocols.map((p) => ({ ...p, benchmark: d.id })));
}

/**
 * What is wrong between data/sources.json and the registry: a file no benchmark reads, or one
 * filed under another benchmark's folder. `npm run data` refuses to run while any is listed.
 */
export function manifestProblems(
  files: readonly { id: string; dataset: string }[],
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): string[] {
  return files.flatMap((f) => {
    const owner = defs.find((d) => d.dataset?.sourceIds.includes(f.id));
    if (!owner) return [`data/sources.json: ${f.id}: no benchmark in the registry reads it`];
    if (owner.id !== f.dataset) {
      return [`data/sources.json: ${f.id}: filed under ${f.dataset}, read by ${owner.id}`];
    }
    return [];
  });
}
