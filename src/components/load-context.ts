// The app shell hands every chart the build-time snapshot and the SQL state, without threading
// them through each page's props.
import { getContext, setContext } from 'svelte';
import type { ChartSnapshot } from '../lib/charts/chart-snapshot.ts';
import type { SqlState } from '../lib/app/load-marks.ts';

export interface LoadContext {
  readonly snapshot: ChartSnapshot | null;
  readonly sqlState: SqlState;
}

const KEY = Symbol('memlens-load');

export function provideLoadContext(context: LoadContext): void {
  setContext(KEY, context);
}

export function loadContext(): LoadContext {
  return getContext<LoadContext | undefined>(KEY) ?? { snapshot: null, sqlState: 'starting' };
}
