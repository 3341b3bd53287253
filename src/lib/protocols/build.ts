import { INMIND_DEFAULTS, inmindProtocol, type InMindOptions } from './inmind.ts';
import { loadInMindInputs, loadLocomoPlusItems, loadQueries, loadTurns } from './inputs.ts';
import type { Catalog } from '../db/catalog.ts';
import { locomoProtocol } from './locomo.ts';
import { locomoConvProtocol, type LocomoConvSource } from './locomo-conv.ts';
import { locomoPlusProtocol } from './locomo-plus.ts';
import type { BenchmarkId, Protocol } from './types.ts';

export interface ProtocolSpec {
  benchmark: BenchmarkId;
  inmind: InMindOptions;
}

export const DEFAULT_SPEC: Readonly<ProtocolSpec> = Object.freeze({
  benchmark: 'inmind',
  inmind: INMIND_DEFAULTS,
});

/**
 * `question` runs on locomo10.json, as do the composed queries (their gold is LoCoMo evidence);
 * the conversational styles run on whichever dialog file the app loaded (full, or its excerpt).
 */
async function locomoConv(catalog: Catalog): Promise<Protocol> {
  const [turns, queries, convTurns, convQueries] = await Promise.all([
    loadTurns(catalog, 'locomo'),
    loadQueries(catalog, 'locomo'),
    loadTurns(catalog, 'locomo-conv'),
    loadQueries(catalog, 'locomo-conv'),
  ]);
  const composed = convQueries.filter((q) => q.style === 'composed');
  const dialog = convQueries.filter((q) => q.style !== 'composed');
  const sources: LocomoConvSource[] = [
    { name: 'locomo10', turns, evidence: queries, queries: [...queries, ...composed] },
  ];
  if (convTurns.length > 0) {
    const conversations = new Set(convTurns.map((t) => t.conv_id)).size;
    sources.push({
      name: `locomo10_dialog (${conversations} conversation${conversations === 1 ? '' : 's'})`,
      turns: convTurns,
      evidence: dialog.filter((q) => q.style === 'question'),
      queries: dialog.filter((q) => q.style !== 'question'),
    });
  }
  return locomoConvProtocol(sources);
}

/** Reads what the benchmark needs from the catalog and builds its protocol (page and CLI alike). */
export async function buildProtocol(spec: ProtocolSpec, catalog: Catalog): Promise<Protocol> {
  switch (spec.benchmark) {
    case 'inmind': {
      const { tasks, background } = await loadInMindInputs(catalog);
      return inmindProtocol(tasks, background, spec.inmind);
    }
    case 'locomo': {
      const [turns, queries] = await Promise.all([
        loadTurns(catalog, 'locomo'),
        loadQueries(catalog, 'locomo'),
      ]);
      return locomoProtocol(turns, queries);
    }
    case 'locomo-plus': {
      const [items, cueTurns, triggers, locomoTurns] = await Promise.all([
        loadLocomoPlusItems(catalog),
        loadTurns(catalog, 'locomo-plus'),
        loadQueries(catalog, 'locomo-plus'),
        loadTurns(catalog, 'locomo'),
      ]);
      return locomoPlusProtocol({ items, cueTurns, triggers, locomoTurns });
    }
    case 'locomo-conv':
      return locomoConv(catalog);
  }
}
