import type { Catalog } from '../db/catalog.ts';

/** What every page component receives from the app shell. */
export interface PageProps {
  /** The nav entry's id (a paper page finds its benchmark by it). */
  pageId: string;
  catalog: Catalog | null;
  /** Bumped whenever tables are (re)loaded, so pages re-query. */
  dataVersion: number;
  /** The page's view state, read from and written to the URL hash. */
  params: Record<string, string>;
  setParams: (changes: Record<string, string | null>, replace?: boolean) => void;
}
