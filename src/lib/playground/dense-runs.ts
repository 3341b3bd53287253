// One dense ranking per model, recomputed as the texts change; a result that arrives after a
// newer request for the same model is dropped.
import type { EmbedProgress } from '../embed/embedder.ts';
import type { DenseRanker } from './dense.ts';
import type { Ranking } from './rank.ts';
import { errorMessage } from '../common/error-message.ts';

export interface DenseResult {
  status: 'loading' | 'running' | 'done' | 'error';
  /** The latest finished ranking (kept while a newer one runs). */
  ranking: Ranking | null;
  progress: EmbedProgress | null;
  detail: string;
}

export class DenseRuns {
  private readonly rankers = new Map<string, Promise<DenseRanker>>();
  private readonly tokens = new Map<string, number>();
  private readonly results = new Map<string, DenseResult>();

  constructor(
    private readonly create: (modelId: string) => Promise<DenseRanker>,
    private readonly onChange: (modelId: string, result: DenseResult) => void,
  ) {}

  private set(id: string, patch: Partial<DenseResult>): void {
    const prev = this.results.get(id) ?? {
      status: 'loading',
      ranking: null,
      progress: null,
      detail: '',
    };
    const next = { ...prev, ...patch };
    this.results.set(id, next);
    this.onChange(id, next);
  }

  run(id: string, memories: readonly string[], query: string): void {
    const token = (this.tokens.get(id) ?? 0) + 1;
    this.tokens.set(id, token);
    const fresh = () => this.tokens.get(id) === token;
    let ranker = this.rankers.get(id);
    if (!ranker) {
      ranker = this.create(id);
      this.rankers.set(id, ranker);
      ranker.catch(() => this.rankers.delete(id));
      this.set(id, { status: 'loading', progress: null, detail: '' });
    } else {
      this.set(id, { status: 'running', progress: null, detail: '' });
    }
    ranker
      .then((r) =>
        r.rank(memories, query, (progress) => {
          if (fresh()) this.set(id, { status: 'running', progress });
        }),
      )
      .then((ranking) => {
        if (fresh()) this.set(id, { status: 'done', ranking, progress: null });
      })
      .catch((err: unknown) => {
        if (fresh()) this.set(id, { status: 'error', detail: errorMessage(err), progress: null });
      });
  }

  async dispose(): Promise<void> {
    const rankers = [...this.rankers.values()];
    this.rankers.clear();
    for (const r of rankers) await r.then((x) => x.dispose()).catch(() => undefined);
  }
}
