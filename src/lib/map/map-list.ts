// The keyboard route to the map's memories: the selected query's top-k, the memories a brush
// lights up or a search finds, and a typed query's nearest memories, as list entries that pick
// exactly what a click on their point picks.
import type { Evaluation } from '../protocol-kit/evaluate.ts';
import type { MapData, MapLayout, MapSelection } from './map-points.ts';
import type { Neighbour } from './map-search.ts';

export interface MemoryEntry {
  /** The point's key: what `mem` in the URL holds once picked. */
  key: string;
  id: string;
  role: 'target' | 'background';
  /** Rank in the selected query's top-k, when it is there. */
  rank: number | null;
  /** Score against the selected query, when there is one. */
  score: number | null;
  snippet: string;
}

export interface MemoryLists {
  top: MemoryEntry[];
  lit: MemoryEntry[];
  /** Lit memories in all; `lit` holds at most the list's limit of them. */
  litTotal: number;
  /** Memories the search found, in map order (at most the limit), and how many in all. */
  found: MemoryEntry[];
  foundTotal: number;
}

const byScore = (a: MemoryEntry, b: MemoryEntry) =>
  (b.score ?? -Infinity) - (a.score ?? -Infinity) || a.key.localeCompare(b.key);

/** `data` must come from `mapData(layout, …, selection)`: its points are in layout order. */
export function memoryLists(
  layout: MapLayout,
  evaluation: Evaluation,
  data: MapData,
  selection: Pick<MapSelection, 'query' | 'k'>,
  limit = 20,
): MemoryLists {
  const outcome = selection.query
    ? evaluation.outcomes.find((o) => o.query.id === selection.query)
    : undefined;
  const rankOf = new Map<number, number>();
  outcome?.top.slice(0, selection.k).forEach((s, r) => {
    rankOf.set(layout.memoryIndex(outcome.query.corpusId, s.index), r + 1);
  });
  const entry = (at: number): MemoryEntry => {
    const point = layout.points[at];
    const datum = data.points[at];
    return {
      key: point.key,
      id: point.id,
      role: point.kind === 'target' ? 'target' : 'background',
      rank: rankOf.get(at) ?? null,
      score: datum.score,
      snippet: datum.snippet,
    };
  };
  const top = [...rankOf.keys()].map(entry);
  const lit: MemoryEntry[] = [];
  const found: number[] = [];
  for (let at = 0; at < layout.memoryCount; at++) {
    if (data.points[at].lit) lit.push(entry(at));
    if (data.points[at].found) found.push(at);
  }
  lit.sort(byScore);
  return {
    top,
    lit: lit.slice(0, limit),
    litTotal: lit.length,
    found: found.slice(0, limit).map(entry),
    foundTotal: found.length,
  };
}

/** A typed query's nearest memories as entries: rank and score are the typed query's. */
export function nearEntries(
  layout: Pick<MapLayout, 'points'>,
  data: Pick<MapData, 'points'>,
  neighbours: readonly Neighbour[],
): MemoryEntry[] {
  return neighbours.map(({ at, score }, i) => {
    const point = layout.points[at];
    return {
      key: point.key,
      id: point.id,
      role: point.kind === 'target' ? 'target' : 'background',
      rank: i + 1,
      score,
      snippet: data.points[at].snippet,
    };
  });
}

/** What a list entry says: "#1 · 0.812 · target · text…" (rank and score where known). */
export function entryLabel(e: MemoryEntry, formatScore: (s: number) => string): string {
  return [e.rank === null ? null : `#${e.rank}`, e.score === null ? null : formatScore(e.score)]
    .concat([e.role, e.snippet])
    .filter((part) => part !== null)
    .join(' · ');
}
