// One model's unit vectors in memory, by kind and text: what the hub keeps per embedder so a
// protocol run, a release recompute or a playground ranking embeds each text once per session.
// The persistent tier is the IndexedDB `VectorCache` behind the embedder itself.
import { l2Normalize } from '../analysis/cosine.ts';
import type { EmbedKind, Embedder } from './embedder.ts';

export interface FillProgress {
  done: number;
  total: number;
  cached: number;
}

export interface FillOptions {
  signal?: AbortSignal;
  onProgress?: (p: FillProgress) => void;
}

export class UnitVectors {
  // One map per kind: a composite string key would be rebuilt and rehashed on every lookup.
  private readonly byKind = new Map<EmbedKind, Map<string, Float32Array>>();

  private rows(kind: EmbedKind): Map<string, Float32Array> {
    let rows = this.byKind.get(kind);
    if (!rows) {
      rows = new Map();
      this.byKind.set(kind, rows);
    }
    return rows;
  }

  get(kind: EmbedKind, text: string): Float32Array | undefined {
    return this.rows(kind).get(text);
  }

  /** The vector, or an error naming the text: scoring before `fill` is a bug, not a miss. */
  need(kind: EmbedKind, text: string): Float32Array {
    const v = this.get(kind, text);
    if (!v) throw new Error(`no ${kind} vector for ${JSON.stringify(text.slice(0, 40))}`);
    return v;
  }

  set(kind: EmbedKind, text: string, vector: Float32Array): void {
    this.rows(kind).set(text, vector);
  }

  missing(kind: EmbedKind, texts: Iterable<string>): string[] {
    const rows = this.rows(kind);
    return [...new Set(texts)].filter((t) => !rows.has(t));
  }

  get size(): number {
    let n = 0;
    for (const rows of this.byKind.values()) n += rows.size;
    return n;
  }

  /**
   * Embeds what is missing of each batch (in order, one embedder call per kind) and keeps it
   * normalised; progress counts as cached every distinct text already held and every one the
   * embedder's vector cache had.
   */
  async fill(
    embedder: Embedder,
    batches: readonly { kind: EmbedKind; texts: Iterable<string> }[],
    options: FillOptions = {},
  ): Promise<void> {
    const wanted = batches.map(({ kind, texts }) => ({ kind, all: new Set(texts) }));
    const misses = wanted.map(({ kind, all }) => ({ kind, texts: this.missing(kind, all) }));
    const total = misses.reduce((n, m) => n + m.texts.length, 0);
    const held = wanted.reduce((n, w) => n + w.all.size, 0) - total;
    let done = 0;
    // Texts the embedder found in the vector cache (another page's, say) count as cached too.
    let stored = 0;
    for (const { kind, texts } of misses) {
      if (texts.length === 0) continue;
      const base = done;
      const storedBefore = stored;
      const { dim, vectors } = await embedder.embed(texts, {
        kind,
        signal: options.signal,
        onProgress: (p) => {
          stored = storedBefore + p.cached;
          options.onProgress?.({ done: base + p.done, total, cached: held + stored });
        },
      });
      texts.forEach((t, i) =>
        this.set(kind, t, l2Normalize(vectors.subarray(i * dim, (i + 1) * dim))),
      );
      done = base + texts.length;
    }
  }
}
