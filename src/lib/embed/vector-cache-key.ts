// What a cached vector depends on: the model weights, how its output is pooled, and the exact
// text the model saw. The backend is deliberately not part of it (WASM and WebGPU agree to 1e-4).
import { modelRevision, type ModelDtype, type ModelSpec, type TextKind } from './model-registry.ts';
import type { ModelRef } from './model-ref.ts';
import { sha256Hex } from '../common/sha256.ts';

export { modelRevision };

export interface VectorKeyScope {
  model: string;
  revision: string;
  dtype: ModelDtype;
  /** Pooling, normalisation and truncation, e.g. `mean+l2@128`. */
  pooling: string;
  prefix: string;
}

export function poolingTag(spec: Pick<ModelSpec, 'pooling' | 'normalize' | 'maxTokens'>): string {
  return `${spec.pooling}${spec.normalize ? '+l2' : ''}@${spec.maxTokens}`;
}

export function vectorKeyScope(
  spec: ModelSpec,
  dtype: ModelDtype,
  kind: TextKind,
  from: 'site' | 'hub' = 'site',
): VectorKeyScope {
  return {
    model: spec.id,
    revision: modelRevision(spec, dtype, from),
    dtype,
    pooling: poolingTag(spec),
    prefix: kind === 'query' ? spec.queryPrefix : spec.documentPrefix,
  };
}

/** The scope of vectors `ref` computes as `kind`: what the cache and the packs key them on. */
export function refKeyScope(ref: ModelRef, kind: TextKind): VectorKeyScope {
  return {
    model: ref.id,
    revision: ref.revision,
    dtype: ref.dtype,
    pooling: poolingTag(ref.spec),
    prefix: kind === 'query' ? ref.spec.queryPrefix : ref.spec.documentPrefix,
  };
}

/**
 * The scope of vectors a browser load computes: keyed on the sha256 of the weights it read and
 * checked, so vectors of other bytes (tampered, or an unpinned file that changed) never match.
 * For weights the registry pins this is the reference's own revision.
 */
export function loadedKeyScope(
  ref: ModelRef,
  kind: TextKind,
  weightsSha256: string,
): VectorKeyScope {
  return { ...refKeyScope(ref, kind), revision: `sha256:${weightsSha256}` };
}

/** A JSON array, so no choice of separator can make two different scopes collide. */
export function vectorKey(scope: VectorKeyScope, textSha256: string): string {
  const { model, revision, dtype, pooling, prefix } = scope;
  return JSON.stringify([model, revision, dtype, pooling, prefix, textSha256]);
}

/** Keys for the raw texts (before the prefix, which the scope carries). */
export async function vectorKeys(scope: VectorKeyScope, texts: readonly string[]) {
  const hashes = await Promise.all(texts.map(sha256Hex));
  return hashes.map((hash) => vectorKey(scope, hash));
}
