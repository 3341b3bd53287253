// A vector pack as a retriever of a comparison: its vectors answer the protocol's texts, looked up
// by the cache key of the pack's own scope (model, weights, dtype, pooling, prefix, text sha256).
// A text the pack lacks refuses the run, naming the pack: it was made for other texts or settings.
import type { Embedder, EmbeddingMatrix, EmbedKind, EmbedOptions } from '../embed/embedder.ts';
import type { ModelSpec } from '../embed/model-registry.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import { vectorKey, vectorKeys, type VectorKeyScope } from '../embed/vector-cache-key.ts';
import {
  checkPack,
  matrixFromPack,
  readVectorPack,
  refuseBadVectors,
  uniqueRows,
  VectorPackError,
  type PackRow,
} from './pack.ts';

export class PackModelError extends Error {
  override name = 'PackModelError';
}

export interface PackModel {
  ref: ModelRef;
  embedder: Embedder;
  /** The pack's scope per kind of text, as its rows carry it. */
  scopes: Partial<Record<EmbedKind, VectorKeyScope>>;
  rows: number;
}

const POOLING_TAG = /^(mean|cls)(\+l2)?@(\d+)$/;

function oneScope(rows: readonly PackRow[], name: string): VectorKeyScope {
  const models = new Map<string, VectorKeyScope>();
  for (const r of rows) {
    const { model, revision, dtype, pooling } = r.scope;
    models.set(JSON.stringify([model, revision, dtype, pooling]), r.scope);
  }
  if (models.size !== 1) {
    const names = [...models.values()].map((s) => `${s.model} ${s.dtype}`).join(', ');
    throw new PackModelError(
      `${name}: holds the vectors of ${models.size} models (${names}); a comparison takes one model per pack`,
    );
  }
  return [...models.values()][0];
}

function scopesByKind(rows: readonly PackRow[], name: string) {
  const scopes: Partial<Record<EmbedKind, VectorKeyScope>> = {};
  for (const r of rows) {
    const had = scopes[r.kind];
    if (had && had.prefix !== r.scope.prefix) {
      throw new PackModelError(`${name}: its ${r.kind} vectors have two prefixes`);
    }
    scopes[r.kind] = r.scope;
  }
  return scopes;
}

/** The entry the retriever reads: the registry's where the pack is of a site model, else the pack's own scope. */
function packSpec(
  name: string,
  scope: VectorKeyScope,
  scopes: Partial<Record<EmbedKind, VectorKeyScope>>,
  dims: number,
): ModelSpec {
  const tag = POOLING_TAG.exec(scope.pooling);
  if (!tag) throw new PackModelError(`${name}: pooling "${scope.pooling}" is not mean|cls[+l2]@N`);
  return {
    id: name,
    label: `${scope.model} (pack)`,
    source: { kind: 'local', path: name },
    dims,
    pooling: tag[1] === 'cls' ? 'cls' : 'mean',
    normalize: tag[2] !== undefined,
    maxTokens: Number(tag[3]),
    queryPrefix: scopes.query?.prefix ?? '',
    documentPrefix: scopes.document?.prefix ?? '',
    dtypes: [scope.dtype],
    files: [{ path: name, dtype: scope.dtype }],
  };
}

function refuseOtherWeights(rows: readonly PackRow[], name: string, specs: readonly ModelSpec[]) {
  const model = rows[0]?.scope.model;
  if (!specs.some((s) => s.id === model)) return;
  const { rejected } = checkPack(rows, specs);
  const why = Object.entries(rejected).map(([reason, n]) => `${n} rows: ${reason}`);
  if (why.length > 0) {
    throw new PackModelError(
      `${name}: its ${model} vectors are not what this site's ${model} computes (${why.join('; ')})`,
    );
  }
}

/**
 * The pack's retriever. `name` is the reference as written (`pack:FILE`): the retriever's id and
 * the name in every message and row. Vectors of a site model must be of the registry's weights.
 */
export function packModel(
  rows: readonly PackRow[],
  name: string,
  specs: readonly ModelSpec[],
): PackModel {
  if (rows.length === 0) throw new PackModelError(`${name}: the pack has no vectors`);
  try {
    refuseBadVectors(rows, specs);
  } catch (err) {
    if (err instanceof VectorPackError) throw new PackModelError(`${name}: ${err.message}`);
    throw err;
  }
  const unique = uniqueRows(rows);
  const scope = oneScope(unique, name);
  const dims = unique[0].vector.length;
  if (unique.some((r) => r.vector.length !== dims)) {
    throw new PackModelError(`${name}: its vectors have different widths`);
  }
  refuseOtherWeights(unique, name, specs);
  const scopes = scopesByKind(unique, name);
  const spec = packSpec(name, scope, scopes, dims);
  const byKey = new Map(unique.map((r) => [vectorKey(r.scope, r.textSha256), r.vector]));
  const ref: ModelRef = {
    id: name,
    source: 'site',
    revision: scope.revision,
    dtype: scope.dtype,
    backend: 'node',
    spec,
  };
  const embedder: Embedder = {
    spec,
    backend: 'node',
    async embed(texts: readonly string[], opts: EmbedOptions): Promise<EmbeddingMatrix> {
      const kindScope = scopes[opts.kind];
      if (!kindScope) {
        throw new PackModelError(
          `${name}: has no ${opts.kind} vectors (it holds ${Object.keys(scopes).join(', ')}); it was made with another query-prefix setting`,
        );
      }
      const keys = await vectorKeys(kindScope, texts);
      const missing = keys.flatMap((k, i) => (byKey.has(k) ? [] : [i]));
      if (missing.length > 0) {
        const example = JSON.stringify(texts[missing[0]].slice(0, 80));
        throw new PackModelError(
          `${name}: lacks vectors for ${missing.length} of ${texts.length} ${opts.kind} texts of this benchmark (e.g. ${example}); it was made for other texts or settings: make one with npm run embed:pack -- --benchmark B --model M --out FILE`,
        );
      }
      return matrixFromPack(
        keys.map((k) => byKey.get(k) ?? []),
        dims,
        opts,
      );
    },
    dispose: async () => undefined,
  };
  return { ref, embedder, scopes, rows: unique.length };
}

/**
 * The packs a reader picked on the page, by their reference (`pack:<file name>`): a page cannot
 * reopen a file, so after a reload the reference is in the URL but the pack must be picked again.
 */
export class PickedPacks {
  private readonly byName = new Map<string, PackModel>();

  /** Reads and checks the file; a later file of the same name replaces it. */
  async add(
    fileName: string,
    buffer: ArrayBuffer,
    specs: readonly ModelSpec[],
  ): Promise<PackModel> {
    const name = `pack:${fileName}`;
    let rows: PackRow[];
    try {
      rows = await readVectorPack(buffer);
    } catch (err) {
      throw new PackModelError(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const pack = packModel(rows, name, specs);
    this.byName.set(name, pack);
    return pack;
  }

  get(name: string): PackModel | undefined {
    return this.byName.get(name);
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }
}
