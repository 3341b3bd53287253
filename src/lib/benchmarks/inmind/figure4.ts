// InMind's Figure 4 read against the paper: its four panels, what the paper says of each (quoted
// with its line of the paper's text), what differs from ours in one sentence, and our separation
// measure for each panel the served data allows.
import { defineQuery } from '../../query/define-query.ts';
import { rowSchema } from '../../query/row-schema.ts';
import { sql } from '../../query/sql.ts';
import { BM25_ID } from '../../protocol-kit/pool.ts';

/** A sentence of the paper, as printed, with its line in the paper's text. */
export interface PaperQuote {
  text: string;
  line: number;
}

export interface Figure4Panel {
  id: string;
  label: string;
  /** The Reproduce view that draws the panel; null where the served data cannot. */
  view: { bench: string; mode?: string; series: string } | null;
  /** What the paper says the panel shows. */
  stated: PaperQuote;
  /** Why the panel is not drawn here (null when it is). */
  absent: string | null;
}

const CAPTION: PaperQuote = {
  text: 'Only InMind shows virtually no target–noise separation.',
  line: 95,
};

export const FIGURE4_PANELS: readonly Figure4Panel[] = [
  {
    id: 'inmind',
    label: 'InMind',
    view: { bench: 'inmind-figure4', series: 'indirect' },
    stated: {
      text: 'InMind alone places the decisive memory no closer to the query than its distractors, leaving a similarity retriever no signal to exploit.',
      line: 89,
    },
    absent: null,
  },
  {
    id: 'locomo',
    label: 'LoCoMo',
    view: { bench: 'locomo', series: 'question' },
    stated: CAPTION,
    absent: null,
  },
  {
    id: 'locomo-plus',
    label: 'LoCoMo-Plus',
    view: { bench: 'locomo-plus', mode: 'retrieval', series: 'trigger' },
    stated: CAPTION,
    absent: null,
  },
  {
    id: 'lme-s',
    label: 'LME-s (LongMemEval)',
    view: null,
    stated: CAPTION,
    absent:
      "not drawn here: the site serves LME-s's background turns (InMind's trace), not its questions with their evidence turns",
  },
];

/** The paper prints no number for any panel: its result is the shapes and the caption's words. */
export const FIGURE4_MEASURE =
  'The paper prints no separation number for Figure 4; ours is AUC (P(target > background)) and the KS distance of the two score distributions, 0.5 and 0 meaning no separation.';

/** What differs between the paper's panels and ours, in one sentence. */
export function figure4Differs(retrieverId: string, dtype: string | null): string {
  const paper = "The paper's panels are BGE-small-en-v1.5 cosines with its retrieval prefix";
  const filter =
    "InMind's tasks were kept only where BM25 and all-MiniLM-L6-v2 did not find the target an obvious match (App. 9 (i))";
  if (retrieverId === BM25_ID) {
    return `${paper}; ours are BM25 scores, and ${filter}: BM25 is one of the two filters.`;
  }
  if (retrieverId === 'bge-small') {
    const weights = dtype && dtype !== 'fp32' ? ` (${dtype} weights, not fp32)` : '';
    return `Same encoder and query prefix as the paper's panels${weights}; ${filter}, so BGE-small is held out, as in the paper.`;
  }
  if (retrieverId === 'minilm') {
    return `${paper}; ours are all-MiniLM-L6-v2 cosines without a prefix, and ${filter}: MiniLM is the filter's own encoder.`;
  }
  return `${paper}; ours are ${retrieverId} cosines, and ${filter}.`;
}

/** Our published AUC and KS for one panel's protocol and series. */
export interface Figure4Published {
  benchmark: string;
  series: string;
  metric: 'auc' | 'ks';
  value: number;
  n: number;
  command: string;
}

const publishedColumns = rowSchema({
  benchmark: 'string',
  variant: 'string',
  metric: 'string',
  value: 'value',
  n: 'number',
  command: 'string',
});

/** The published separation of every drawable panel for one retriever (`reproduced`). */
export const figure4PublishedQuery = defineQuery(
  'Figure 4 panels, published',
  (retrieverId: string, model: string) => sql`SELECT benchmark, variant, metric, value, n, command
  FROM reproduced
  WHERE benchmark IN ('inmind-figure4', 'locomo', 'locomo-plus') AND metric IN ('auc', 'ks')
    AND (CASE WHEN ${retrieverId} = 'bm25' THEN system = 'BM25' ELSE model = ${model} AND dtype = 'fp32' END)
  ORDER BY benchmark, variant, metric`,
  (row, i): Figure4Published => {
    const r = publishedColumns(row, i);
    return {
      benchmark: r.benchmark,
      series: r.variant,
      metric: r.metric === 'ks' ? 'ks' : 'auc',
      value: Number(r.value),
      n: r.n,
      command: r.command,
    };
  },
);

export interface Figure4Row {
  panel: Figure4Panel;
  auc: number | null;
  ks: number | null;
  /** Target scores behind the numbers. */
  n: number | null;
  /** Where our numbers come from: the CLI command, or null when none is published. */
  command: string | null;
}

/** One row per panel of the paper: ours beside what it says, or why the panel is absent. */
export function figure4Rows(published: readonly Figure4Published[]): Figure4Row[] {
  return FIGURE4_PANELS.map((panel) => {
    const mine = published.filter(
      (p) =>
        panel.view !== null && p.benchmark === panel.view.bench && p.series === panel.view.series,
    );
    const pick = (metric: 'auc' | 'ks') => mine.find((p) => p.metric === metric) ?? null;
    return {
      panel,
      auc: pick('auc')?.value ?? null,
      ks: pick('ks')?.value ?? null,
      n: pick('auc')?.n ?? null,
      command: pick('auc')?.command ?? null,
    };
  });
}
