// LoCoMo, the reference conversations, and InMind's Figure 4 panel over them.
import { parseJsonDocument } from '../../datasets/jsonl.ts';
import { locomoTables } from '../../datasets/locomo.ts';
import type { QueryRunner } from '../../query/query-client.ts';
import type { BenchmarkDef, FetchFirst } from '../benchmark-def.ts';

// The builders and their SQL load with the first run, not with the nav that lists the protocols:
// they are kept out of the initial JS (budgets.json).
async function buildLocomo(reader: QueryRunner) {
  const [{ loadQueries, loadTurns }, { locomoProtocol }] = await Promise.all([
    import('../../protocol-kit/inputs.ts'),
    import('../../protocol-kit/locomo.ts'),
  ]);
  const [turns, queries] = await Promise.all([
    loadTurns(reader, 'locomo'),
    loadQueries(reader, 'locomo'),
  ]);
  return locomoProtocol(turns, queries);
}

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

const ours = "not a paper figure: MemLens's own view of this protocol";

export const LOCOMO = {
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
  protocols: [
    {
      id: 'locomo',
      label: 'LoCoMo — Figure 4 (question vs evidence)',
      run: {
        build: (reader) => buildLocomo(reader),
        defaults: {
          benchmark: 'locomo',
          k: 10,
          retriever: 'bge-small',
          paperRetrievers: ['bge-small'],
          queryPrefix: true,
          source: 'InMind paper, Figure 4 (LoCoMo panel)',
          sentence:
            'it recomputes all four distributions with BGE-small-en-v1.5, using the retrieval prefix ' +
            'recommended by its authors, and compares the retained tasks with LoCoMo, LoCoMo-Plus, and ' +
            'LME-s turns',
          cite: 'InMind, Appendix 9 (i) Similarity filter',
        },
        recomputed:
          "LoCoMo's Figure 4 panel: each QA question against its evidence turns and the other turns of its conversation.",
        none: 'Figure 4 prints no numbers: compare the shape of the density chart with the paper’s panel.',
        figures: {
          similarity: 'InMind paper, Figure 4 (LoCoMo panel); protocol: App. 9',
          recall: `${ours} (InMind Figure 4 LoCoMo protocol)`,
        },
      },
    },
  ],
  examples: [
    {
      id: 'locomo-categories',
      title: 'LoCoMo: questions per category',
      sql: `-- LoCoMo's QA questions by category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial)
SELECT category, count(*) AS questions,
  round(avg(len(gold_ids)), 2) AS evidence_turns_per_question
FROM queries
WHERE dataset = 'locomo' AND style = 'question'
GROUP BY category
ORDER BY category`,
    },
  ],
} as const satisfies BenchmarkDef;
