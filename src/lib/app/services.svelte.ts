// The app's shared services, made once by the shell and handed to every page and component
// through context: the catalog, the site base, the data version, the query client, the snapshot.
import { getContext, setContext } from 'svelte';
import type { Catalog } from '../db/catalog.ts';
import type { ChartSnapshot } from '../benchmarks/chart-snapshot.ts';
import { QueryClient } from '../query/query-client.ts';
import type { EmbedderHub } from '../embed/embedder-hub.ts';
import type { SqlState } from './load-marks.ts';
import type { TableStore } from '../userdata/persist-store.ts';
import { LazyTableStore, MemoryTableStore } from '../userdata/persist-store.ts';
import { RESTORE_WAITING, type RestoreStatus } from '../userdata/persist.ts';

export class AppServices {
  catalog: Catalog | null = $state.raw(null);
  /** Bumped whenever tables are (re)loaded; every useQuery asks again. */
  dataVersion = $state(0);
  snapshot: ChartSnapshot | null = $state.raw(null);
  sqlState: SqlState = $state('starting');
  /** The page shown reads the conversation benchmarks (route-tables.ts). */
  routeReadsBenchmarks = $state(false);
  /** Their load in this DuckDB: not asked for yet, running, or over (loaded or failed). */
  benchmarkLoad: 'deferred' | 'loading' | 'over' = $state('deferred');
  readonly queries = new QueryClient();
  /** Tables the reader loaded, with their file: what to load again if DuckDB dies (not shown, so not reactive). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly userFiles = new Map<string, string>();
  /** When each table this tab kept or restored was saved in the store (not shown either). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly keptHere = new Map<string, string>();

  /** Where user tables are kept between visits (IndexedDB; in memory where there is none). */
  readonly tableStore: TableStore =
    typeof indexedDB === 'undefined'
      ? new MemoryTableStore()
      : new LazyTableStore(async () => {
          const { IndexedDbTableStore } = await import('../userdata/persist-idb.ts');
          return new IndexedDbTableStore(indexedDB);
        });
  /** Restoring the kept tables after DuckDB starts. */
  restore: RestoreStatus = $state({ ...RESTORE_WAITING });

  private embedders: EmbedderHub | null = null;

  /**
   * `siteBase`: the site's base URL, read once (GitHub Pages serves MemLens under a subpath).
   * `makeHub`: how the page makes its embedder hub (src/browser/embedder-hub.ts).
   */
  constructor(
    readonly siteBase: string,
    private readonly makeHub: (siteBase: string) => EmbedderHub = noHub,
  ) {}

  /** The one embedder hub, made on first use: Reproduce, Playground and Embeddings share it. */
  get hub(): EmbedderHub {
    this.embedders ??= this.makeHub(this.siteBase);
    return this.embedders;
  }

  /**
   * DuckDB is up with the tables the page shown reads: queries can be answered (pages ask this,
   * not for the catalog). A page that reads the conversation benchmarks waits for their load.
   */
  get sqlReady(): boolean {
    return this.catalog !== null && (!this.routeReadsBenchmarks || this.benchmarkLoad === 'over');
  }

  /** What the header says: still loading while the page shown waits for its tables. */
  get routeSqlState(): SqlState {
    return this.sqlState === 'ready' && !this.sqlReady ? 'loading' : this.sqlState;
  }

  setCatalog(catalog: Catalog | null): void {
    this.catalog = catalog;
    this.queries.setSource(catalog);
  }

  /** Tables were created, replaced or dropped: cached answers are void. */
  dataChanged(): void {
    this.queries.invalidate();
    this.dataVersion++;
  }
}

function noHub(): EmbedderHub {
  throw new Error('No embedder hub here: the shell provides one (src/browser/embedder-hub.ts)');
}

const KEY = Symbol('memlens-services');

export function provideServices(services: AppServices): AppServices {
  setContext(KEY, services);
  return services;
}

let fallback: AppServices | null = null;

/** The shell's services; a component rendered alone (a test) gets one shared idle set. */
export function appServices(): AppServices {
  const provided = getContext<AppServices | undefined>(KEY);
  if (provided) return provided;
  fallback ??= new AppServices(document.baseURI);
  return fallback;
}
