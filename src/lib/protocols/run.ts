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

/** The one path from the tables to an evaluation, shared by the Reproduce page and the CLI. */
export async function runProtocol(
  reader: QueryRunner,
  spec: ProtocolSpec,
  retriever: Retriever,
  options: PrepareOptions = {},
): Promise<ProtocolRun> {
  const t0 = performance.now();
  const protocol = await buildProtocol(spec, reader);
  const t1 = performance.now();
  await retriever.prepare(protocol, options);
  const t2 = performance.now();
  const evaluation = scoreProtocol(protocol, retriever);
  const t3 = performance.now();
  return {
    protocol,
    evaluation,
    timings: { buildMs: t1 - t0, prepareMs: t2 - t1, scoreMs: t3 - t2 },
  };
}
