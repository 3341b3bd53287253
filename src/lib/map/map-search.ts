// Searching the embedding map: the memories whose text holds every word of a search, and a query
// the reader types, placed among the memories: its nearest memories by cosine, and a position on
// the map. PCA places it on the fitted axes; UMAP has no map for a new point, so it goes to the
// weighted mean of its nearest memories' positions (and the page says so).
import type { EmbedderHub } from '../embed/embedder-hub.ts';
import type { EmbedKind } from '../embed/embedder.ts';
import type { LoadProgress } from '../embed/load-progress.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import type { ProjectionMethod } from './projection.ts';
import { snippet, type LineDatum, type MapLayout } from './map-points.ts';
import { plural } from '../common/plural.ts';

/** The most of a search or a typed query the URL carries and the page reads. */
export const MAP_TEXT_MAX = 200;
/** How many nearest memories a typed query lists, draws lines to and (UMAP) is placed among. */
export const NEAREST = 10;

/**
 * A search or typed query as read from the URL or a text box (untrusted): control characters
 * dropped, spaces collapsed, trimmed, cut to `MAP_TEXT_MAX` characters.
 */
export function cleanMapText(text: string | undefined): string {
  return (text ?? '')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAP_TEXT_MAX)
    .trim();
}

/** The search's words, lower-cased; a memory matches when its text holds each of them. */
export function searchTerms(search: string): string[] {
  return [...new Set(cleanMapText(search).toLowerCase().split(' '))].filter((t) => t !== '');
}

/** What a search found, in words: none, or how many of the memories; '' with no search. */
export function foundSummary(
  found: readonly number[] | null,
  memoryCount: number,
  search: string,
): string {
  if (found === null) return '';
  if (found.length === 0) return `No memory matches "${search}".`;
  return `${plural(found.length, 'memory', 'memories')} of ${memoryCount.toLocaleString('en')} match "${search}".`;
}

/** Point indices of the memories matching every word of `search`, in map order; none for "". */
export function findMemories(layout: Pick<MapLayout, 'points' | 'memoryCount'>, search: string) {
  const terms = searchTerms(search);
  const found: number[] = [];
  if (terms.length === 0) return found;
  for (let at = 0; at < layout.memoryCount; at++) {
    const text = layout.points[at].text.toLowerCase();
    if (terms.every((t) => text.includes(t))) found.push(at);
  }
  return found;
}

export interface Neighbour {
  /** Point index of the memory. */
  at: number;
  /** Cosine with the typed query (both unit vectors). */
  score: number;
}

/** The `k` memories nearest a unit vector by cosine, best first (ties: map order). */
export function nearestMemories(
  layout: Pick<MapLayout, 'vectors' | 'dim' | 'memoryCount'>,
  query: Float32Array,
  k = NEAREST,
): Neighbour[] {
  const { vectors, dim, memoryCount } = layout;
  if (query.length !== dim)
    throw new Error(`map: the typed query has ${query.length} dimensions, the map ${dim}`);
  const all: Neighbour[] = [];
  for (let at = 0; at < memoryCount; at++) {
    let s = 0;
    const base = at * dim;
    for (let j = 0; j < dim; j++) s += vectors[base + j] * query[j];
    all.push({ at, score: s });
  }
  return all.sort((a, b) => b.score - a.score || a.at - b.at).slice(0, k);
}

/**
 * The PCA's centre and two axes, read back from its coordinates: with X̄ the centred rows and
 * cₖ = X̄aₖ the scores on unit eigenvector aₖ (eigenvalue λₖ of X̄ᵀX̄/n), X̄ᵀcₖ = nλₖaₖ and
 * ‖cₖ‖² = nλₖ, so aₖ = X̄ᵀcₖ / ‖cₖ‖². A projection read from the cache places a query too.
 */
export function pcaAxesFromCoords(
  vectors: Float32Array,
  n: number,
  dim: number,
  coords: Float32Array,
): { mean: Float64Array; axes: [Float64Array, Float64Array] } {
  if (coords.length !== n * 2) throw new Error(`map: ${coords.length / 2} coordinates for ${n}`);
  const mean = new Float64Array(dim);
  for (let i = 0; i < n; i++) for (let j = 0; j < dim; j++) mean[j] += vectors[i * dim + j];
  for (let j = 0; j < dim; j++) mean[j] /= n;
  const axes: [Float64Array, Float64Array] = [new Float64Array(dim), new Float64Array(dim)];
  const norms = [0, 0];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 2; k++) {
      const c = coords[i * 2 + k];
      norms[k] += c * c;
      for (let j = 0; j < dim; j++) axes[k][j] += (vectors[i * dim + j] - mean[j]) * c;
    }
  }
  for (let k = 0; k < 2; k++) {
    if (norms[k] > 0) for (let j = 0; j < dim; j++) axes[k][j] /= norms[k];
  }
  return { mean, axes };
}

export interface Placement {
  x: number;
  y: number;
  /** How the point was placed, in words, for the page. */
  how: string;
}

function onAxes(query: Float32Array, fit: ReturnType<typeof pcaAxesFromCoords>): [number, number] {
  let x = 0;
  let y = 0;
  for (let j = 0; j < query.length; j++) {
    const v = query[j] - fit.mean[j];
    x += v * fit.axes[0][j];
    y += v * fit.axes[1][j];
  }
  return [x, y];
}

/** Where a typed query goes on the map drawn from `layout`'s vectors and `coords`. */
export function placeQuery(
  layout: Pick<MapLayout, 'vectors' | 'dim'> & { points: ArrayLike<unknown> },
  coords: Float32Array,
  method: ProjectionMethod,
  query: Float32Array,
  neighbours: readonly Neighbour[],
): Placement {
  if (method === 'pca') {
    const fit = pcaAxesFromCoords(layout.vectors, layout.points.length, layout.dim, coords);
    const [x, y] = onAxes(query, fit);
    return { x, y, how: 'projected onto the PCA’s two fitted axes, as every point of the map' };
  }
  if (neighbours.length === 0) throw new Error('map: no memory to place the typed query among');
  // Cosine weights; where none is positive, the plain mean.
  const weights = neighbours.map((n) => Math.max(n.score, 0));
  const total = weights.reduce((a, b) => a + b, 0);
  const w = total > 0 ? weights.map((v) => v / total) : weights.map(() => 1 / weights.length);
  let x = 0;
  let y = 0;
  neighbours.forEach((n, i) => {
    x += w[i] * coords[n.at * 2];
    y += w[i] * coords[n.at * 2 + 1];
  });
  return {
    x,
    y,
    how: `UMAP cannot project a new point: placed at the mean of its ${neighbours.length} nearest memories’ positions, weighted by cosine`,
  };
}

/** A typed query as the map draws it: a point, and lines to its nearest memories. */
export interface TypedQueryMark {
  x: number;
  y: number;
  /** Its text, shortened, for the tooltip. */
  snippet: string;
  /** How it was placed, for the tooltip. */
  how: string;
  aria: string;
  lines: readonly LineDatum[];
}

export function typedQueryMark(
  text: string,
  placement: Placement,
  coords: Float32Array,
  neighbours: readonly Neighbour[],
): TypedQueryMark {
  return {
    x: placement.x,
    y: placement.y,
    snippet: snippet(text),
    how: placement.how,
    aria: `typed query | ${snippet(text, 60)}`,
    lines: neighbours.map((n, i) => ({
      x: placement.x,
      y: placement.y,
      x2: coords[n.at * 2],
      y2: coords[n.at * 2 + 1],
      rank: i + 1,
    })),
  };
}

/**
 * The typed query's unit vector from the run's own model, through the app's hub (its vectors are
 * the map's: a text embedded before is not embedded again). `kind` follows the run's query prefix.
 */
export async function embedTypedQuery(
  hub: EmbedderHub,
  model: ModelRef,
  kind: EmbedKind,
  text: string,
  options: { signal?: AbortSignal; onLoad?: (p: LoadProgress) => void } = {},
): Promise<Float32Array> {
  const embedder = await hub.embedder({ model }, options.onLoad);
  await embedder.vectors.fill(embedder, [{ kind, texts: [text] }], { signal: options.signal });
  return embedder.vectors.need(kind, text);
}
