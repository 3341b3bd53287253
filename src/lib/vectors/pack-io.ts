// What the Embeddings page does with packs, without the page: import into a vector store,
// export a finished run.
import type { ModelSpec, TextKind } from '../embed/model-registry.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import { plural } from '../common/plural.ts';
import { sha256Hex } from '../common/sha256.ts';
import type { VectorStore } from '../embed/vector-cache.ts';
import {
  checkPack,
  packRowsOf,
  readVectorPack,
  refuseBadVectors,
  writeVectorPack,
  type Rejection,
} from './pack.ts';

export interface ImportSummary {
  /** Vectors written to the store, each under the key the embedder will look up. */
  imported: number;
  rejected: Partial<Record<Rejection, number>>;
}

/** Writes in slices, so one huge pack is not one huge IndexedDB transaction. */
const PUT_SLICE = 5000;

export async function importPack(
  buffer: ArrayBuffer,
  specs: readonly ModelSpec[],
  store: VectorStore,
): Promise<ImportSummary> {
  const rows = await readVectorPack(buffer);
  refuseBadVectors(rows, specs);
  const { accepted, rejected } = checkPack(rows, specs);
  for (let i = 0; i < accepted.length; i += PUT_SLICE) {
    await store.putMany(accepted.slice(i, i + PUT_SLICE));
  }
  return { imported: accepted.length, rejected };
}

export function describeImport(name: string, s: ImportSummary): string {
  const skipped = Object.entries(s.rejected).map(([why, n]) => `${n} (${why})`);
  return `Imported ${plural(s.imported, 'vector')} from ${name}${skipped.length ? `; skipped ${skipped.join(', ')}` : ''}.`;
}

export interface FinishedRun {
  /** The reference the run embedded with: its pack rows carry its id, revision and dtype. */
  model: ModelRef;
  kind: TextKind;
  texts: readonly string[];
  matrix: { dim: number; vectors: Float32Array };
}

export async function exportPack(run: FinishedRun): Promise<ArrayBuffer> {
  const hashes = await Promise.all(run.texts.map(sha256Hex));
  return writeVectorPack(packRowsOf(run.model, run.kind, hashes, run.matrix));
}

export function packFileName({ model }: Pick<FinishedRun, 'model'>): string {
  return `memlens-vectors-${model.id}-${model.dtype}.parquet`.replace(/[^A-Za-z0-9._-]/g, '_');
}
