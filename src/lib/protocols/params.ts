import { DEVICE_CHOICES, type DeviceChoice } from '../embed/backend-choice.ts';
import { DEFAULT_SPEC, type ProtocolSpec } from './build.ts';
import { K_MAX } from './evaluate.ts';
import { BM25_ID, retrieverChoices } from './pool.ts';
import { isBenchmarkId } from './types.ts';

/** The Reproduce page's view state as it sits in the URL. */
export interface ReproduceParams {
  spec: ProtocolSpec;
  retriever: string;
  /** Null: the protocol's own k. */
  k: number | null;
  queryPrefix: boolean;
  device: DeviceChoice;
  /** Query opened in the drill-down. */
  query: string | null;
  /** Series shown in the per-query table; null: all. */
  series: string | null;
}

/** Unknown values fall back to defaults rather than failing the page. */
export function readReproduceParams(params: Record<string, string>): ReproduceParams {
  const bench = params.bench ?? '';
  const k = Number(params.k);
  return {
    spec: {
      benchmark: isBenchmarkId(bench) ? bench : DEFAULT_SPEC.benchmark,
      inmind: {
        target: params.target === 'user' ? 'user' : 'chunk',
        background: params.bg === 'content' ? 'content' : 'raw',
      },
    },
    retriever: retrieverChoices().some((c) => c.id === params.ret) ? params.ret : BM25_ID,
    k: Number.isInteger(k) && k >= 1 && k <= K_MAX ? k : null,
    queryPrefix: params.prefix !== 'off',
    device: DEVICE_CHOICES.find((d) => d === params.device) ?? 'auto',
    query: params.q || null,
    series: params.series || null,
  };
}
