// The benchmarks MemLens covers, one line each; each lives in its own folder (benchmarks/<id>/).
// The nav, the Reproduce page, the CLI, the data loader and the id types read this list.
import { CROSS_BENCHMARK_EXAMPLES, type ExampleQuery } from './examples.ts';
import type { PaperTargetOf } from '../protocol-kit/paper.ts';
import type { BenchmarkDef, PaperLinkDef, ProtocolEntry, ProtocolRunDef } from './benchmark-def.ts';
import { INMIND } from './inmind/benchmark.ts';
import { LOCOMO } from './locomo/benchmark.ts';
import { LOCOMO_PLUS } from './locomo-plus/benchmark.ts';
import { LOCOMO_CONV } from './locomo-conv/benchmark.ts';
import { MEMUSE } from './memuse/benchmark.ts';
import { UTILMEM } from './utilmem/benchmark.ts';
import { isUserBenchmarkId, userProtocolRun } from './user/benchmark.ts';

const REGISTRY = [
  INMIND,
  LOCOMO,
  LOCOMO_PLUS,
  LOCOMO_CONV,
  MEMUSE,
  UTILMEM,
] as const satisfies readonly BenchmarkDef[];

export const BENCHMARK_DEFS: readonly BenchmarkDef[] = REGISTRY;

type Registered = (typeof REGISTRY)[number];

/** A protocol a builder runs: the Reproduce page's `bench` and the CLI's `--benchmark`. */
export type BenchmarkId = Extract<Registered['protocols'][number], { run: object }>['id'];
/** A benchmark whose files load into the shared tables (their `dataset` column). */
export type DatasetId = Extract<Registered, { dataset: object }>['id'];
/** A paper whose released numbers are in data/results/<paper>.csv. */
export type PaperId = NonNullable<Registered['paper']>;

export function benchmarkById(
  id: string,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): BenchmarkDef | undefined {
  return defs.find((d) => d.id === id);
}

/** Every protocol the Reproduce page offers and the CLI accepts, in registry order. */
export function protocolEntries(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS) {
  return defs.flatMap((d) =>
    d.protocols.map((p) => ({ id: p.id, label: p.label, benchmark: d.id })),
  );
}

/** The protocols of one benchmark that Reproduce runs, in order: what its paper page links to. */
export function reproduceProtocols(
  benchmark: string,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): { id: string; label: string }[] {
  const def = benchmarkById(benchmark, defs);
  return (def?.protocols ?? []).flatMap((p) => (p.run ? [{ id: p.id, label: p.label }] : []));
}

/** Every benchmark's DuckDB tables (shared ones once each): the console's "Benchmarks" group. */
export function benchmarkTables(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): string[] {
  return [...new Set(defs.flatMap((d) => d.dataset?.tables ?? []))];
}

/** "A, B and C": the benchmarks loaded for the pages that read them, whose conversations the viewer shows. */
export function viewerBenchmarkNames(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): string {
  const labels = defs.filter((d) => d.dataset?.phase === 'benchmarks').map((d) => d.label);
  const last = labels.pop();
  return labels.length === 0 ? (last ?? '') : `${labels.join(', ')} and ${last}`;
}

/**
 * What is wrong between data/sources.json and the registry: a file no benchmark reads, or one
 * filed under another benchmark's folder. `npm run data` refuses to run while any is listed.
 */
export function manifestProblems(
  files: readonly { id: string; dataset: string }[],
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): string[] {
  return files.flatMap((f) => {
    const owner = defs.find((d) => d.dataset?.sourceIds.includes(f.id));
    if (!owner) return [`data/sources.json: ${f.id}: no benchmark in the registry reads it`];
    if (owner.id !== f.dataset) {
      return [`data/sources.json: ${f.id}: filed under ${f.dataset}, read by ${owner.id}`];
    }
    return [];
  });
}

/**
 * The listed protocol `id` and how it runs, or a reader's benchmark when `id` names a user table
 * (whether it is declared is known only when it runs); undefined when none is listed or no
 * builder runs it.
 */
export function protocolRun(
  id: string,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): ProtocolRunDef | undefined {
  const listed = defs
    .flatMap((d): readonly ProtocolEntry[] => d.protocols)
    .find((p) => p.id === id);
  if (listed) return listed.run;
  return isUserBenchmarkId(id) ? userProtocolRun(id) : undefined;
}

export { isUserBenchmarkId } from './user/benchmark.ts';

/** `protocolRun`, for a protocol that must have a builder: throws naming it when none runs it. */
export function requireProtocolRun(id: string): ProtocolRunDef {
  const run = protocolRun(id);
  if (!run) throw new Error(`${id}: no protocol builder in the benchmark registry`);
  return run;
}

/** One condition over `results` for every paper row any protocol sets beside its numbers. */
export function paperRowsWhere(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): string {
  const parts = defs.flatMap((d) =>
    d.protocols.flatMap((p) => (p.run?.paper ? [`(${p.run.paper.where})`] : [])),
  );
  return parts.length === 0 ? 'false' : parts.join('\n   OR ');
}

/** Every protocol that sets a paper's rows beside its numbers, with that link. */
export function paperLinks(
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): { benchmark: string; link: PaperLinkDef }[] {
  return defs.flatMap((d) =>
    d.protocols.flatMap((p) => (p.run?.paper ? [{ benchmark: p.id, link: p.run.paper }] : [])),
  );
}

/** Which paper row a protocol's numbers stand beside; none for a protocol without a paper link. */
export function paperTargetOf(id: string): PaperTargetOf {
  return protocolRun(id)?.paper?.target ?? (() => null);
}

/** The console's examples: each benchmark's, in registry order, then those across benchmarks. */
export function consoleExamples(
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): readonly ExampleQuery[] {
  return [...defs.flatMap((d) => d.examples ?? []), ...CROSS_BENCHMARK_EXAMPLES];
}

export function isBenchmarkId(value: string): value is BenchmarkId {
  return protocolRun(value) !== undefined && !isUserBenchmarkId(value);
}

/** Every protocol a builder runs, in registry order. */
export const BENCHMARKS: readonly BenchmarkId[] = protocolEntries()
  .map((p) => p.id)
  .filter(isBenchmarkId);

export function isPaperId(value: string): value is PaperId {
  return BENCHMARK_DEFS.some((d) => d.paper === value);
}

/** Every paper whose released numbers MemLens carries (data/results/<paper>.csv), in registry order. */
export const PAPERS: readonly PaperId[] = BENCHMARK_DEFS.flatMap((d) =>
  d.paper === null ? [] : [d.paper],
).filter(isPaperId);
