// Vector packs: a corpus's embeddings as one Parquet file, written by the CLI or the browser and
// read back into the vector cache, so a big corpus is embedded once on a fast machine. One row per
// (scope, text): text_sha256, kind, model, revision, dtype, pooling, prefix, dim, and the vector as
// little-endian float32 bytes.
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { errorMessage } from '../common/error-message.ts';
import {
  MODEL_DTYPES,
  type ModelDtype,
  type ModelSpec,
  type TextKind,
} from '../embed/model-registry.ts';
import {
  refKeyScope,
  vectorKey,
  vectorKeyScope,
  type VectorKeyScope,
} from '../embed/vector-cache-key.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import { describeFault, FAULT_CAUSE, rowsFaults, type VectorShape } from '../embed/vector-check.ts';
import type { EmbeddingMatrix, EmbedOptions } from '../embed/embedder.ts';

export const PACK_FORMAT = 'memlens-vector-pack';
export const PACK_VERSION = '1';
export const PACK_EXTENSION = '.parquet';

export interface PackRow {
  textSha256: string;
  kind: TextKind;
  scope: VectorKeyScope;
  vector: Float32Array;
}

export class VectorPackError extends Error {}

const STRING_COLUMNS = [
  'text_sha256',
  'kind',
  'model',
  'revision',
  'dtype',
  'pooling',
  'prefix',
] as const;

function vectorBytes(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i], true);
  return out;
}

function bytesVector(bytes: Uint8Array, dim: number): Float32Array {
  if (bytes.length !== dim * 4) {
    throw new VectorPackError(`a vector has ${bytes.length} bytes, not ${dim} × 4`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** One row per scope and text: a later duplicate replaces nothing. */
export function uniqueRows(rows: readonly PackRow[]): PackRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = vectorKey(r.scope, r.textSha256);
    return !seen.has(key) && !!seen.add(key);
  });
}

export function writeVectorPack(rows: readonly PackRow[]): ArrayBuffer {
  const unique = uniqueRows(rows);
  const column = (pick: (r: PackRow) => string) => unique.map(pick);
  return parquetWriteBuffer({
    columnData: [
      { name: 'text_sha256', data: column((r) => r.textSha256), type: 'STRING' },
      { name: 'kind', data: column((r) => r.kind), type: 'STRING' },
      { name: 'model', data: column((r) => r.scope.model), type: 'STRING' },
      { name: 'revision', data: column((r) => r.scope.revision), type: 'STRING' },
      { name: 'dtype', data: column((r) => r.scope.dtype), type: 'STRING' },
      { name: 'pooling', data: column((r) => r.scope.pooling), type: 'STRING' },
      { name: 'prefix', data: column((r) => r.scope.prefix), type: 'STRING' },
      { name: 'dim', data: unique.map((r) => r.vector.length), type: 'INT32' },
      { name: 'vector', data: unique.map((r) => vectorBytes(r.vector)), type: 'BYTE_ARRAY' },
    ],
    kvMetadata: [
      { key: 'format', value: PACK_FORMAT },
      { key: 'version', value: PACK_VERSION },
      { key: 'vector_encoding', value: 'float32le' },
    ],
  });
}

function isKind(v: unknown): v is TextKind {
  return v === 'document' || v === 'query';
}

function isDtype(v: string): v is ModelDtype {
  return MODEL_DTYPES.some((d) => d === v);
}

function text(record: Record<string, unknown>, name: string, row: number): string {
  const v = record[name];
  if (typeof v !== 'string') throw new VectorPackError(`row ${row}: ${name} is not a string`);
  return v;
}

export async function readVectorPack(buffer: ArrayBuffer): Promise<PackRow[]> {
  let format: string | undefined;
  try {
    const meta = parquetMetadata(buffer);
    format = meta.key_value_metadata?.find((kv) => kv.key === 'format')?.value;
  } catch (err) {
    throw new VectorPackError(`not a Parquet file: ${errorMessage(err)}`);
  }
  if (format !== PACK_FORMAT) {
    throw new VectorPackError(`not a MemLens vector pack (format: ${format ?? 'none'})`);
  }
  const records = await parquetReadObjects({ file: buffer, utf8: false });
  return records.map((record, i) => {
    const [sha, kind, model, revision, dtype, pooling, prefix] = STRING_COLUMNS.map((c) =>
      text(record, c, i),
    );
    const dim = record.dim;
    const bytes = record.vector;
    if (typeof dim !== 'number' || !Number.isInteger(dim) || dim <= 0) {
      throw new VectorPackError(`row ${i}: dim is not a positive integer`);
    }
    if (!(bytes instanceof Uint8Array)) throw new VectorPackError(`row ${i}: vector is not bytes`);
    if (!isKind(kind)) throw new VectorPackError(`row ${i}: kind ${kind} is not document/query`);
    if (!/^[0-9a-f]{64}$/.test(sha)) throw new VectorPackError(`row ${i}: bad text_sha256`);
    if (!isDtype(dtype)) throw new VectorPackError(`row ${i}: unknown dtype ${dtype}`);
    return {
      textSha256: sha,
      kind,
      scope: { model, revision, dtype, pooling, prefix },
      vector: bytesVector(bytes, dim),
    };
  });
}

/**
 * What a row's vector must be: the registry's dimension and normalisation for a site model, else
 * the pack's own (the first row of that model, and its pooling tag's `+l2`).
 */
function packShapes(rows: readonly PackRow[], specs: readonly ModelSpec[]) {
  const byModel = new Map<string, VectorShape>();
  for (const { scope, vector } of rows) {
    if (byModel.has(scope.model)) continue;
    const spec = specs.find((s) => s.id === scope.model);
    byModel.set(
      scope.model,
      spec
        ? { dim: spec.dims, normalize: spec.normalize }
        : { dim: vector.length, normalize: /\+l2@/.test(scope.pooling) },
    );
  }
  return (row: number): VectorShape =>
    byModel.get(rows[row].scope.model) ?? { dim: 0, normalize: false };
}

/**
 * Refuses the whole pack at its first bad vector (vector-check.ts), naming the row and the check:
 * nothing of a pack that fails reaches the cache or a retriever.
 */
export function refuseBadVectors(rows: readonly PackRow[], specs: readonly ModelSpec[]): void {
  const [fault] = rowsFaults(
    rows.map((r) => r.vector),
    packShapes(rows, specs),
    1,
  );
  if (!fault) return;
  const model = rows[fault.row].scope.model;
  throw new VectorPackError(
    `${describeFault('', fault)}: ${FAULT_CAUSE[fault.check]}. Nothing of the pack was kept; make it again with npm run embed:pack -- --model ${model} --out FILE`,
  );
}

export type Rejection =
  'unknown model' | 'unknown dtype' | 'other weights' | 'other pooling' | 'other prefix';

export interface PackCheck {
  /** Cache entries whose key the current registry would compute for the same text. */
  accepted: { key: string; vector: Float32Array }[];
  rejected: Partial<Record<Rejection, number>>;
}

function rejection(row: PackRow, specs: readonly ModelSpec[]): Rejection | null {
  const spec = specs.find((s) => s.id === row.scope.model);
  if (!spec) return 'unknown model';
  if (!spec.dtypes.some((d) => d === row.scope.dtype)) return 'unknown dtype';
  const want = vectorKeyScope(spec, row.scope.dtype, row.kind);
  if (want.revision !== row.scope.revision) return 'other weights';
  if (want.pooling !== row.scope.pooling) return 'other pooling';
  if (want.prefix !== row.scope.prefix) return 'other prefix';
  return null;
}

/** Keeps the rows this site's models would produce themselves, keyed as the vector cache keys them. */
export function checkPack(rows: readonly PackRow[], specs: readonly ModelSpec[]): PackCheck {
  const out: PackCheck = { accepted: [], rejected: {} };
  for (const row of uniqueRows(rows)) {
    const why = rejection(row, specs);
    if (why) out.rejected[why] = (out.rejected[why] ?? 0) + 1;
    else out.accepted.push({ key: vectorKey(row.scope, row.textSha256), vector: row.vector });
  }
  return out;
}

/** Pack rows for `texts` embedded by `model` as `kind`; `hashes[i]` is sha256(texts[i]). */
export function packRowsOf(
  model: ModelRef,
  kind: TextKind,
  hashes: readonly string[],
  matrix: { dim: number; vectors: Float32Array },
): PackRow[] {
  const scope = refKeyScope(model, kind);
  const { dim, vectors } = matrix;
  if (vectors.length !== hashes.length * dim) throw new RangeError('one vector per text');
  return hashes.map((textSha256, i) => ({
    textSha256,
    kind,
    scope,
    vector: vectors.slice(i * dim, (i + 1) * dim),
  }));
}

/**
 * What an embedder that answers from a pack returns: the rows (one per text, in order, each of
 * `dim` numbers) as one matrix, its progress reported as done at once, every text "cached".
 */
export function matrixFromPack(
  rows: readonly ArrayLike<number>[],
  dim: number,
  opts: Pick<EmbedOptions, 'onProgress'>,
): EmbeddingMatrix {
  const vectors = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => vectors.set(r, i * dim));
  const total = rows.length;
  opts.onProgress?.({ done: total, total, cached: total, textsPerSecond: 0, etaSeconds: 0 });
  return { dim, count: total, vectors };
}
