// What the Playground's rank table shows per retriever: a memory's rank and score, or why there is
// none yet, and a line on a model still loading or embedding.
import { describeLoad } from '../../../lib/embed/load-progress.ts';
import type { RetrieverOption } from './retrievers.ts';
import type { RetrieverResult } from './session.ts';

/** `text` cut to `n` characters, an ellipsis marking the cut. */
export function shortText(text: string, n = 90): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

/** Memory `memory`'s cell: `#rank · score`, else failed, cancelled or computing. */
export function rankCell(result: RetrieverResult | undefined, memory: number): string {
  const m = result?.ranking?.memories[memory];
  if (m) return `#${m.rank} · ${m.score.toFixed(3)}`;
  if (result?.status === 'error') return 'failed';
  return result?.status === 'cancelled' ? 'cancelled' : 'computing…';
}

/** A dense model's failure, download or embedding progress; '' for BM25 and when idle. */
export function retrieverStatus(o: RetrieverOption, d: RetrieverResult | undefined): string {
  if (o.kind === 'bm25' || !d) return '';
  if (d.status === 'error') return `${o.label}: ${d.detail}`;
  if (d.status === 'loading') {
    return `${o.label}: loading the model${d.load ? `: ${describeLoad(d.load)}` : '…'}`;
  }
  if (d.status === 'running' && d.progress && d.progress.total > 1) {
    return `${o.label}: embedding ${d.progress.done} of ${d.progress.total} texts`;
  }
  return '';
}
