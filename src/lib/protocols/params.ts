import { DEVICE_CHOICES, type DeviceChoice } from '../embed/backend-choice.ts';
import { DEFAULT_SPEC, type ProtocolSpec } from './build.ts';
import { LOCOMO_PLUS_MODES, defaultQueryPrefix, paperDefault } from './defaults.ts';
import { K_MAX } from '../protocol-kit/evaluate.ts';
import { retrieverChoices } from '../protocol-kit/pool.ts';
import { isBenchmarkId, isUserBenchmarkId } from '../benchmarks/registry.ts';

/** The Reproduce page's view state as it sits in the URL. */
export interface ReproduceParams {
  spec: ProtocolSpec;
  /** The `bench` value the URL asked for when it names no protocol (shown, then ignored). */
  unknownBench: string | null;
  retriever: string;
  /** Null: the protocol's own k. */
  k: number | null;
  queryPrefix: boolean;
  device: DeviceChoice;
  /** Query opened in the drill-down. */
  query: string | null;
  /** Series shown in the per-query table; null: all. */
  series: string | null;
  /** `site`: the site's vector pack where it holds the view's texts; `browser`: recompute here. */
  vectors: 'site' | 'browser';
}

/**
 * Unknown values fall back to defaults rather than failing the page; an absent value is the
 * paper's choice for the benchmark (retriever, target, query prefix).
 */
export function readReproduceParams(params: Record<string, string>): ReproduceParams {
  const bench = params.bench ?? '';
  // A user table's name is kept as asked: whether that table is declared is known only once it runs.
  const benchmark =
    isBenchmarkId(bench) || isUserBenchmarkId(bench) ? bench : DEFAULT_SPEC.benchmark;
  const paper = paperDefault(benchmark);
  const k = Number(params.k);
  const target = params.target === 'user' || params.target === 'chunk' ? params.target : null;
  const mode = LOCOMO_PLUS_MODES.find((m) => m === params.mode) ?? DEFAULT_SPEC.locomoPlus;
  return {
    unknownBench: bench !== '' && bench !== benchmark ? bench.slice(0, 80) : null,
    spec: {
      benchmark,
      inmind: {
        target: target ?? paper.target ?? 'chunk',
        background: params.bg === 'content' ? 'content' : 'raw',
      },
      locomoPlus: mode,
    },
    retriever: retrieverChoices().some((c) => c.id === params.ret) ? params.ret : paper.retriever,
    k: Number.isInteger(k) && k >= 1 && k <= K_MAX ? k : null,
    queryPrefix:
      params.prefix === 'off'
        ? false
        : params.prefix === 'on'
          ? true
          : defaultQueryPrefix(benchmark, mode),
    device: DEVICE_CHOICES.find((d) => d === params.device) ?? 'auto',
    query: params.q || null,
    series: params.series || null,
    vectors: params.vectors === 'browser' ? 'browser' : 'site',
  };
}

/**
 * What the previous run's view leaves behind and a new run must clear: the drill-down query, the
 * per-query series, and the map's brush (a score range of the old histogram) and picked memory.
 */
export const RUN_VIEW_RESET: Readonly<Record<string, null>> = {
  q: null,
  series: null,
  brush: null,
  bseries: null,
  mem: null,
};

/**
 * The URL changes for a new value of one run control; a new benchmark starts on its defaults and
 * drops the map's search of the old memories and the query typed among them.
 */
export function runControlChange(key: string, value: string): Record<string, string | null> {
  const benchmark: Record<string, null> =
    key === 'bench'
      ? { ret: null, target: null, prefix: null, mode: null, find: null, near: null }
      : {};
  return { ...RUN_VIEW_RESET, ...benchmark, [key]: value };
}
