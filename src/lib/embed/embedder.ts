import type { ModelSpec } from './model-registry.ts';

export type EmbedKind = 'query' | 'document';
export type EmbedBackend = 'webgpu' | 'wasm' | 'node';

/** Row-major, L2-normalised when the model spec says so. */
export interface EmbeddingMatrix {
  dim: number;
  count: number;
  vectors: Float32Array;
}

export interface EmbedProgress {
  done: number;
  total: number;
  /** Rows served from the vector cache rather than the model. */
  cached: number;
  textsPerSecond: number;
  etaSeconds: number | null;
}

export interface EmbedOptions {
  kind: EmbedKind;
  onProgress?: (p: EmbedProgress) => void;
  signal?: AbortSignal;
}

/** The one interface analysis code depends on, whatever runs the model. */
export interface Embedder {
  readonly spec: ModelSpec;
  readonly backend: EmbedBackend;
  embed(texts: readonly string[], opts: EmbedOptions): Promise<EmbeddingMatrix>;
  dispose(): Promise<void>;
}
