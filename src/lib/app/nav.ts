// The nav, in order: the overview, one entry per benchmark with a page (from the benchmark
// registry), then the tools. The router and the URL read the same list.
import type { BenchmarkDef } from '../benchmarks/benchmark-def.ts';
import { BENCHMARK_DEFS } from '../benchmarks/registry.ts';

export type PageKind =
  | 'home'
  | 'inmind'
  | 'paper'
  | 'embeddings'
  | 'benchmarks'
  | 'mydata'
  | 'reproduce'
  | 'playground'
  | 'console';

export interface NavEntry {
  id: string;
  label: string;
  kind: PageKind;
}

const TOOLS: readonly NavEntry[] = [
  { id: 'embeddings', label: 'Embeddings', kind: 'embeddings' },
  { id: 'benchmarks', label: 'Benchmarks', kind: 'benchmarks' },
  { id: 'mydata', label: 'Your data', kind: 'mydata' },
  { id: 'reproduce', label: 'Reproduce', kind: 'reproduce' },
  { id: 'playground', label: 'Playground', kind: 'playground' },
  { id: 'console', label: 'SQL', kind: 'console' },
];

export function navEntries(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): NavEntry[] {
  const benchmarks = defs.flatMap((d): NavEntry[] =>
    d.page ? [{ id: d.id, label: d.page.navLabel, kind: d.page.kind }] : [],
  );
  return [{ id: 'home', label: 'Overview', kind: 'home' }, ...benchmarks, ...TOOLS];
}
