// The CLI side of vector packs: embed a corpus, or a benchmark's protocol texts, with
// onnxruntime-node and write its pack.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lmeBackgroundRows } from '../../src/lib/datasets/inmind.ts';
import { parseJsonlObjects } from '../../src/lib/datasets/jsonl.ts';
import { listModelSpecs, type TextKind } from '../../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../../src/lib/embed/model-ref.ts';
import { createNodeEmbedder } from '../../src/lib/embed/node-embedder.ts';
import { sha256Hex } from '../../src/lib/common/sha256.ts';
import {
  packRowsOf,
  refuseBadVectors,
  uniqueRows,
  writeVectorPack,
  type PackRow,
} from '../../src/lib/vectors/pack.ts';
import type { EmbedKind } from '../../src/lib/embed/embedder.ts';
import type { CacheCounts } from '../../src/lib/embed/cached-embedder.ts';
import { recorder } from './site-vectors.ts';

export type CorpusSource =
  { kind: 'lme-background'; dataRoot: string } | { kind: 'jsonl'; file: string; field: string };

/** The texts of a corpus; the LME-s background is the Embeddings page's own corpus. */
export async function corpusTexts(source: CorpusSource): Promise<string[]> {
  if (source.kind === 'lme-background') {
    const file = path.join(source.dataRoot, 'inmind/lme_s_background.jsonl');
    return lmeBackgroundRows(await readFile(file, 'utf8'), 'inmind/lme_s_background.jsonl').map(
      (r) => r.content,
    );
  }
  const records = parseJsonlObjects(await readFile(source.file, 'utf8'), source.file);
  return records.map(({ line, value }) => {
    const v = value[source.field];
    if (typeof v !== 'string')
      throw new Error(`${source.file}:${line}: "${source.field}" is not a string`);
    return v;
  });
}

export interface PackOptions {
  model: ModelRef;
  kind: TextKind;
  texts: readonly string[];
  modelRoot?: string;
}

export async function embedPack(
  options: PackOptions,
): Promise<{ bytes: ArrayBuffer; rows: number; dim: number }> {
  const distinct = [...new Set(options.texts)];
  const { model } = options;
  const embedder = await createNodeEmbedder({ model, modelRoot: options.modelRoot });
  try {
    const matrix = await embedder.embed(distinct, { kind: options.kind });
    const hashes = await Promise.all(distinct.map(sha256Hex));
    const rows = uniqueRows(packRowsOf(model, options.kind, hashes, matrix));
    refuseBadVectors(rows, listModelSpecs());
    return { bytes: writeVectorPack(rows), rows: rows.length, dim: matrix.dim };
  } finally {
    await embedder.dispose();
  }
}

/** A Reproduce view: the benchmark's protocol at the paper's defaults, with the page's URL overrides. */
export interface BenchmarkPackOptions {
  model: ModelRef;
  /** A protocol id (`npm run reproduce -- --benchmark`). */
  benchmark: string;
  /** `target`, `bg`, `prefix` as the Reproduce page's URL spells them. */
  params?: Record<string, string>;
  /** The site folder with data/ (public/). */
  site: string;
  modelRoot?: string;
}

/**
 * The vectors a comparison of `benchmark` asks `model` for (its documents and queries, each as the
 * retriever embeds them), as a pack: `--compare pack:FILE` answers from it by the cache key.
 */
export async function benchmarkPack(
  options: BenchmarkPackOptions,
): Promise<{ bytes: ArrayBuffer; rows: number; dim: number; counts: CacheCounts }> {
  const { openSiteCatalog } = await import('./reproduce-catalog.ts');
  const { nodeEmbedderFactory } = await import('./reproduce-embedders.ts');
  const { RetrieverPool } = await import('../../src/lib/protocol-kit/pool.ts');
  const { readReproduceParams } = await import('../../src/lib/protocols/params.ts');
  const { runProtocol } = await import('../../src/lib/protocols/run.ts');
  const { model } = options;
  // Comparisons rank retrievers: LoCoMo-Plus in its retrieval mode.
  const view = readReproduceParams({
    mode: 'retrieval',
    ...options.params,
    bench: options.benchmark,
  });
  const counts: CacheCounts = { cached: 0, computed: 0 };
  const seen = new Map<EmbedKind, Map<string, Float32Array>>();
  const factory = nodeEmbedderFactory(options.modelRoot ?? null, counts);
  const pool = new RetrieverPool(async (ref) => recorder(await factory(ref), seen));
  const site = await openSiteCatalog(options.site);
  try {
    const retriever = await pool.retriever(model, view.queryPrefix);
    await runProtocol(site.catalog, view.spec, retriever);
  } finally {
    await pool.dispose();
    await site.close();
  }
  const rows: PackRow[] = [];
  const dim = model.spec.dims;
  for (const [kind, byText] of seen) {
    const texts = [...byText.keys()];
    const hashes = await Promise.all(texts.map(sha256Hex));
    const vectors = new Float32Array(texts.length * dim);
    texts.forEach((t, i) => vectors.set(byText.get(t) ?? [], i * dim));
    rows.push(...packRowsOf(model, kind, hashes, { dim, vectors }));
  }
  const unique = uniqueRows(rows);
  refuseBadVectors(unique, listModelSpecs());
  return { bytes: writeVectorPack(unique), rows: unique.length, dim, counts };
}
