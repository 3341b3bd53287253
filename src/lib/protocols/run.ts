import type { QueryRunner } from '../query/query-client.ts';
import { buildProtocol, type ProtocolSpec } from './build.ts';
import { scoreProtocol, type Evaluation } from '../protocol-kit/evaluate.ts';
import type { PrepareOptions, Retriever } from '../protocol-kit/retriever.ts';
import type { Protocol } from '../protocol-kit/types.ts';

export interface RunTimings {
  /** Reading the tables and building corpora and queries. */
  buildMs: number;
  /** Embedding what the vector cache lacks (0 for BM25 and for a warm cache). */
  prepareMs: number;
  /** Scoring, ranking and splitting target from background. */
  scoreMs: number;
}

export interface ProtocolRun {
  protocol: Protocol;
  evaluation: Evaluation;
  timings: RunTimings;
}

/** What one retriever scored, and how long its vectors and its score took. */
export interface RetrieverScore {
  evaluation: Evaluation;
  prepareMs: number;
  scoreMs: number;
}

/**
 * The step every run takes once its protocol is built, the single view's and each retriever's of
 * a comparison: the retriever's vectors (none to make when `prepared`), then the score.
 */
export async function scoreRetriever(
  protocol: Protocol,
  retriever: Retriever,
  options: PrepareOptions & { prepared?: boolean } = {},
): Promise<RetrieverScore> {
  const { prepared = false, ...prepare } = options;
  const t1 = performance.now();
  if (!prepared) await retriever.prepare(protocol, prepare);
  options.signal?.throwIfAborted();
  const t2 = performance.now();
  const evaluation = scoreProtocol(protocol, retriever);
  return { evaluation, prepareMs: t2 - t1, scoreMs: performance.now() - t2 };
}

/** The one path from the tables to an evaluation, shared by the Reproduce page and the CLI. */
export async function runProtocol(
  reader: QueryRunner,
  spec: ProtocolSpec,
  retriever: Retriever,
  options: PrepareOptions = {},
): Promise<ProtocolRun> {
  const t0 = performance.now();
  const protocol = await buildProtocol(spec, reader);
  const buildMs = performance.now() - t0;
  const { evaluation, prepareMs, scoreMs } = await scoreRetriever(protocol, retriever, options);
  return { protocol, evaluation, timings: { buildMs, prepareMs, scoreMs } };
}
