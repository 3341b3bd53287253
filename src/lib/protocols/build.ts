import { LOCOMO_PLUS_MODES, type LocomoPlusMode } from './defaults.ts';
import {
  INMIND_DEFAULTS,
  inmindFigure4Protocol,
  inmindProtocol,
  type InMindOptions,
} from '../protocol-kit/inmind.ts';
import {
  loadInMindInputs,
  loadLocomoPlusItems,
  loadQueries,
  loadTurns,
} from '../protocol-kit/inputs.ts';
import type { Catalog } from '../db/catalog.ts';
import { locomoProtocol } from '../protocol-kit/locomo.ts';
import { locomoConvProtocol, type LocomoConvSource } from './locomo-conv.ts';
import { locomoPlusProtocol } from '../protocol-kit/locomo-plus.ts';
import type { BenchmarkId, Protocol } from '../protocol-kit/types.ts';

export interface ProtocolSpec {
  benchmark: BenchmarkId;
  inmind: InMindOptions;
  /** LoCoMo-Plus only: the release's pairwise scores (default) or MemLens's retrieval stitching. */
  locomoPlus: LocomoPlusMode;
}

export const DEFAULT_SPEC: Readonly<ProtocolSpec> = Object.freeze({
  benchmark: 'inmind',
  inmind: INMIND_DEFAULTS,
  locomoPlus: LOCOMO_PLUS_MODES[0],
});

/** The paper's pools for LoCoMo-Conv's Table 4 (README: 10 conversations; 1,069 composed clusters). */
export const LOCOMO_CONV_PAPER_CONVERSATIONS = 10;
export const LOCOMO_CONV_PAPER_CLUSTERS = 1069;
const SMALL_COMPOSED_FILE_CLUSTERS = 300;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What of LoCoMo-Conv's paper pools the site serves, per series; empty when all of it. */
export function locomoConvScope(
  dialogConversations: readonly string[],
  composedClusters: number,
): Map<string, string> {
  const scope = new Map<string, string>();
  const n = dialogConversations.length;
  if (n < LOCOMO_CONV_PAPER_CONVERSATIONS) {
    const which =
      n === 0
        ? 'no dialog file'
        : `${plural(n, 'conversation')} (${dialogConversations.join(', ')})`;
    const line = `${which} of the paper's ${LOCOMO_CONV_PAPER_CONVERSATIONS}: only the locomo10_dialog excerpt is served`;
    for (const series of ['dialog', 'implicit', 'counterfactual']) scope.set(series, line);
  }
  if (composedClusters < LOCOMO_CONV_PAPER_CLUSTERS) {
    // 300 is the smaller companion file; the full one has the paper's 1,069.
    const file =
      composedClusters <= SMALL_COMPOSED_FILE_CLUSTERS
        ? ' (locomo10_multimem.json, not locomo10_multimem_full.json)'
        : '';
    scope.set(
      'composed',
      `${composedClusters} of the paper's ${LOCOMO_CONV_PAPER_CLUSTERS.toLocaleString('en-US')} composed clusters${file}`,
    );
  }
  return scope;
}

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
  const dialogConversations = [...new Set(convTurns.map((t) => t.conv_id))];
  if (convTurns.length > 0) {
    const conversations = dialogConversations.length;
    sources.push({
      name: `locomo10_dialog (${plural(conversations, 'conversation')})`,
      turns: convTurns,
      evidence: dialog.filter((q) => q.style === 'question'),
      queries: dialog.filter((q) => q.style !== 'question'),
    });
  }
  return {
    ...locomoConvProtocol(sources),
    scope: locomoConvScope(dialogConversations, composed.length),
  };
}

/** Reads what the benchmark needs from the catalog and builds its protocol (page and CLI alike). */
export async function buildProtocol(spec: ProtocolSpec, catalog: Catalog): Promise<Protocol> {
  switch (spec.benchmark) {
    case 'inmind': {
      const { tasks, background } = await loadInMindInputs(catalog);
      return inmindProtocol(tasks, background, spec.inmind);
    }
    case 'inmind-figure4': {
      const { tasks, background } = await loadInMindInputs(catalog);
      return inmindFigure4Protocol(tasks, background, spec.inmind);
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
