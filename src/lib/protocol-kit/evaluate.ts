import { topKOfScores, type ScoredIndex } from '../analysis/topk.ts';
import type { PrepareOptions, Retriever } from './retriever.ts';
import type { Corpus, Protocol, ProtocolQuery } from './types.ts';

/** Curves run k = 1..K_MAX; the page's slider has the same range. */
export const K_MAX = 50;

export interface RankedDoc extends ScoredIndex {
  /** 1-based exact rank in the whole corpus. */
  rank: number;
}

export interface QueryOutcome {
  query: ProtocolQuery;
  /** Docs whose id is a gold id: the similarity figure's targets. */
  targets: RankedDoc[];
  /** Best exact rank (1-based, full corpus) of any target; null when no doc is a target. */
  targetRank: number | null;
  /** Doc index reaching `targetRank`. */
  bestTarget: number | null;
  /** Per gold id: first rank ≤ kMax at which a retrieved doc credits it, else null. */
  goldRanks: (number | null)[];
  /** The first kMax documents, best first (ties: lower index first). */
  top: ScoredIndex[];
  corpusSize: number;
}

export interface Evaluation {
  protocol: Protocol;
  retrieverId: string;
  retrieverLabel: string;
  kMax: number;
  outcomes: QueryOutcome[];
  /** Non-target scores of every scorable query, per series: the figure's background. */
  background: Map<string, Float64Array>;
  /** Queries with empty gold, per series (skipped everywhere). */
  skipped: Map<string, number>;
  /** Each outcome's non-target scores: a view into `background`, for bootstraps over queries. */
  backgroundOf: Map<QueryOutcome, Float64Array>;
}

/** 1 + the number of documents that rank before doc `index` (score desc, index asc). */
export function exactRank(scores: Float64Array, index: number): number {
  const own = scores[index];
  const ownNaN = Number.isNaN(own);
  let rank = 1;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i];
    // Same order as analysis/topk.ts ranksBefore, inlined: this runs once per target per doc.
    if (ownNaN ? !Number.isNaN(s) || i < index : s > own || (s === own && i < index)) rank++;
  }
  return rank;
}

function creditRank(corpus: Corpus, top: readonly ScoredIndex[], goldId: string): number | null {
  const credits = corpus.credits ?? ((d: number, g: string) => corpus.docIds[d] === g);
  const at = top.findIndex((s) => credits(s.index, goldId));
  return at < 0 ? null : at + 1;
}

export function evaluateQuery(
  query: ProtocolQuery,
  corpus: Corpus,
  scores: Float64Array,
  kMax: number,
): QueryOutcome {
  const gold = new Set(query.goldIds);
  const targets: RankedDoc[] = [];
  corpus.docIds.forEach((id, index) => {
    if (gold.has(id)) targets.push({ index, score: scores[index], rank: exactRank(scores, index) });
  });
  let targetRank: number | null = null;
  let bestTarget: number | null = null;
  for (const t of targets) {
    if (targetRank === null || t.rank < targetRank) [targetRank, bestTarget] = [t.rank, t.index];
  }
  const top = topKOfScores(scores, kMax);
  const goldRanks = query.goldIds.map((g) => creditRank(corpus, top, g));
  return { query, targets, targetRank, bestTarget, goldRanks, top, corpusSize: scores.length };
}

function backgroundOf(scores: Float64Array, targets: readonly ScoredIndex[]): Float64Array {
  if (targets.length === 0) return scores;
  const isTarget = new Set(targets.map((t) => t.index));
  return scores.filter((_, i) => !isTarget.has(i));
}

function concat(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function queriesByCorpus(queries: readonly ProtocolQuery[]): Map<string, ProtocolQuery[]> {
  const out = new Map<string, ProtocolQuery[]>();
  for (const q of queries) {
    const list = out.get(q.corpusId);
    if (list) list.push(q);
    else out.set(q.corpusId, [q]);
  }
  return out;
}

/** Scores without preparing: the retriever must already hold what the protocol needs. */
export function scoreProtocol(protocol: Protocol, retriever: Retriever, kMax = K_MAX): Evaluation {
  const outcomes = new Map<ProtocolQuery, QueryOutcome>();
  const background = new Map<string, Float64Array[]>();
  const owners = new Map<string, QueryOutcome[]>();
  const skipped = new Map<string, number>();
  for (const [corpusId, queries] of queriesByCorpus(protocol.queries)) {
    const corpus = protocol.corpora.get(corpusId);
    if (!corpus) throw new Error(`query ${queries[0].id}: no corpus "${corpusId}"`);
    const score = retriever.forCorpus(corpus);
    for (const q of queries) {
      if (q.goldIds.length === 0) {
        skipped.set(q.series, (skipped.get(q.series) ?? 0) + 1);
        continue;
      }
      const scores = score(q.text);
      const outcome = evaluateQuery(q, corpus, scores, kMax);
      outcomes.set(q, outcome);
      const parts = background.get(q.series) ?? [];
      parts.push(backgroundOf(scores, outcome.targets));
      background.set(q.series, parts);
      const owned = owners.get(q.series) ?? [];
      owned.push(outcome);
      owners.set(q.series, owned);
    }
  }
  const pooled = new Map([...background].map(([s, parts]) => [s, concat(parts)]));
  const backgroundOfOutcome = new Map<QueryOutcome, Float64Array>();
  for (const [series, parts] of background) {
    const all = pooled.get(series) ?? new Float64Array(0);
    let at = 0;
    parts.forEach((part, i) => {
      const owner = owners.get(series)?.[i];
      if (owner) backgroundOfOutcome.set(owner, all.subarray(at, at + part.length));
      at += part.length;
    });
  }
  return {
    protocol,
    retrieverId: retriever.id,
    retrieverLabel: retriever.label,
    kMax,
    outcomes: protocol.queries.flatMap((q) => outcomes.get(q) ?? []),
    background: pooled,
    skipped,
    backgroundOf: backgroundOfOutcome,
  };
}

export async function evaluateProtocol(
  protocol: Protocol,
  retriever: Retriever,
  options: PrepareOptions & { kMax?: number } = {},
): Promise<Evaluation> {
  await retriever.prepare(protocol, options);
  return scoreProtocol(protocol, retriever, options.kMax ?? K_MAX);
}
