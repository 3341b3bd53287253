import type { EmbedProgress } from './embedder.ts';

/** 0 until time has passed: a rate from a zero interval means nothing. */
export function textsPerSecond(texts: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (texts * 1000) / elapsedMs : 0;
}

/** Seconds left at `rate`; null while the rate is unknown, 0 once nothing remains. */
export function etaSeconds(remaining: number, rate: number): number | null {
  if (remaining <= 0) return 0;
  return rate > 0 ? remaining / rate : null;
}

export interface RunProgress extends EmbedProgress {
  /** Distinct texts the model embedded (and the cache stored) in this run. */
  computed: number;
  /** Forward passes (batches) the model ran in this run. */
  modelCalls: number;
}

/**
 * Progress of one run. Cache hits count as done at once; the rate and ETA only measure the
 * model's own work, so a mostly cached run does not promise an absurd speed.
 */
export class ProgressMeter {
  private done: number;
  private computed = 0;
  private modelCalls = 0;
  private readonly start: number;

  constructor(
    private readonly total: number,
    private readonly cached: number,
    /** Distinct texts the model has to embed. */
    private readonly toCompute: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.done = cached;
    this.start = now();
  }

  /** One batch is stored: `texts` distinct texts filling `rows` rows. */
  commit(texts: number, rows: number): RunProgress {
    this.computed += texts;
    this.done += rows;
    this.modelCalls += 1;
    return this.snapshot();
  }

  snapshot(): RunProgress {
    const rate = textsPerSecond(this.computed, this.now() - this.start);
    return {
      done: this.done,
      total: this.total,
      cached: this.cached,
      computed: this.computed,
      modelCalls: this.modelCalls,
      textsPerSecond: rate,
      etaSeconds: etaSeconds(this.toCompute - this.computed, rate),
    };
  }
}
