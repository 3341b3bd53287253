// InMind: loaded with the released results (its own explorer page), and its two protocols.
import type { QueryRunner } from '../../query/query-client.ts';
import type { BenchmarkDef } from '../benchmark-def.ts';
import { BACKGROUND_OPTION, TARGET_OPTION } from './options.ts';
import { INMIND_PAPER_LINK } from './paper-link.ts';

// The builders and their SQL load with the first run, not with the nav that lists the protocols:
// they are kept out of the initial JS (budgets.json).
async function inputsAndKit(reader: QueryRunner) {
  const [{ loadInMindInputs }, kit] = await Promise.all([
    import('../../protocol-kit/inputs.ts'),
    import('../../protocol-kit/inmind.ts'),
  ]);
  return { ...(await loadInMindInputs(reader)), kit };
}

const ours = "not a paper figure: MemLens's own view of this protocol";
const FIGURE4_NONE =
  'Figure 4 prints no numbers: its four panels are read against ours below ("Figure 4 against the paper"), and the density chart against its InMind panel.';

export const INMIND = {
  id: 'inmind',
  label: 'InMind',
  paper: 'inmind',
  page: { kind: 'inmind', navLabel: 'InMind' },
  dataset: {
    phase: 'core',
    required: true,
    sourceIds: ['inmind-tasks', 'inmind-background', 'inmind-manifest', 'inmind-submission-schema'],
    tables: ['inmind_tasks', 'lme_background'],
  },
  protocols: [
    {
      id: 'inmind',
      label: 'InMind — Naive RAG (Table 1, App. 15.3)',
      run: {
        build: async (reader, spec) => {
          const { tasks, background, kit } = await inputsAndKit(reader);
          return kit.inmindProtocol(tasks, background, spec.inmind);
        },
        defaults: {
          benchmark: 'inmind',
          k: 5,
          retriever: 'bm25',
          paperRetrievers: ['bm25', 'minilm'],
          queryPrefix: false,
          target: 'chunk',
          source: 'InMind paper, Table 1 (Naive RAG control, App. 15.3)',
          sentence:
            'Corpus: 486 raw LME-s conversation-turn chunks. Task injection: Concatenate the task ' +
            'user_message and assistant_message as one temporary 487th chunk. Retrievers: Dense MiniLM, ' +
            'dense emb3-large, and BM25. Retrieved context: Top-5 chunks.',
          cite: 'InMind, Appendix 15.3, Table 8',
        },
        recomputed:
          "InMind's Naive RAG control: for each of the 125 tasks, the injected chunk ranked against the 486 background turns, under the naive and the indirect query.",
        figures: {
          similarity: `${ours} (InMind Table 1 Naive RAG protocol; Figure 4 is the "InMind — Figure 4" protocol)`,
          recall:
            'InMind paper, Table 1 (Naive RAG control, App. 15.3) protocol; rank-based recall',
        },
        paper: INMIND_PAPER_LINK,
      },
    },
    {
      id: 'inmind-figure4',
      label: 'InMind — Figure 4 (query vs user_message)',
      run: {
        build: async (reader, spec) => {
          const { tasks, background, kit } = await inputsAndKit(reader);
          return kit.inmindFigure4Protocol(tasks, background, spec.inmind);
        },
        defaults: {
          benchmark: 'inmind-figure4',
          k: 5,
          retriever: 'bge-small',
          paperRetrievers: ['bge-small'],
          queryPrefix: true,
          target: 'user',
          source: 'InMind paper, Figure 4 (InMind panel)',
          sentence:
            'Each candidate supplies a target memory (the user_message) and an indirect query. … ' +
            'it recomputes all four distributions with BGE-small-en-v1.5, using the retrieval prefix ' +
            'recommended by its authors',
          cite: 'InMind, Appendix 9 (i) Similarity filter',
        },
        recomputed:
          "InMind's Figure 4 panel: cosine of each indirect query with its target memory (the user_message) against the 486 background turns.",
        none: FIGURE4_NONE,
        figures: {
          similarity: 'InMind paper, Figure 4 (InMind panel); protocol: App. 9',
          recall: `${ours} (InMind Figure 4 protocol)`,
        },
        figure4Panels: true,
      },
    },
  ],
  options: [TARGET_OPTION, BACKGROUND_OPTION],
  examples: [
    {
      id: 'inmind-table1',
      title: 'InMind Table 1: recalled when asked, used when needed?',
      sql: `-- InMind Table 1, one row per system: naive recall, target recall, application
SELECT "row" AS system,
  max(value) FILTER (WHERE metric = 'naive') AS naive,
  max(value) FILTER (WHERE metric = 'target_recall') AS target_recall,
  max(value) FILTER (WHERE metric = 'application') AS application
FROM results_inmind
WHERE "table" = 'Table 1'
GROUP BY "row"
ORDER BY target_recall DESC NULLS LAST`,
    },
    {
      id: 'inmind-domains',
      title: 'InMind tasks per domain',
      sql: `SELECT domain, count(*) AS tasks
FROM inmind_tasks
GROUP BY domain
ORDER BY tasks DESC, domain`,
    },
  ],
  overview: [
    {
      side: 'asked',
      measure: 'Naive question (Table 1 Naive)',
      pct: 'value',
      who: `"row" || ', ' || variant`,
      where: `paper = 'inmind' AND "table" = 'Table 1' AND metric = 'naive'`,
    },
    {
      side: 'used',
      measure: 'Indirect query (Table 1 Application)',
      pct: 'value',
      who: `"row" || ', ' || variant`,
      where: `paper = 'inmind' AND "table" = 'Table 1' AND metric = 'application' AND system <> 'Backbone'`,
    },
  ],
} as const satisfies BenchmarkDef;
