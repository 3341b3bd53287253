// LoCoMo-Plus: its items and cue turns, and the release's scores or MemLens's retrieval over them.
import { parseJsonDocument } from '../../datasets/jsonl.ts';
import { locomoPlusTables } from '../../datasets/locomo-plus.ts';
import type { QueryRunner } from '../../query/query-client.ts';
import type { LocomoPlusMode } from '../../protocol-kit/locomo-plus.ts';
import type { BenchmarkDef, BenchmarkOption, FetchFirst } from '../benchmark-def.ts';

// The builders and their SQL load with the first run, not with the nav that lists the protocols:
// they are kept out of the initial JS (budgets.json).
async function buildLocomoPlus(reader: QueryRunner) {
  const [{ loadLocomoPlusItems, loadQueries, loadTurns }, { locomoPlusProtocol }] =
    await Promise.all([
      import('../../protocol-kit/inputs.ts'),
      import('../../protocol-kit/locomo-plus.ts'),
    ]);
  const [items, cueTurns, triggers, locomoTurns] = await Promise.all([
    loadLocomoPlusItems(reader),
    loadTurns(reader, 'locomo-plus'),
    loadQueries(reader, 'locomo-plus'),
    loadTurns(reader, 'locomo'),
  ]);
  return locomoPlusProtocol({ items, cueTurns, triggers, locomoTurns });
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

// Retrieval mode stands in for Figure 4's LoCoMo-Plus panel, and so takes App. 9's BGE prefix.
const MODE_OPTION: BenchmarkOption<LocomoPlusMode> = {
  key: 'mode',
  flag: 'mode',
  label: 'Mode',
  help: "default release: the release's scores.bge, pairwise",
  choices: [
    {
      value: 'release',
      label: 'release: scores.bge, recomputed pairwise',
      release: true,
    },
    {
      value: 'retrieval',
      label: 'retrieval over cue turns',
      queryPrefix: true,
    },
  ],
  default: 'release',
  get: (spec) => spec.locomoPlus,
  set: (spec, locomoPlus) => ({ ...spec, locomoPlus }),
};

const ours = "not a paper figure: MemLens's own view of this protocol";

export const LOCOMO_PLUS = {
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
  protocols: [
    {
      id: 'locomo-plus',
      label: 'LoCoMo-Plus — release or retrieval',
      run: {
        build: (reader) => buildLocomoPlus(reader),
        defaults: {
          benchmark: 'locomo-plus',
          k: 10,
          retriever: 'bge-small',
          paperRetrievers: ['bge-small'],
          queryPrefix: false,
          source: 'LoCoMo-Plus release, scores.bge (generation_pipeline/rank.py)',
          sentence:
            'scores.bge: sentence-transformers util.cos_sim between BAAI/bge-small-en-v1.5 embeddings ' +
            'of cue_dialogue and trigger_query, with no instruction prefix',
          cite: 'xjtuleeyf/Locomo-Plus generation_pipeline/rank.py',
        },
        recomputed:
          "LoCoMo-Plus: in release mode, the release's per-item scores.bge recomputed pairwise; in retrieval mode (MemLens's own), each trigger against its cue turns stitched into a LoCoMo conversation.",
        none: 'The paper prints no number here; release mode compares with the release’s own per-item scores.',
        figures: {
          similarity:
            "InMind paper, Figure 4 (LoCoMo-Plus panel), approximated: cue turns in conversation index mod 10 (MemLens's own)",
          recall: `${ours} (LoCoMo-Plus retrieval mode)`,
        },
      },
    },
  ],
  options: [MODE_OPTION],
} as const satisfies BenchmarkDef;
