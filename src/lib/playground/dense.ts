// Dense ranking through the Embedder interface, whatever runs the model. The background is
// embedded once per model; runs are queued because an embedder takes one run at a time.
import type { EmbedProgress, Embedder } from '../embed/embedder.ts';
import { denseRanking, type Ranking } from './rank.ts';

export class DenseRanker {
  private background: Promise<Float32Array> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly embedder: Embedder,
    private readonly backgroundTexts: readonly string[],
  ) {}

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private backgroundVectors(onProgress?: (p: EmbedProgress) => void): Promise<Float32Array> {
    this.background ??= this.serial(async () => {
      const m = await this.embedder.embed(this.backgroundTexts, { kind: 'document', onProgress });
      return m.vectors;
    });
    this.background.catch(() => (this.background = null));
    return this.background;
  }

  async rank(
    memories: readonly string[],
    query: string,
    onProgress?: (p: EmbedProgress) => void,
  ): Promise<Ranking> {
    const background = await this.backgroundVectors(onProgress);
    const dim = this.embedder.spec.dims;
    const mem = memories.length
      ? (await this.serial(() => this.embedder.embed(memories, { kind: 'document' }))).vectors
      : new Float32Array(0);
    const q = (await this.serial(() => this.embedder.embed([query], { kind: 'query' }))).vectors;
    return denseRanking(q, background, mem, dim);
  }

  dispose(): Promise<void> {
    return this.embedder.dispose();
  }
}
