/** `--compare`: several retrievers (registry, brought, submitted) on one protocol build, paired. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { rowsToCsv } from '../../src/lib/common/csv-export.ts';
import { errorMessage } from '../../src/lib/common/error-message.ts';
import type { Catalog } from '../../src/lib/db/catalog.ts';
import type { Embedder } from '../../src/lib/embed/embedder.ts';
import type { CacheCounts } from '../../src/lib/embed/cached-embedder.ts';
import type { ModelDtype } from '../../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../../src/lib/embed/model-ref.ts';
import { nodeRuntime } from '../../src/lib/embed/node-runtime.ts';
import { BM25_ID, RetrieverPool } from '../../src/lib/protocol-kit/pool.ts';
import { buildProtocol } from '../../src/lib/protocols/build.ts';
import { scoreRetriever } from '../../src/lib/protocols/run.ts';
import {
  compareRetrievers,
  type ComparedRetriever,
  type Comparison,
} from '../../src/lib/protocol-kit/compare.ts';
import {
  SUBMISSION_KIND,
  formatSubmissionRef,
  openSubmissions,
  pairedProtocol,
  submissionCompared,
  type SubmissionSource,
} from '../../src/lib/protocol-kit/submission-retriever.ts';
import { submissionSystemsQuery } from '../../src/lib/userdata/submission-proxy-queries.ts';
import { comparisonCsvRows, comparisonLines } from '../../src/lib/protocol-kit/compare-report.ts';
import {
  formatRetrieverRef,
  registryRef,
  resolveRetrieverRef,
  type ResolvedRetriever,
  type RetrieverRef,
} from '../../src/lib/protocol-kit/retriever-ref.ts';
import { bytesSource } from '../../src/lib/userdata/byte-source.ts';
import { inspectUserFile } from '../../src/lib/userdata/inspect.ts';
import { loadUserFile, planFrom } from '../../src/lib/userdata/load.ts';
import { freeTableName } from '../../src/lib/userdata/table-name.ts';
import { openBrought } from './brought.ts';
import { readInputFile } from './input-file.ts';
import { factoryFor, vectorLine } from './reproduce-embedders.ts';
import type { RunOptions } from './reproduce-run.ts';

const NODE = { backend: 'node' } as const;

export interface CompareRun {
  comparison: Comparison;
  lines: string[];
}

/** What embeds `model`'s texts: the dtype's runtime, or none for synthetic vectors. */
function runtimeOf(opts: RunOptions, model: ModelRef): string | undefined {
  return opts.syntheticDims === null ? nodeRuntime(model.dtype) : undefined;
}

const refLabel = (model: ResolvedRetriever) =>
  model === BM25_ID ? 'BM25' : `${model.spec.label} ${model.dtype}`;

/** The compared refs' models: registry models parsed, brought ones opened (files read, digests recorded). */
async function comparedModels(
  refs: readonly RetrieverRef[],
  dtype: ModelDtype | null,
): Promise<{ models: ResolvedRetriever[]; packs: Map<string, Embedder>; lines: string[] }> {
  const models: ResolvedRetriever[] = [];
  const packs = new Map<string, Embedder>();
  const lines: string[] = [];
  for (const ref of refs) {
    if (!ref.brought) {
      // A compared model runs in Node: its own dtype, else `--dtype`, else its first.
      const defaults = { ...NODE, dtype: dtype ?? undefined };
      models.push(resolveRetrieverRef(registryRef(ref), defaults, '--compare'));
      continue;
    }
    const opened = await openBrought(ref.brought, dtype);
    if (opened.embedder) packs.set(opened.ref.id, opened.embedder);
    models.push(opened.ref);
    lines.push(...opened.lines);
  }
  return { models, packs, lines: lines.length > 0 ? [...lines, ''] : [] };
}

/** Each submission file loaded once, as the page loads it: path → its table. */
async function loadSubmissionFiles(
  catalog: Catalog,
  refs: readonly RetrieverRef[],
): Promise<Map<string, string>> {
  const tables = new Map<string, string>();
  for (const ref of refs) {
    const sub = ref.submission;
    if (sub?.kind !== 'file' || tables.has(sub.path)) continue;
    let bytes: Buffer;
    try {
      bytes = await readInputFile(sub.path, 'submission: (an InMind submission)');
    } catch (err) {
      throw new Error(`${formatRetrieverRef(ref)}: ${errorMessage(err)}`);
    }
    const source = bytesSource(path.basename(sub.path), bytes);
    const plan = planFrom(await inspectUserFile(source));
    if (plan.kind !== SUBMISSION_KIND) {
      throw new Error(
        `${formatRetrieverRef(ref)}: ${sub.path} is not an InMind submission (its first record lacks task_id, system, config, naive, query)`,
      );
    }
    const taken = new Set(tables.values());
    const table = freeTableName(plan.table, taken);
    await loadUserFile(catalog, source, { ...plan, table });
    tables.set(sub.path, table);
  }
  return tables;
}

/** `submission:FILE` without a system: one retriever per system of the file, in file order. */
async function expandSubmissions(
  catalog: Catalog,
  refs: readonly RetrieverRef[],
  tables: ReadonlyMap<string, string>,
): Promise<{ refs: RetrieverRef[]; sources: SubmissionSource[] }> {
  const out: RetrieverRef[] = [];
  const sources: SubmissionSource[] = [];
  for (const ref of refs) {
    const sub = ref.submission;
    const table = sub?.kind === 'file' ? tables.get(sub.path) : undefined;
    if (sub?.kind !== 'file' || table === undefined) {
      out.push(ref);
      continue;
    }
    const systems =
      sub.system === null
        ? (await catalog.run(submissionSystemsQuery(table))).map((s) => s.system)
        : [sub.system];
    for (const system of systems) {
      const one = { kind: 'file' as const, path: sub.path, system };
      const name = formatSubmissionRef(one);
      out.push({ id: name, dtype: null, submission: one });
      sources.push({ name, table, system, whenMissing: '' });
    }
  }
  return { refs: out, sources };
}

/** `--compare`: one protocol build, each retriever on it, then the paired statistics. */
export async function reproduceComparison(
  opts: RunOptions,
  asked: readonly RetrieverRef[],
  catalog: Catalog,
): Promise<CompareRun> {
  const counts: CacheCounts = { cached: 0, computed: 0 };
  const tables = await loadSubmissionFiles(catalog, asked);
  const { refs, sources } = await expandSubmissions(catalog, asked, tables);
  const ranked = refs.filter((r) => !r.submission);
  const { models, packs, lines } = await comparedModels(ranked, opts.dtype);
  const factory = factoryFor(opts, counts);
  const pool = new RetrieverPool(async (model) => packs.get(model.id) ?? factory(model));
  try {
    const full = await buildProtocol(opts.spec, catalog);
    const subs = await openSubmissions(catalog, full, sources);
    const protocol = pairedProtocol(full, subs);
    const compared: ComparedRetriever[] = [];
    for (const ref of refs) {
      const sub = subs.get(formatRetrieverRef(ref));
      if (sub) {
        compared.push(await submissionCompared(protocol, sub));
        continue;
      }
      const model = models[ranked.findIndex((r) => r === ref)];
      const retriever = await pool.retriever(model, opts.queryPrefix);
      const { evaluation } = await scoreRetriever(protocol, retriever);
      const revision = model === BM25_ID ? undefined : model.revision;
      const runtime = model === BM25_ID || packs.has(model.id) ? undefined : runtimeOf(opts, model);
      compared.push({
        ref: formatRetrieverRef(ref),
        label: refLabel(model),
        evaluation,
        revision,
        runtime,
      });
    }
    const comparison = compareRetrievers(compared, {
      tieK: opts.k || protocol.defaultK,
      alpha: opts.alpha,
    });
    const vectors = vectorLine(counts);
    return {
      comparison,
      lines: [...lines, ...comparisonLines(comparison), ...(vectors ? [vectors] : [])],
    };
  } finally {
    await pool.dispose();
  }
}

export async function writeComparisonOutputs(run: CompareRun, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    'summary.txt': `${run.lines.join('\n')}\n`,
    'comparison.csv': rowsToCsv(comparisonCsvRows(run.comparison)),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return Object.keys(files).map((f) => path.join(dir, f));
}
