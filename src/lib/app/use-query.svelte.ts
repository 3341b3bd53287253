// The one way a component reads from DuckDB: it names a query (or null for "nothing to ask"),
// and gets rows, loading and error back. Answers to superseded queries are dropped; a data
// reload asks again and keeps the previous rows on screen until the new ones arrive.
import { untrack } from 'svelte';
import type { BoundQuery } from '../query/define-query.ts';
import { appServices, type AppServices } from './services.svelte.ts';
import { errorMessage } from '../common/error-message.ts';

export interface QueryState<T> {
  readonly rows: readonly T[];
  /** True until the first answer (or error) for the current query. */
  readonly loading: boolean;
  /** Rows shown belong to an earlier query or data version while a new answer is on its way. */
  readonly stale: boolean;
  readonly error: string;
  /** SQL is up: the query can be answered now (or will be, once named). */
  readonly sqlReady: boolean;
  /** The key of the query the rows answer, or null before any answer. */
  readonly answered: string | null;
}

export function useQuery<T>(
  query: () => BoundQuery<T> | null,
  services: AppServices = appServices(),
): QueryState<T> {
  let rows: readonly T[] = $state.raw([]);
  let answered: string | null = $state(null);
  let error = $state('');
  let pending = $state(true);

  let answeredVersion = -1;

  $effect(() => {
    const q = query();
    const ready = services.catalog !== null;
    const version = services.dataVersion;
    if (!q || !ready) {
      pending = q !== null;
      return;
    }
    // The same query over the same data keeps its rows (the same objects): a change elsewhere in
    // the URL must not redraw, and so re-create, what it shows.
    const current = untrack(() => q.key === answered && version === answeredVersion && !error);
    if (current) return;
    let superseded = false;
    pending = true;
    services.queries.run(q).then(
      (result) => {
        if (superseded) return;
        rows = result;
        answered = q.key;
        answeredVersion = version;
        error = '';
        pending = false;
      },
      (err: unknown) => {
        if (superseded) return;
        error = errorMessage(err);
        pending = false;
      },
    );
    return () => {
      superseded = true;
    };
  });

  return {
    get rows() {
      return rows;
    },
    get loading() {
      return pending && answered === null;
    },
    get stale() {
      return pending && answered !== null;
    },
    get error() {
      return error;
    },
    get sqlReady() {
      return services.catalog !== null;
    },
    get answered() {
      return answered;
    },
  };
}
