// Browser side of bench:scale: `prepare` builds the synthetic corpus (setup), `search` runs the
// timed part and reports the longest main-thread task Chromium saw meanwhile.
import {
  prepareScalePoint,
  searchScalePoint,
  type PreparedScale,
  type ScaleParams,
  type ScalePoint,
} from './scale-run.ts';

export type BrowserScalePoint = ScalePoint & { longestTaskMs: number };

let prepared: PreparedScale | null = null;

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
  const point = await searchScalePoint(prepared);
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  prepared = null;
  return { ...point, longestTaskMs };
}

Object.assign(globalThis, { memlensScale: { prepare, search } });
