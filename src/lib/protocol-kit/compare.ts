/**
 * Two or more retrievers on the same queries, as a reviewer compares them: each one's recall@k
 * and AUC with 95% intervals, every pair's paired differences (exact McNemar on hit@k, paired
 * bootstrap of Δrecall@k and ΔAUC), Holm's correction over the pairs, and tie groups.
 */
import {
  BOOTSTRAP_REPS,
  BOOTSTRAP_SEED,
  SEPARATION_REPS,
  bootstrapSeparation,
  type ScoreGroup,
} from '../analysis/intervals.ts';
import {
  discordant,
  holm,
  mcnemarExact,
  pairedBootstrapAuc,
  pairedBootstrapDelta,
  tieGroups,
} from '../analysis/paired.ts';
import type { Evaluation, QueryOutcome } from './evaluate.ts';
import { HEADLINE_KS } from './report.ts';
import { separationStats } from '../analysis/separation.ts';
import {
  groupsOf,
  isWholeSeries,
  queryRecall,
  recallTable,
  separationTable,
  seriesOf,
} from './summary.ts';

/** Per query id: the context a submission's system recorded, and the target's rank in it. */
export type RecordedContexts = ReadonlyMap<string, { context: string; rank: number | null }>;

export interface ComparedRetriever {
  /** As given (`bm25`, `minilm`, `minilm:q8`): the name in every row. */
  ref: string;
  label: string;
  evaluation: Evaluation;
  /** What pins its weights (the ModelRef's revision; a brought model's file digest); none for BM25. */
  revision?: string;
  /** What the retriever is where it is not a ranking of the corpus (a submission's proxy). */
  note?: string;
  /** What ran the model (`onnxruntime-web wasm`), where the caller knows; none for BM25. */
  runtime?: string;
  /** A submission's recorded contexts and the target's rank in each, per query id. */
  contexts?: RecordedContexts;
}

export interface CompareOptions {
  ks?: readonly number[];
  /** The k whose hit@k decides the tie groups (default: the protocol's). */
  tieK?: number;
  alpha?: number;
  seed?: number;
}

export type CompareMetric = 'recall' | 'auc';

/** One retriever's number with its 95% interval. */
export interface RetrieverCell {
  retriever: string;
  series: string;
  /** Null: the whole series. */
  group: string | null;
  metric: CompareMetric;
  /** Null for AUC. */
  k: number | null;
  value: number | null;
  lo: number | null;
  hi: number | null;
  queries: number;
}

/** One pair's difference (A − B) on one metric, with its paired test. */
export interface PairRow {
  a: string;
  b: string;
  series: string;
  /** Null: the whole series. */
  group: string | null;
  metric: CompareMetric;
  k: number | null;
  valueA: number | null;
  valueB: number | null;
  delta: number | null;
  lo: number | null;
  hi: number | null;
  /** Recall only: queries A hits at k and B misses, and the reverse. */
  onlyA: number | null;
  onlyB: number | null;
  /** Exact two-sided McNemar p on hit@k (recall only). */
  p: number | null;
  /** Holm-adjusted over the pairs of the same series, group and k. */
  pHolm: number | null;
  /** Recall: pHolm < alpha; AUC: the interval excludes 0. */
  significant: boolean;
  queries: number;
}

export interface TieGroupsRow {
  series: string;
  /** Null: the whole series. */
  group: string | null;
  k: number;
  /** Retriever refs best first by recall@k (input order on equal recall). */
  order: string[];
  /** Inclusive [first, last] positions in `order`; overlapping groups are possible. */
  groups: [number, number][];
}

export interface Comparison {
  benchmark: string;
  retrievers: { ref: string; label: string; revision?: string; note?: string; runtime?: string }[];
  ks: number[];
  tieK: number;
  alpha: number;
  correction: 'holm';
  seed: number;
  reps: { recall: number; auc: number };
  series: string[];
  cells: RetrieverCell[];
  pairs: PairRow[];
  ties: TieGroupsRow[];
}

/** Each retriever's outcomes in one order, checked to be the same queries. */
function alignedOutcomes(retrievers: readonly ComparedRetriever[]): QueryOutcome[][] {
  const [first, ...rest] = retrievers;
  const ids = first.evaluation.outcomes.map((o) => o.query.id);
  for (const r of rest) {
    const byId = new Map(r.evaluation.outcomes.map((o) => [o.query.id, o]));
    const missing = ids.find((id) => !byId.has(id));
    if (missing !== undefined || byId.size !== ids.length) {
      throw new Error(
        `${r.ref} and ${first.ref} ran on different queries (e.g. ${missing ?? 'an extra one'}): a paired comparison needs the same`,
      );
    }
  }
  return retrievers.map((r) => {
    const byId = new Map(r.evaluation.outcomes.map((o) => [o.query.id, o]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  });
}

export function hitAt(o: QueryOutcome, k: number): number {
  return o.goldRanks.some((r) => r !== null && r <= k) ? 1 : 0;
}

interface Slice {
  series: string;
  /** Null: the whole series. */
  group: string | null;
  /** Positions into the aligned outcomes. */
  at: number[];
}

function slicesOf(outcomes: readonly QueryOutcome[]): Slice[] {
  const slices: Slice[] = [];
  const series = [...new Set(outcomes.map((o) => o.query.series))];
  for (const s of series) {
    const at = outcomes.flatMap((o, i) => (o.query.series === s ? [i] : []));
    slices.push({ series: s, group: null, at });
    for (const g of groupsOf(at.map((i) => outcomes[i].query))) {
      slices.push({ series: s, group: g, at: at.filter((i) => outcomes[i].query.group === g) });
    }
  }
  return slices;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

function recallPair(
  a: ComparedRetriever,
  b: ComparedRetriever,
  oa: readonly QueryOutcome[],
  ob: readonly QueryOutcome[],
  slice: Slice,
  k: number,
  seed: number,
): PairRow {
  const ra = slice.at.map((i) => queryRecall(oa[i], k));
  const rb = slice.at.map((i) => queryRecall(ob[i], k));
  const { b: onlyA, c: onlyB } = discordant(
    slice.at.map((i) => hitAt(oa[i], k)),
    slice.at.map((i) => hitAt(ob[i], k)),
  );
  const d = pairedBootstrapDelta(ra, rb, { seed });
  return {
    a: a.ref,
    b: b.ref,
    series: slice.series,
    group: slice.group,
    metric: 'recall',
    k,
    valueA: mean(ra),
    valueB: mean(rb),
    delta: d?.delta ?? null,
    lo: d?.interval.lo ?? null,
    hi: d?.interval.hi ?? null,
    onlyA,
    onlyB,
    p: mcnemarExact(onlyA, onlyB),
    pHolm: null,
    significant: false,
    queries: slice.at.length,
  };
}

function scoreGroups(evaluation: Evaluation, outcomes: readonly QueryOutcome[], at: number[]) {
  return at.map((i) => ({
    targets: outcomes[i].targets.map((t) => t.score),
    background: evaluation.backgroundOf.get(outcomes[i]) ?? new Float64Array(0),
  }));
}

/** A slice's AUC: its queries' target scores against their own background scores. */
function sliceAuc(groups: readonly ScoreGroup[]): number | null {
  const joined = (pick: (g: ScoreGroup) => ArrayLike<number>) => {
    const out = new Float64Array(groups.reduce((n, g) => n + pick(g).length, 0));
    let at = 0;
    for (const g of groups) {
      out.set(pick(g), at);
      at += pick(g).length;
    }
    return out;
  };
  return separationStats(
    joined((g) => g.targets),
    joined((g) => g.background),
  ).auc;
}

function aucPair(
  a: ComparedRetriever,
  b: ComparedRetriever,
  oa: readonly QueryOutcome[],
  ob: readonly QueryOutcome[],
  slice: Slice,
  seed: number,
): PairRow {
  const groupsA = scoreGroups(a.evaluation, oa, slice.at);
  const groupsB = scoreGroups(b.evaluation, ob, slice.at);
  const valueA = sliceAuc(groupsA);
  const valueB = sliceAuc(groupsB);
  const ci = pairedBootstrapAuc(groupsA, groupsB, { seed });
  return {
    a: a.ref,
    b: b.ref,
    series: slice.series,
    group: slice.group,
    metric: 'auc',
    k: null,
    valueA,
    valueB,
    delta: valueA === null || valueB === null ? null : valueA - valueB,
    lo: ci?.lo ?? null,
    hi: ci?.hi ?? null,
    onlyA: null,
    onlyB: null,
    p: null,
    pHolm: null,
    significant: ci !== null && (ci.lo > 0 || ci.hi < 0),
    queries: slice.at.length,
  };
}

/** Holm over each family (series, group, k) of recall pairs; marks significance at alpha. */
function adjust(rows: PairRow[], alpha: number): void {
  const families = new Map<string, PairRow[]>();
  for (const r of rows) {
    if (r.metric !== 'recall') continue;
    const key = JSON.stringify([r.series, r.group, r.k]);
    families.set(key, [...(families.get(key) ?? []), r]);
  }
  for (const family of families.values()) {
    const adjusted = holm(family.map((r) => r.p ?? 1));
    family.forEach((r, i) => {
      r.pHolm = adjusted[i];
      r.significant = adjusted[i] < alpha;
    });
  }
}

/** AUC with its 95% interval for each category / domain / style of a series. */
function groupAucCells(
  r: ComparedRetriever,
  outcomes: readonly QueryOutcome[],
  slices: readonly Slice[],
): RetrieverCell[] {
  return slices
    .filter((s) => !isWholeSeries(s))
    .map((slice) => {
      const groups = scoreGroups(r.evaluation, outcomes, slice.at);
      const interval = bootstrapSeparation(groups)?.auc ?? null;
      return {
        retriever: r.ref,
        series: slice.series,
        group: slice.group,
        metric: 'auc' as const,
        k: null,
        value: sliceAuc(groups),
        lo: interval?.lo ?? null,
        hi: interval?.hi ?? null,
        queries: groups.reduce((n, g) => n + g.targets.length, 0),
      };
    });
}

function cellsOf(r: ComparedRetriever, ks: readonly number[]): RetrieverCell[] {
  const recall = ks.flatMap((k) =>
    recallTable(r.evaluation, k).map((c) => ({
      retriever: r.ref,
      series: c.series,
      group: c.group,
      metric: 'recall' as const,
      k,
      value: c.recall,
      lo: c.interval?.lo ?? null,
      hi: c.interval?.hi ?? null,
      queries: c.queries,
    })),
  );
  const auc = separationTable(r.evaluation).map((s) => ({
    retriever: r.ref,
    series: s.series,
    group: null,
    metric: 'auc' as const,
    k: null,
    value: s.stats.auc,
    lo: s.intervals?.auc.lo ?? null,
    hi: s.intervals?.auc.hi ?? null,
    queries: s.stats.target.n,
  }));
  return [...recall, ...auc];
}

function tiesOf(
  retrievers: readonly ComparedRetriever[],
  pairs: readonly PairRow[],
  slice: Slice,
  k: number,
  alpha: number,
  outcomes: readonly QueryOutcome[][],
): TieGroupsRow {
  const recallOf = (i: number) => mean(slice.at.map((q) => queryRecall(outcomes[i][q], k))) ?? 0;
  const order = retrievers
    .map((r, i) => ({ ref: r.ref, recall: recallOf(i), i }))
    .sort((x, y) => y.recall - x.recall || x.i - y.i)
    .map((x) => x.ref);
  const pHolm = (i: number, j: number) => {
    const [x, y] = [order[i], order[j]];
    const row = pairs.find(
      (p) =>
        p.metric === 'recall' &&
        p.k === k &&
        p.series === slice.series &&
        p.group === slice.group &&
        ((p.a === x && p.b === y) || (p.a === y && p.b === x)),
    );
    return row?.pHolm ?? 1;
  };
  return {
    series: slice.series,
    group: slice.group,
    k,
    order,
    groups: tieGroups(order.length, pHolm, alpha),
  };
}

/** The whole comparison; throws when fewer than two retrievers or they ran on different queries. */
export function compareRetrievers(
  retrievers: readonly ComparedRetriever[],
  options: CompareOptions = {},
): Comparison {
  if (retrievers.length < 2) throw new Error('a comparison needs two or more retrievers');
  const refs = retrievers.map((r) => r.ref);
  const twice = refs.find((r, i) => refs.indexOf(r) !== i);
  if (twice !== undefined) throw new Error(`retriever "${twice}" is named twice`);
  const first = retrievers[0].evaluation;
  const ks = [...(options.ks ?? HEADLINE_KS)];
  const tieK = options.tieK ?? first.protocol.defaultK;
  const alpha = options.alpha ?? 0.05;
  const seed = options.seed ?? BOOTSTRAP_SEED;
  const outcomes = alignedOutcomes(retrievers);
  const slices = slicesOf(outcomes[0]);
  const pairs: PairRow[] = [];
  const allKs = ks.includes(tieK) ? ks : [...ks, tieK];
  for (let i = 0; i < retrievers.length; i++) {
    for (let j = i + 1; j < retrievers.length; j++) {
      const [a, b, oa, ob] = [retrievers[i], retrievers[j], outcomes[i], outcomes[j]];
      for (const slice of slices) {
        for (const k of allKs) pairs.push(recallPair(a, b, oa, ob, slice, k, seed));
        pairs.push(aucPair(a, b, oa, ob, slice, seed));
      }
    }
  }
  adjust(pairs, alpha);
  return {
    benchmark: first.protocol.benchmark,
    retrievers: retrievers.map(({ ref, label, revision, note, runtime }) => ({
      ref,
      label,
      ...(revision === undefined ? {} : { revision }),
      ...(note === undefined ? {} : { note }),
      ...(runtime === undefined ? {} : { runtime }),
    })),
    ks,
    tieK,
    alpha,
    correction: 'holm',
    seed,
    reps: { recall: BOOTSTRAP_REPS, auc: SEPARATION_REPS },
    series: seriesOf(first),
    cells: retrievers.flatMap((r, i) => [
      ...cellsOf(r, allKs),
      ...groupAucCells(r, outcomes[i], slices),
    ]),
    pairs,
    ties: slices.map((s) => tiesOf(retrievers, pairs, s, tieK, alpha, outcomes)),
  };
}

export interface Disagreement {
  query: QueryOutcome['query'];
  /** The query's outcome under A and under B. */
  a: QueryOutcome;
  b: QueryOutcome;
}

/** Queries of one series that A hits at k and B misses (`direction` 'a'), or the reverse ('b'). */
export function disagreements(
  a: Evaluation,
  b: Evaluation,
  series: string,
  k: number,
  direction: 'a' | 'b',
): Disagreement[] {
  const byId = new Map(b.outcomes.map((o) => [o.query.id, o]));
  return a.outcomes.flatMap((oa) => {
    const ob = byId.get(oa.query.id);
    if (!ob || oa.query.series !== series) return [];
    const [ha, hb] = [hitAt(oa, k), hitAt(ob, k)];
    const keep = direction === 'a' ? ha === 1 && hb === 0 : hb === 1 && ha === 0;
    return keep ? [{ query: oa.query, a: oa, b: ob }] : [];
  });
}
