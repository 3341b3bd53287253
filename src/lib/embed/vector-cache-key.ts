// What a cached vector depends on: the model weights, how its output is pooled, and the exact
// text the model saw. The backend is deliberately not part of it (WASM and WebGPU agree to 1e-4).
import type { ModelDtype, ModelSpec, TextKind } from './model-registry.ts';
import { sha256Hex } from '../common/sha256.ts';

export interface VectorKeyScope {
  model: string;
  revision: string;
  dtype: ModelDtype;
  /** Pooling, normalisation and truncation, e.g. `mean+l2@128`. */
  pooling: string;
  prefix: string;
}

/**
 * What identifies the weights that ran: the sha256 the registry pins for the site's file, or the
 * Hub commit when the weights came from the Hub (or the registry pins no site hash). Never `main`.
 */
export function modelRevision(
  spec: ModelSpec,
  dtype: ModelDtype,
  from: 'site' | 'hub' = 'site',
): string {
  const hubPin = spec.hub && `${spec.hub.repo}@${spec.hub.revision}`;
  if (from === 'hub' && hubPin) return hubPin;
  const weights = spec.files.find((file) => file.dtype === dtype);
  if (weights?.sha256) return `sha256:${weights.sha256}`;
  if (hubPin) return hubPin;
  return spec.source.kind === 'local' ? `local:${spec.source.path}` : `unpinned:${spec.id}`;
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

/**
 * The scope of vectors a browser load computes: keyed on the sha256 of the weights it read and
 * checked, so vectors of other bytes (tampered, or an unpinned file that changed) never match.
 * For weights the registry pins this is the same revision `vectorKeyScope` gives.
 */
export function loadedKeyScope(
  spec: ModelSpec,
  dtype: ModelDtype,
  kind: TextKind,
  weightsSha256: string,
): VectorKeyScope {
  return { ...vectorKeyScope(spec, dtype, kind), revision: `sha256:${weightsSha256}` };
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
