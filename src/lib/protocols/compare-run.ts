// The Reproduce page's comparison mode as plain state: one protocol build, each retriever on it in
// turn (embedding through the hub's queue and vector cache), then the paired statistics. A new
// request aborts the one before it; cancel keeps what was embedded.
import type { EmbedderHub } from '../embed/embedder-hub.ts';
import { getModelSpec, MODEL_DTYPES, type ModelDtype } from '../embed/model-registry.ts';
import { pickedModel } from '../embed/picked-files.ts';
import { pickedModelRef } from '../embed/picked-folder.ts';
import type { QueryRunner } from '../query/query-client.ts';
import { RunMachine, type RunSteps } from './run-machine.ts';
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';
import {
  compareRetrievers,
  type ComparedRetriever,
  type Comparison,
} from '../protocol-kit/compare.ts';
import { RetrieverPool } from '../protocol-kit/pool.ts';
import type { RetrieverProgress } from '../protocol-kit/retriever.ts';
import {
  formatRetrieverRef,
  isBm25,
  parseRetrieverRef,
  registryRef,
  resolveRetrieverRef,
  type BroughtRetrieverRef,
  type RegistryRetrieverRef,
  type RetrieverRef,
} from '../protocol-kit/retriever-ref.ts';
import { buildProtocol } from './build.ts';
import { scoreRetriever } from './run.ts';
import type { Retriever } from '../protocol-kit/retriever.ts';
import { denseRetriever } from '../protocol-kit/dense-retriever.ts';
import type { PickedPacks } from '../vectors/pack-model.ts';
import { shortDigest, type SitePacks } from '../vectors/site-packs.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import type { Protocol } from '../protocol-kit/types.ts';
import type { ReproduceParams } from './params.ts';
import { plural } from '../common/plural.ts';
import { userTablesQuery } from '../query/user-tables.ts';
import { submissionSystemsQuery } from '../userdata/submission-proxy-queries.ts';
import {
  SUBMISSION_KIND,
  formatSubmissionRef,
  openSubmissions,
  pairedProtocol,
  submissionCompared,
} from '../protocol-kit/submission-retriever.ts';
import { nodeRuntime } from '../embed/node-runtime.ts';
import { packLabelNote } from './pack-label.ts';

export type ComparePhase = 'idle' | 'running' | 'error' | 'cancelled';

export interface CompareStep {
  /** 0-based position of the retriever being prepared. */
  index: number;
  total: number;
  ref: string;
}

export interface CompareState {
  phase: ComparePhase;
  error: string;
  step: CompareStep | null;
  progress: RetrieverProgress | null;
  comparison: Comparison | null;
  /** The retrievers' evaluations, for the disagreement lists and the charts. */
  retrievers: readonly ComparedRetriever[];
  fromSite: Readonly<Record<string, string>>;
}

export const COMPARE_IDLE: CompareState = {
  phase: 'idle',
  error: '',
  step: null,
  progress: null,
  comparison: null,
  retrievers: [],
  fromSite: {},
};

export interface CompareRequest {
  view: ReproduceParams;
  refs: readonly RetrieverRef[];
  /** The k of the tie groups and the disagreement lists. */
  k: number | null;
  alpha: number;
  /** Bumped when the reader picks a pack or a folder, so a reference already in the URL runs again. */
  packs?: number;
  /** The data version where a submission is compared: a table loaded again runs it again. */
  tables?: number;
}

export interface CompareResult {
  comparison: Comparison;
  retrievers: ComparedRetriever[];
  /** Ref → the site's pack its vectors came from (sha256); absent: embedded in this browser. */
  fromSite: Readonly<Record<string, string>>;
}

export type CompareCompute<Source> = (
  source: Source,
  request: CompareRequest,
  signal: AbortSignal,
  onStep: (step: CompareStep) => void,
  onProgress: (p: RetrieverProgress) => void,
) => Promise<CompareResult>;

/** `cmp=bm25,minilm,minilm:q8`: the refs that parse, in order, each once; the rest named. */
export function readCompareRefs(text: string | undefined): {
  refs: RetrieverRef[];
  rejected: string[];
} {
  const refs: RetrieverRef[] = [];
  const rejected: string[] = [];
  for (const part of (text ?? '').split(',').filter((p) => p.trim() !== '')) {
    try {
      const ref = parseRetrieverRef(part);
      // A pack or a folder picked in the page, a Hub model downloaded in it, or a submission table.
      if (ref.submission?.kind === 'file') throw new Error('a page reads tables, not paths');
      if (ref.brought?.kind === 'onnx' && !isPickedName(ref.brought.path, ref.dtype)) {
        throw new Error('a page picks a folder by its name, onnx:NAME');
      }
      if (!isBm25(ref) && !ref.brought && !ref.submission) getModelSpec(ref.id);
      const name = formatRetrieverRef(ref);
      if (!refs.some((r) => formatRetrieverRef(r) === name)) refs.push(ref);
    } catch {
      rejected.push(part);
    }
  }
  return { refs, rejected };
}

/** The Hub models of a comparison whose files are not in this page yet (`loaded`: those that are). */
export function hubWaiting(
  refs: readonly RetrieverRef[],
  loaded: readonly { id: string }[],
): string[] {
  return refs
    .filter((r) => r.brought?.kind === 'hub')
    .map(formatRetrieverRef)
    .filter((name) => !loaded.some((l) => l.id === name));
}

function notPicked(name: string, kind: 'onnx' | 'hub'): string {
  return kind === 'onnx'
    ? `${name}: pick the folder again ("Add an ONNX folder"): a page cannot reopen a folder after a reload`
    : `${name}: its files are not in this page: agree to download them ("Add a Hub model")`;
}

/** `onnx:NAME` as the page names a picked folder: its name alone, no path, no dtype. */
function isPickedName(path: string, dtype: ModelDtype | null): boolean {
  return dtype === null && /^[\w.-]{1,120}$/.test(path);
}

function requestKey(r: CompareRequest): string {
  const { spec, queryPrefix, device, vectors } = r.view;
  const refs = r.refs.map(formatRetrieverRef);
  return JSON.stringify([
    spec,
    queryPrefix,
    device,
    vectors,
    refs,
    r.k,
    r.alpha,
    r.packs ?? 0,
    r.tables ?? 0,
  ]);
}

const STEPS: RunSteps<CompareState, CompareResult> = {
  started: { phase: 'running', error: '', step: null, progress: null },
  finished: (result) => ({ phase: 'idle', step: null, progress: null, ...result }),
  failed: (_err, error) => ({
    phase: 'error',
    error,
    comparison: null,
    retrievers: [],
    fromSite: {},
  }),
  cancelled: { phase: 'cancelled', step: null, progress: null },
};

/** The comparison's runs: the run machine, each run taking every retriever in turn. */
export class CompareRun<Source> extends RunMachine<CompareState, CompareResult> {
  constructor(private readonly compute: CompareCompute<Source>) {
    super(COMPARE_IDLE, STEPS);
  }

  /** Starts a run when the request differs from the last one; fewer than two retrievers clear it. */
  request(source: Source | null, request: CompareRequest): void {
    const key = requestKey(request);
    if (!source || !this.isNew(key)) return;
    if (request.refs.length < 2) {
      this.clear(key);
      return;
    }
    this.run(key, (signal, report) =>
      this.compute(
        source,
        request,
        signal,
        (step) => report({ step, progress: null }),
        (progress) => report({ progress }),
      ),
    );
  }
}

export interface CompareComputeDeps {
  hub: EmbedderHub;
  /** Model id → the dtypes the site serves, in registry order (empty: not on this site). */
  served: Promise<ReadonlyMap<string, readonly ModelDtype[]>>;
  /** The vector packs the reader picked, for `pack:` references. */
  packs?: PickedPacks;
  /** The site's own vectors: a served model whose pack holds every text embeds nothing. */
  sitePacks?: SitePacks;
  /** What to load again when a `sub:` reference's table is not here (after a reload that lost it). */
  missingTable?: (table: string) => string;
}

/** A picked pack's retriever: its vectors answer the protocol's texts by the cache key. */
function packRetriever(name: string, packs: PickedPacks | undefined, queryPrefix: boolean) {
  const pack = packs?.get(name);
  if (!pack) {
    throw new Error(
      `${name}: pick the pack file again ("Add a vector pack"): a page cannot reopen a file after a reload`,
    );
  }
  const retriever = denseRetriever(pack.embedder, { queryPrefix });
  return { pack, retriever, label: pack.ref.spec.label, revision: pack.ref.revision };
}

/**
 * The model's retriever prepared from the site's pack, as the single run draws it; null where the
 * site has no pack for it, or the pack lacks a text of this protocol (a prefix the pack was not
 * made with): the model then embeds in this browser. An unreadable pack also falls back.
 */
async function fromSitePack(
  deps: CompareComputeDeps,
  model: ModelRef,
  protocol: Protocol,
  request: CompareRequest,
  signal: AbortSignal,
) {
  if (!deps.sitePacks || request.view.vectors === 'browser') return null;
  try {
    const bench = request.view.spec.benchmark;
    const vectors = await deps.sitePacks.vectorsOf(model.id, model.dtype, model.spec, bench);
    if (!vectors) return null;
    const retriever = denseRetriever(vectors.embedder(model.spec), {
      queryPrefix: request.view.queryPrefix,
      vectors: deps.hub.vectors({ model }),
    });
    await retriever.prepare(protocol, { signal });
    return { retriever, sha256: vectors.entry.sha256 };
  } catch (err) {
    if (signal.aborted) throw err;
    // A text the pack lacks (PackMissError) or an unreadable pack: the model embeds.
    return null;
  }
}

const whenLost = (table: string) =>
  `Load the InMind submission file that made ${table} again on Your data: a table this browser did not keep is gone after a reload.`;

/** One retriever of a comparison made ready to run; `sha256`: the site's pack its vectors are from. */
interface Candidate {
  retriever: Retriever;
  label: string;
  revision?: string;
  note?: string;
  sha256?: string;
}

interface CandidateContext {
  deps: CompareComputeDeps;
  protocol: Protocol;
  request: CompareRequest;
  signal: AbortSignal;
  dtypes: ReadonlyMap<string, readonly ModelDtype[]>;
}

/** A folder or Hub model picked in this page, or a picked vector pack. */
async function broughtCandidate(
  ref: BroughtRetrieverRef,
  name: string,
  { deps, protocol, request, signal, dtypes }: CandidateContext,
): Promise<Candidate> {
  const { queryPrefix, device } = request.view;
  if (ref.brought.kind === 'pack') {
    const { pack, ...found } = packRetriever(name, deps.packs, queryPrefix);
    const labelDeps = { ...deps, served: dtypes, device };
    const note = await packLabelNote(pack, protocol, labelDeps, signal);
    return { ...found, ...(note ? { note } : {}) };
  }
  const picked = pickedModel(name);
  if (!picked) throw new Error(notPicked(name, ref.brought.kind));
  const model = pickedModelRef(picked, device);
  const retriever = await new RetrieverPool(deps.hub).retriever(model, queryPrefix);
  const from =
    ref.brought.kind === 'hub' ? 'files from the Hub at this commit' : 'files read in this page';
  const files = picked.model.files.map((f) => `${f.path} sha256 ${f.sha256} (${f.bytes} bytes)`);
  const note = `${from}: ${files.join('; ')}`;
  return { retriever, label: `${model.spec.label} ${model.dtype}`, revision: model.revision, note };
}

/** BM25, or a model the site serves in the dtype asked for (else its first), from its pack where it can. */
async function registryCandidate(
  ref: RegistryRetrieverRef,
  name: string,
  { deps, protocol, request, signal, dtypes }: CandidateContext,
): Promise<Candidate> {
  const { queryPrefix, device } = request.view;
  const dtype = isBm25(ref) ? undefined : (ref.dtype ?? dtypes.get(ref.id)?.[0]);
  if (!isBm25(ref) && (dtype === undefined || !dtypes.get(ref.id)?.includes(dtype))) {
    throw new Error(`${name}: not on this site (its ${dtype ?? ''} weights are not served)`);
  }
  // The comparison's one resolution of each model: the hub, the worker and the cache key get it.
  const model = resolveRetrieverRef(ref, { dtype, backend: device }, 'cmp');
  const pool = new RetrieverPool(deps.hub);
  if (model === BM25_ID) return { retriever: await pool.retriever(model), label: 'BM25' };
  const label = `${model.spec.label} ${model.dtype}`;
  const site = await fromSitePack(deps, model, protocol, request, signal);
  const retriever = site?.retriever ?? (await pool.retriever(model, queryPrefix));
  return { retriever, label, revision: model.revision, sha256: site?.sha256 };
}

/** The real computation over the tables: each retriever in the dtype asked for, or the site's first. */
export function compareCompute(deps: CompareComputeDeps): CompareCompute<QueryRunner> {
  const { served, missingTable = whenLost } = deps;
  return async (reader, request, signal, onStep, onProgress) => {
    const full = await buildProtocol(request.view.spec, reader);
    const sources = request.refs.flatMap((ref) => {
      const sub = ref.submission;
      if (sub?.kind !== 'table') return [];
      const { table, system } = sub;
      return [{ name: formatRetrieverRef(ref), table, system, whenMissing: missingTable(table) }];
    });
    const subs = await openSubmissions(reader, full, sources);
    const protocol = pairedProtocol(full, subs);
    const dtypes = await served;
    const retrievers: ComparedRetriever[] = [];
    const fromSite: Record<string, string> = {};
    const ctx: CandidateContext = { deps, protocol, request, signal, dtypes };
    for (const [index, ref] of request.refs.entries()) {
      const name = formatRetrieverRef(ref);
      onStep({ index, total: request.refs.length, ref: name });
      const sub = subs.get(name);
      if (sub) {
        retrievers.push(await submissionCompared(protocol, sub));
        continue;
      }
      const one = ref.brought
        ? await broughtCandidate(ref, name, ctx)
        : await registryCandidate(registryRef(ref), name, ctx);
      if (one.sha256) fromSite[name] = one.sha256;
      const { evaluation } = await scoreRetriever(protocol, one.retriever, {
        signal,
        onProgress,
        prepared: one.sha256 !== undefined,
      });
      const { label, revision, note } = one;
      retrievers.push({ ref: name, label, evaluation, revision, ...(note ? { note } : {}) });
    }
    const comparison = compareRetrievers(retrievers, {
      tieK: request.k ?? protocol.defaultK,
      alpha: request.alpha,
    });
    return { comparison, retrievers, fromSite };
  };
}

/** What made a site pack of `ref` (`ID:DTYPE`): the CLI's runtime for that dtype. */
function packRuntime(ref: string): string {
  const dtype = MODEL_DTYPES.find((d) => ref.endsWith(`:${d}`));
  return dtype ? nodeRuntime(dtype) : 'Node';
}

/** The words that say which retrievers drew from the site's vectors; '' where none did. */
export function compareSourceLine(fromSite: Readonly<Record<string, string>>): string {
  const refs = Object.entries(fromSite);
  if (refs.length === 0) return '';
  const named = refs.map(([ref, sha]) => `${ref} (${shortDigest(sha)}, ${packRuntime(ref)})`);
  return `From the site's vectors, embedded when the site was built: ${named.join(', ')}; nothing of ${refs.length === 1 ? 'it' : 'them'} was embedded in this browser.`;
}

export interface CompareChoice {
  /** `bm25` or `ID:DTYPE`. */
  ref: string;
  label: string;
}

/** What the picker offers: BM25 and every model in every dtype the site serves. */
export function compareChoices(
  served: ReadonlyMap<string, readonly ModelDtype[]>,
): CompareChoice[] {
  const models = [...served].flatMap(([id, dtypes]) =>
    dtypes.map((dtype) => ({
      ref: formatRetrieverRef({ id, dtype }),
      label: `${getModelSpec(id).label} ${dtype}`,
    })),
  );
  return [{ ref: BM25_ID, label: 'BM25' }, ...models];
}

/** A ref as the picker names it: a model without dtype is the site's first served one. */
export function pickerRef(
  ref: RetrieverRef,
  served: ReadonlyMap<string, readonly ModelDtype[]>,
): string {
  if (isBm25(ref) || ref.dtype !== null) return formatRetrieverRef(ref);
  return formatRetrieverRef({ id: ref.id, dtype: served.get(ref.id)?.[0] ?? null });
}

/** Each system of each InMind submission loaded on Your data, as `sub:TABLE:SYSTEM`. */
export async function submissionChoices(reader: QueryRunner): Promise<CompareChoice[]> {
  const tables = (await reader.run(userTablesQuery())).filter((t) => t.kind === SUBMISSION_KIND);
  const choices: CompareChoice[] = [];
  for (const t of tables) {
    for (const s of await reader.run(submissionSystemsQuery(t.name))) {
      const ref = formatSubmissionRef({ kind: 'table', table: t.name, system: s.system });
      choices.push({ ref, label: `${s.system} (${t.name}, ${plural(s.tasks, 'task')}; proxy)` });
    }
  }
  return choices;
}

/** Whether a comparison names a submission: it then waits for the kept tables and reruns on a reload. */
export function namesSubmission(refs: readonly RetrieverRef[]): boolean {
  return refs.some((r) => r.submission !== undefined);
}
