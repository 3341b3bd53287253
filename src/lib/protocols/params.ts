import { DEVICE_CHOICES, type DeviceChoice } from '../embed/backend-choice.ts';
import { DEFAULT_SPEC, type ProtocolSpec } from './build.ts';
import { choiceLabel, defaultQueryPrefix, paperDefault } from './defaults.ts';
import { K_MAX } from '../protocol-kit/evaluate.ts';
import { BM25_ID, retrieverChoices } from '../protocol-kit/pool.ts';
import { errorMessage } from '../common/error-message.ts';
import type { ModelDtype } from '../embed/model-registry.ts';
import { PAGE_DTYPE } from '../embed/site-models.ts';
import { resolveModelRef } from '../embed/model-ref.ts';
import {
  BM25_REF,
  formatRetrieverRef,
  isBm25,
  parseRetrieverRef,
  registryRef,
  type RegistryRetrieverRef,
} from '../protocol-kit/retriever-ref.ts';
import { isBenchmarkId, isUserBenchmarkId } from '../benchmarks/registry.ts';
import { applyOptions, resetOnBenchmark, startingChoice } from '../benchmarks/options.ts';

/** The Reproduce page's view state as it sits in the URL. */
export interface ReproduceParams {
  spec: ProtocolSpec;
  /** The `bench` value the URL asked for when it names no protocol (shown, then ignored). */
  unknownBench: string | null;
  /** `bm25` or a model id. */
  retriever: string;
  /** The dtype `ret=ID:DTYPE` asks for; null: the one the site serves first (fp32 where it has it). */
  dtype: ModelDtype | null;
  /** Why the URL's `ret` could not be read (shown; the paper's retriever runs instead). */
  badRetriever: string | null;
  /** Why an option's value in the URL could not be read, one sentence each (its default runs). */
  badOptions: string[];
  /** Null: the protocol's own k. */
  k: number | null;
  queryPrefix: boolean;
  device: DeviceChoice;
  /** Query opened in the drill-down. */
  query: string | null;
  /** Series shown in the per-query table; null: all. */
  series: string | null;
  /**
   * `site`: the site's vector pack where it holds the view's texts; `browser`: recompute here;
   * `verify`: the pack's, with a seeded sample of its texts re-embedded here and compared.
   */
  vectors: 'site' | 'browser' | 'verify';
}

/** What `ret` asks for: `bm25`, `ID` or `ID:DTYPE` (the comparison's and the CLI's syntax). */
export type RetrieverParam = { retriever: string; dtype: ModelDtype | null } | { error: string };

/**
 * Reads `ret`, untrusted, by the one retriever grammar: an unknown model, a dtype it lacks or any
 * other part (`@device` is its own control; this page never downloads from the Hub) is an error
 * that names the text.
 */
export function readRetrieverParam(text: string): RetrieverParam {
  if (/[@+]/.test(text)) {
    const quoted = JSON.stringify(text.slice(0, 80));
    return {
      error: `ret: ${quoted}: expected bm25, ID or ID:DTYPE (the device is its own control)`,
    };
  }
  try {
    const ref = registryRef(parseRetrieverRef(text, 'ret:'), 'ret:');
    if (!isBm25(ref)) resolveModelRef(ref.id, { dtype: ref.dtype ?? undefined }, 'ret');
    return { retriever: ref.id, dtype: ref.dtype };
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

/** The view's retriever as the reference the run resolves (its model in the site's dtype). */
export function viewRetrieverRef(
  view: Pick<ReproduceParams, 'retriever' | 'dtype'>,
): RegistryRetrieverRef {
  return view.retriever === BM25_ID ? BM25_REF : { id: view.retriever, dtype: view.dtype };
}

/** The `ret` value of a view: `ID:DTYPE` when it asks for a dtype, else the id alone. */
export function retrieverParam(view: Pick<ReproduceParams, 'retriever' | 'dtype'>): string {
  return formatRetrieverRef(viewRetrieverRef(view));
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
  const badOptions: string[] = [];
  const spec = applyOptions({ ...DEFAULT_SPEC, benchmark }, params, undefined, (o, value) => {
    const expected = o.choices.map((c) => c.value).join(' or ');
    const quoted = JSON.stringify(value.slice(0, 80));
    badOptions.push(
      `This link's ${o.key} could not be read (${quoted}: expected ${expected}): showing ${startingChoice(o, benchmark)} instead.`,
    );
  });
  const asked = params.ret ? readRetrieverParam(params.ret) : null;
  const ret = asked && !('error' in asked) ? asked : { retriever: paper.retriever, dtype: null };
  return {
    unknownBench: bench !== '' && bench !== benchmark ? bench.slice(0, 80) : null,
    spec,
    ...ret,
    badRetriever: asked && 'error' in asked ? asked.error : null,
    badOptions,
    k: Number.isInteger(k) && k >= 1 && k <= K_MAX ? k : null,
    queryPrefix:
      params.prefix === 'off'
        ? false
        : params.prefix === 'on'
          ? true
          : defaultQueryPrefix(spec, paper),
    device: DEVICE_CHOICES.find((d) => d === params.device) ?? 'auto',
    query: params.q || null,
    series: params.series || null,
    vectors: params.vectors === 'browser' || params.vectors === 'verify' ? params.vectors : 'site',
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
  const options = Object.fromEntries(resetOnBenchmark().map((k) => [k, null]));
  const benchmark: Record<string, null> =
    key === 'bench' ? { ret: null, ...options, prefix: null, find: null, near: null } : {};
  return { ...RUN_VIEW_RESET, ...benchmark, [key]: value };
}

export interface RetrieverOption {
  /** The `ret` value it sets. */
  value: string;
  label: string;
}

/**
 * The retriever picker: BM25, and each model once per dtype the site serves (`ID:DTYPE`); a model
 * the site lacks, or whose list is not known yet, once by its id. `served`: model id → the dtypes
 * the site serves (absent: not known yet).
 */
export function retrieverOptions(
  benchmark: string,
  served: ReadonlyMap<string, readonly ModelDtype[]>,
): RetrieverOption[] {
  return retrieverChoices().flatMap((c) => {
    const choice = choiceLabel(benchmark, c.id);
    // A declared table has no paper: no retriever is anybody's choice but the reader's.
    const whose = choice === 'no paper' ? '' : ` (${choice})`;
    const dtypes = c.dense ? served.get(c.id) : undefined;
    // The test model is offered only where the site serves it (test builds), never as missing.
    if (c.testOnly && !dtypes?.length) return [];
    if (dtypes === undefined) return [{ value: c.id, label: `${c.label}${whose}` }];
    if (dtypes.length === 0) {
      return [{ value: c.id, label: `${c.label}${whose} — not on this site` }];
    }
    return dtypes.map((dtype) => ({
      value: formatRetrieverRef({ id: c.id, dtype }),
      label: `${c.label} (${dtype})${whose}`,
    }));
  });
}

/**
 * The model's dtype a view runs in: the one it asks for if the site serves it, else null (never
 * another); asking none, fp32 where served, else the first served; null when none is.
 */
export function runDtype(
  served: readonly ModelDtype[],
  asked: ModelDtype | null,
): ModelDtype | null {
  if (asked !== null) return served.includes(asked) ? asked : null;
  return served.includes(PAGE_DTYPE) ? PAGE_DTYPE : (served[0] ?? null);
}

/**
 * The dtype a view's model runs in: undefined for BM25 and, when the site's list is not known,
 * the one the view asks for (if any); else `runDtype`'s (null: the site lacks it).
 */
export function viewDtype(
  view: Pick<ReproduceParams, 'retriever' | 'dtype'>,
  served: ReadonlyMap<string, readonly ModelDtype[]>,
): ModelDtype | null | undefined {
  if (view.retriever === BM25_ID) return undefined;
  const dtypes = served.get(view.retriever);
  return dtypes ? runDtype(dtypes, view.dtype) : (view.dtype ?? undefined);
}

/** The picker's value for the view, and the options with it (added when the site lacks it). */
export function pickedRetriever(
  view: Pick<ReproduceParams, 'retriever' | 'dtype'> & { spec: { benchmark: string } },
  served: ReadonlyMap<string, readonly ModelDtype[]>,
): { value: string; options: RetrieverOption[] } {
  const options = retrieverOptions(view.spec.benchmark, served);
  const dtypes = served.get(view.retriever);
  const value = retrieverParam({
    retriever: view.retriever,
    dtype: viewDtype(view, served) ?? view.dtype,
  });
  if (options.some((o) => o.value === value)) return { value, options };
  const label = retrieverChoices().find((c) => c.id === view.retriever)?.label ?? view.retriever;
  const missing = dtypes ? ' — not on this site' : '';
  const asked = { value, label: `${label}${view.dtype ? ` (${view.dtype})` : ''}${missing}` };
  return { value, options: [...options, asked] };
}
