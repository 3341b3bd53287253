// The embedding map's state in the URL: `map` (projection method), `brush` (score range, from the
// similarity histogram or typed), `bseries` (the histogram panel it was drawn in), `mem` (a picked
// memory's key), `mapcolor` (`group`: colour by domain / category), `find` (a text search of the
// memories) and `near` (a query the reader typed, placed on the map). The selected query is the
// page's `q`.
import { INMIND_BACKGROUND } from '../datasets/viewer-queries.ts';
import { MAP_COLOR_FIELDS, type MapColorField, type PointKind } from './map-points.ts';
import { isProjectionMethod, type ProjectionMethod } from './projection.ts';
import { cleanMapText } from './map-search.ts';

export interface MapParams {
  method: ProjectionMethod;
  range: [number, number] | null;
  /** The histogram panel (series) the range was brushed in; null: any. */
  series: string | null;
  memory: string | null;
  colorBy: MapColorField;
  /** The memories' text search; "" for none. */
  search: string;
  /** A typed query to place on the map; "" for none. */
  near: string;
}

/** "0.1234,0.5678": four decimals, as much as a histogram bin tells apart. */
export function formatRange(range: readonly [number, number] | null): string | null {
  return range ? `${range[0].toFixed(4)},${range[1].toFixed(4)}` : null;
}

export function parseRange(text: string | undefined): [number, number] | null {
  const parts = (text ?? '').split(',');
  if (parts.length !== 2 || parts.some((p) => p.trim() === '')) return null;
  const [a, b] = parts.map(Number);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return a <= b ? [a, b] : [b, a];
}

/** Unknown values fall back to the defaults (PCA, no range, nothing picked). */
export function readMapParams(params: Record<string, string>): MapParams {
  const method = params.map ?? '';
  return {
    method: isProjectionMethod(method) ? method : 'pca',
    range: parseRange(params.brush),
    series: params.bseries || null,
    memory: params.mem?.startsWith('m:') ? params.mem : null,
    colorBy: MAP_COLOR_FIELDS.find((f) => f === params.mapcolor) ?? 'kind',
    search: cleanMapText(params.find),
    near: cleanMapText(params.near),
  };
}

/**
 * Where a memory's conversation turn is shown: the Benchmarks page's viewer, for InMind's
 * background turns (the LME-s trace). Null where the viewer has no such turn (an injected target).
 */
export function turnLink(
  benchmark: string,
  kind: PointKind,
  docId: string,
): { page: string; params: Record<string, string> } | null {
  if (!benchmark.startsWith('inmind') || kind !== 'background') return null;
  return {
    page: 'benchmarks',
    params: { dataset: INMIND_BACKGROUND.dataset, conv: INMIND_BACKGROUND.conv, turn: docId },
  };
}

/**
 * A score range typed in the map's keyboard form: two numbers, in either order. A field that is
 * not a number is named in the message.
 */
export function typedRange(from: string, to: string): [number, number] | string {
  const read = (text: string, name: string): number | string => {
    const value = text.trim() === '' ? NaN : Number(text);
    return Number.isFinite(value) ? value : `"${name}" must be a number (got "${text}")`;
  };
  const lo = read(from, 'from');
  const hi = read(to, 'to');
  if (typeof lo === 'string') return lo;
  if (typeof hi === 'string') return hi;
  return lo <= hi ? [lo, hi] : [hi, lo];
}
