import type { QueryRow, TurnRow } from '../datasets/tables.ts';
import { locomoCategoryLabel } from '../datasets/locomo-categories.ts';
import { corpusMap, type Corpus, type Protocol, type ProtocolQuery } from './types.ts';

export const SIMILARITY_K = 10;

/** A conversation's turns as plain memories: the turn text alone, ids = dia_ids. */
export function turnCorpus(id: string, turns: readonly TurnRow[]): Corpus {
  return { id, docs: turns.map((t) => t.text), docIds: turns.map((t) => t.dia_id) };
}

export function conversationsOf(turns: readonly TurnRow[]): Map<string, TurnRow[]> {
  const out = new Map<string, TurnRow[]>();
  for (const t of turns) {
    const list = out.get(t.conv_id);
    if (list) list.push(t);
    else out.set(t.conv_id, [t]);
  }
  return out;
}

function toQuery(q: QueryRow): ProtocolQuery {
  return {
    id: q.query_id,
    series: 'question',
    group: locomoCategoryLabel(q.category),
    text: q.text,
    corpusId: q.conv_id,
    goldIds: [...new Set(q.gold_ids)],
  };
}

/**
 * LoCoMo in Figure 4: each QA question against its own conversation; its evidence turns are the
 * targets and every other turn of that conversation is background.
 */
export function locomoProtocol(turns: readonly TurnRow[], queries: readonly QueryRow[]): Protocol {
  const corpora = [...conversationsOf(turns)].map(([id, list]) => turnCorpus(id, list));
  return {
    benchmark: 'locomo',
    notes: [
      'query: the QA question; targets: its evidence turns; background: the other turns of its conversation',
      'memory text: the turn text alone (no speaker, date or caption); all categories; empty evidence skipped',
    ],
    corpora: corpusMap(corpora),
    queries: queries.map(toQuery),
    defaultK: SIMILARITY_K,
  };
}
