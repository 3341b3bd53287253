// The embedding map's points: every distinct memory of a protocol run (a shared prefix such as
// InMind's 486 background turns counts once) and every scored query, their vectors in one
// matrix for the projection, and, once projected, the rows the chart draws: which points a
// score range lights up, and the selected query's top-k as lines to its memories.
import type { Evaluation, QueryOutcome } from '../protocol-kit/evaluate.ts';
import type { Corpus } from '../protocol-kit/types.ts';
import { formatScore } from '../protocol-kit/report.ts';

export type PointKind = 'background' | 'target' | 'query';

export const KIND_LABELS: Record<PointKind, string> = {
  background: 'background memory',
  target: 'target memory',
  query: 'query',
};

export interface MapPoint {
  key: string;
  kind: PointKind;
  /** Memory: the doc id; query: the query id. */
  id: string;
  text: string;
  /**
   * The query's group (InMind: domain; LoCoMo: category); a target takes its first query's; a
   * point in no group is drawn as a background memory's.
   */
  group: string;
}

/** What a point's colour can follow: its kind, or its group (domain, category). */
export const MAP_COLOR_FIELDS = ['kind', 'group'] as const;
export type MapColorField = (typeof MAP_COLOR_FIELDS)[number];

/** The group of a background memory, which belongs to no query. */
export const NO_GROUP = 'background (no group)';

export interface MapLayout {
  points: MapPoint[];
  /** Memories come first: points[0 .. memoryCount) are memories. */
  memoryCount: number;
  dim: number;
  /** points.length rows of dim values, in point order. */
  vectors: Float32Array;
  /** Point index of doc `docIndex` of a corpus. */
  memoryIndex(corpusId: string, docIndex: number): number;
  /** Point index of a query, by id. */
  queryIndex: ReadonlyMap<string, number>;
  /** Query ids whose target a memory is, by memory key. */
  targetOf: ReadonlyMap<string, string[]>;
}

export type VectorLookup = (role: 'memory' | 'query', text: string) => Float32Array;

function memoryKey(corpus: Corpus, docIndex: number): string {
  const shared = corpus.shared;
  return shared && docIndex < shared.size
    ? `m:${shared.id}:${docIndex}`
    : `m:${corpus.id}:${docIndex}`;
}

export const queryKey = (queryId: string) => `q:${queryId}`;

/** Every distinct memory and every scored query of the run, with their vectors. */
export function mapLayout(evaluation: Evaluation, vectorOf: VectorLookup): MapLayout {
  const points: MapPoint[] = [];
  const rows: Float32Array[] = [];
  const byKey = new Map<string, number>();
  const targetOf = new Map<string, string[]>();
  const groupOf = new Map<string, string | null>();
  for (const o of evaluation.outcomes) {
    const corpus = evaluation.protocol.corpora.get(o.query.corpusId);
    if (!corpus) continue;
    for (const t of o.targets) {
      const key = memoryKey(corpus, t.index);
      targetOf.set(key, [...(targetOf.get(key) ?? []), o.query.id]);
      if (!groupOf.has(key)) groupOf.set(key, o.query.group);
    }
  }
  for (const corpus of evaluation.protocol.corpora.values()) {
    corpus.docs.forEach((text, i) => {
      const key = memoryKey(corpus, i);
      if (byKey.has(key)) return;
      byKey.set(key, points.length);
      points.push({
        key,
        kind: targetOf.has(key) ? 'target' : 'background',
        id: corpus.docIds[i],
        text,
        group: groupOf.get(key) ?? NO_GROUP,
      });
      rows.push(vectorOf('memory', text));
    });
  }
  const memoryCount = points.length;
  const queryIndex = new Map<string, number>();
  for (const o of evaluation.outcomes) {
    queryIndex.set(o.query.id, points.length);
    points.push({
      key: queryKey(o.query.id),
      kind: 'query',
      id: o.query.id,
      text: o.query.text,
      group: o.query.group ?? NO_GROUP,
    });
    rows.push(vectorOf('query', o.query.text));
  }
  const dim = rows[0]?.length ?? 0;
  const vectors = new Float32Array(points.length * dim);
  rows.forEach((row, i) => {
    if (row.length !== dim)
      throw new Error(`map: vector ${i} has ${row.length} values, not ${dim}`);
    vectors.set(row, i * dim);
  });
  const corpora = evaluation.protocol.corpora;
  return {
    points,
    memoryCount,
    dim,
    vectors,
    memoryIndex(corpusId, docIndex) {
      const corpus = corpora.get(corpusId);
      const at = corpus ? byKey.get(memoryKey(corpus, docIndex)) : undefined;
      if (at === undefined) throw new Error(`map: no memory ${docIndex} in corpus ${corpusId}`);
      return at;
    },
    queryIndex,
    targetOf,
  };
}

/** The score of every doc of the outcome's corpus, in doc order: targets and background merged. */
export function corpusScores(outcome: QueryOutcome, background: Float64Array): Float64Array {
  const scores = new Float64Array(outcome.corpusSize);
  const isTarget = new Set(outcome.targets.map((t) => t.index));
  for (const t of outcome.targets) scores[t.index] = t.score;
  let at = 0;
  for (let i = 0; i < scores.length; i++) if (!isTarget.has(i)) scores[i] = background[at++];
  return scores;
}

export interface MapSelection {
  /** The selected query's id. */
  query: string | null;
  /** A picked memory's key. */
  memory: string | null;
  /** Brushed score range, inclusive. */
  range: readonly [number, number] | null;
  /** The series (histogram panel) the range was brushed in; null: every series. */
  series: string | null;
  k: number;
  /** Point indices of the memories a text search found (map-search.ts); absent: no search. */
  found?: ReadonlySet<number>;
}

export interface MapDatum {
  key: string;
  kind: string;
  /** The point in words: "Query 112:indirect", "Target memory of 112:naive, 112:indirect". */
  title: string;
  group: string;
  /** Its score against the open query, in words; says so when no query is open. */
  score_text: string;
  role: 'memory' | 'query';
  x: number;
  y: number;
  lit: boolean;
  /** A memory the text search found. */
  found: boolean;
  selected: boolean;
  /** A range is brushed or a search made, and this point is neither lit, found nor selected. */
  faded: boolean;
  /** Score against the selected query, when the memory is in its corpus. */
  score: number | null;
  id: string;
  snippet: string;
  aria: string;
}

export interface LineDatum {
  x: number;
  y: number;
  x2: number;
  y2: number;
  rank: number;
}

export interface MapData {
  points: MapDatum[];
  lines: LineDatum[];
  /** How many points the range lights up (0 without a range). */
  lit: number;
  /** How many memories the search found (0 without a search). */
  found: number;
  /** What a range lights up, in words. */
  litRule: string;
}

const inRange = (s: number, [lo, hi]: readonly [number, number]) => s >= lo && s <= hi;

/**
 * A point in words, for its tooltip and its panel. A doc id that only repeats the kind (InMind's
 * injected memory is "target") is left out; a target names the queries it is the target of.
 */
export function pointTitle(point: MapPoint, layout: Pick<MapLayout, 'targetOf'>): string {
  if (point.kind === 'query') return `Query ${point.id}`;
  if (point.kind === 'background') return `Background memory ${point.id}`;
  const id = point.id === 'target' ? '' : ` ${point.id}`;
  const queries = layout.targetOf.get(point.key) ?? [];
  return `Target memory${id}${queries.length ? ` of ${queries.join(', ')}` : ''}`;
}

/** A query named with the start of its text: `112:indirect ("Any macaron recipes…")`. */
export function queryLabel(evaluation: Evaluation, queryId: string, max = 60): string {
  const q = evaluation.outcomes.find((o) => o.query.id === queryId)?.query;
  return q ? `${q.id} ("${snippet(q.text, max)}")` : queryId;
}

function scoreText(score: number | null, query: string | null, role: 'memory' | 'query'): string {
  if (role === 'query') return query ? 'a query (scores are its memories’)' : 'a query';
  if (!query) return 'open a query to score the memories against it';
  return score === null ? `not in ${query}'s corpus` : `${formatScore(score)} against ${query}`;
}

/** A text on one line, cut to `max` characters. */
export function snippet(text: string, max = 90): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The chart's rows. A range lights up, as the histogram plots (query, memory) pairs: with a
 * query selected, its memories whose score falls in the range; with none, the target pairs in the
 * range of the brushed panel's series (both the target memory and its query), since every memory
 * has a background pair in almost any range.
 */
export function mapData(
  layout: MapLayout,
  coords: Float32Array,
  evaluation: Evaluation,
  selection: MapSelection,
): MapData {
  if (coords.length !== layout.points.length * 2)
    throw new Error(`map: ${coords.length / 2} projected points for ${layout.points.length}`);
  const outcome = selection.query
    ? (evaluation.outcomes.find((o) => o.query.id === selection.query) ?? null)
    : null;
  const scores = new Map<number, number>();
  if (outcome) {
    const all = corpusScores(outcome, evaluation.backgroundOf.get(outcome) ?? new Float64Array(0));
    all.forEach((s, i) => scores.set(layout.memoryIndex(outcome.query.corpusId, i), s));
  }
  const lit = new Set<number>();
  const range = selection.range;
  if (range && outcome) {
    for (const [at, s] of scores) if (inRange(s, range)) lit.add(at);
  } else if (range) {
    for (const o of evaluation.outcomes) {
      if (selection.series && o.query.series !== selection.series) continue;
      for (const t of o.targets) {
        if (!inRange(t.score, range)) continue;
        lit.add(layout.memoryIndex(o.query.corpusId, t.index));
        const q = layout.queryIndex.get(o.query.id);
        if (q !== undefined) lit.add(q);
      }
    }
  }
  const selectedAt = outcome ? layout.queryIndex.get(outcome.query.id) : undefined;
  const found = selection.found ?? new Set<number>();
  const dimmed = range !== null || selection.found !== undefined;
  const points = layout.points.map((p, i): MapDatum => {
    const role = p.kind === 'query' ? 'query' : 'memory';
    const isLit = lit.has(i);
    const isFound = found.has(i);
    const selected = i === selectedAt || p.key === selection.memory;
    return {
      key: p.key,
      kind: KIND_LABELS[p.kind],
      title: pointTitle(p, layout),
      group: p.group,
      score_text: scoreText(scores.get(i) ?? null, outcome?.query.id ?? null, role),
      role,
      x: coords[i * 2],
      y: coords[i * 2 + 1],
      lit: isLit,
      found: isFound,
      selected,
      faded: dimmed && !isLit && !isFound && !selected,
      score: scores.get(i) ?? null,
      id: p.id,
      snippet: snippet(p.text),
      aria: `${role} | ${KIND_LABELS[p.kind]} | ${p.id}${isLit ? ' | lit' : ''}${isFound ? ' | found' : ''}${selected ? ' | selected' : ''}`,
    };
  });
  const lines: LineDatum[] =
    outcome && selectedAt !== undefined
      ? outcome.top.slice(0, selection.k).map((s, r) => {
          const at = layout.memoryIndex(outcome.query.corpusId, s.index);
          return {
            x: coords[selectedAt * 2],
            y: coords[selectedAt * 2 + 1],
            x2: coords[at * 2],
            y2: coords[at * 2 + 1],
            rank: r + 1,
          };
        })
      : [];
  return {
    points,
    lines,
    lit: lit.size,
    found: found.size,
    litRule: outcome
      ? `memories whose score against ${outcome.query.id} falls in the range`
      : `target memories and their ${selection.series ? `${selection.series} ` : ''}queries whose target score falls in the range`,
  };
}
