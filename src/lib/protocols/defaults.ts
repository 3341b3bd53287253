import type { PaperDefault, ProtocolSpec } from '../benchmarks/benchmark-def.ts';
import { optionQueryPrefix } from '../benchmarks/options.ts';
import {
  BENCHMARKS,
  isUserBenchmarkId,
  protocolRun,
  requireProtocolRun,
} from '../benchmarks/registry.ts';

export type { PaperDefault } from '../benchmarks/benchmark-def.ts';
export { LOCOMO_PLUS_MODES, type LocomoPlusMode } from '../protocol-kit/locomo-plus.ts';

/** Each protocol's paper defaults, from the benchmark registry. */
export const PAPER_DEFAULTS: Readonly<Record<string, PaperDefault>> = Object.freeze(
  Object.fromEntries(
    BENCHMARKS.flatMap((id) => {
      const run = protocolRun(id);
      return run ? [[id, run.defaults]] : [];
    }),
  ),
);

export function paperDefault(benchmark: string): PaperDefault {
  return requireProtocolRun(benchmark).defaults;
}

/** Whose choice a retriever is: the paper's, MemLens's own, or none (a declared table has no paper). */
export type RetrieverChoice = 'paper' | "MemLens's own" | 'no paper';

/** "(paper)" for the paper's own retriever, "(MemLens's own)" for every other choice. */
export function choiceLabel(benchmark: string, retriever: string): RetrieverChoice {
  if (isUserBenchmarkId(benchmark)) return 'no paper';
  return paperDefault(benchmark).paperRetrievers.includes(retriever) ? 'paper' : "MemLens's own";
}

/** The query prefix a protocol starts with: the paper's, unless a chosen option says otherwise. */
export function defaultQueryPrefix(
  spec: ProtocolSpec,
  paper: PaperDefault = paperDefault(spec.benchmark),
): boolean {
  return optionQueryPrefix(spec) ?? paper.queryPrefix;
}
