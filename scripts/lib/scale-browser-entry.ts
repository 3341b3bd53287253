// Browser side of bench:scale: `prepare` builds the synthetic corpus (setup), `search` runs the
// timed part and reports the longest main-thread task Chromium saw meanwhile; `verify` (untimed)
// compares it with the float32 kernel's search.
import type { SearchResult } from '../../src/lib/analysis/dense-search.ts';
import {
  matchesFloat32,
  prepareScalePoint,
  searchScalePoint,
  type PreparedScale,
  type ScaleParams,
  type ScalePoint,
} from './scale-run.ts';

export type BrowserScalePoint = ScalePoint & { longestTaskMs: number };

let prepared: PreparedScale | null = null;
let last: SearchResult | null = null;

function prepare(params: ScaleParams): void {
  prepared = prepareScalePoint(params);
}

async function search(): Promise<BrowserScalePoint> {
  if (!prepared) throw new Error('prepare first');
  let longestTaskMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longestTaskMs = Math.max(longestTaskMs, e.duration);
  });
  observer.observe({ type: 'longtask' });
  const { point, result } = await searchScalePoint(prepared);
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  last = result;
  return { ...point, longestTaskMs };
}

/** After `search`, untimed: does it equal the float32 kernel's search? */
async function verify(): Promise<boolean> {
  if (!prepared || !last) throw new Error('search first');
  const same = await matchesFloat32(prepared, last);
  prepared = null;
  last = null;
  return same;
}

function release(): void {
  prepared = null;
  last = null;
}

const api = { prepare, search, verify, release };
export type ScaleApi = typeof api;

declare global {
  var memlensScale: ScaleApi | undefined;
}

globalThis.memlensScale = api;
