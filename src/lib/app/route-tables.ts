// What each page reads beyond the tables loaded at start (released results, MemLens's reproduced
// numbers, InMind's tables): the conversation benchmarks (the shared turns / queries /
// conversations / sessions tables and their extras) load only once a page that reads them is shown.
import { navEntries, type NavEntry, type PageKind } from './nav.ts';

/** Whether a page of this kind reads the conversation benchmarks' tables. */
export const READS_BENCHMARKS: Readonly<Record<PageKind, boolean>> = {
  // Its chart reads `results`; its table list shows what is loaded, whatever that is.
  home: false,
  // inmind_tasks, lme_background, results and reproduced.
  inmind: false,
  // Each chart is one query over `results`.
  paper: false,
  // lme_background.
  embeddings: false,
  // The conversation viewer and query explorer (datasets/viewer-queries.ts).
  benchmarks: true,
  // The table list and a declared benchmark set beside the others.
  mydata: true,
  // The protocols' inputs (protocol-kit/inputs.ts): turns, queries, locomo_plus_items.
  reproduce: true,
  // playground/sql.ts: queries and turns.
  playground: true,
  // Any table: its schema listing, examples and history name them.
  console: true,
};

/** Whether the page `pageId` reads them; an unknown id shows the first page, as the router does. */
export function routeReadsBenchmarks(
  pageId: string,
  entries: readonly NavEntry[] = navEntries(),
): boolean {
  const entry = entries.find((e) => e.id === pageId) ?? entries.at(0);
  return entry ? READS_BENCHMARKS[entry.kind] : false;
}
