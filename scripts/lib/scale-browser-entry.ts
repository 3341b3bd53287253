// Browser side of bench:scale: one point of the cost curve, with the longest main-thread task
// Chromium saw during the search (generating the synthetic corpus is setup, not the page's work).
import {
  prepareScalePoint,
  searchScalePoint,
  type ScaleParams,
  type ScalePoint,
} from './scale-run.ts';

export type BrowserScalePoint = ScalePoint & { longestTaskMs: number };

async function run(params: ScaleParams): Promise<BrowserScalePoint> {
  const prepared = prepareScalePoint(params);
  let longestTaskMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longestTaskMs = Math.max(longestTaskMs, e.duration);
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.observe({ type: 'longtask' });
  const point = await searchScalePoint(prepared);
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return { ...point, longestTaskMs };
}

Object.assign(globalThis, { memlensScale: { run } });
