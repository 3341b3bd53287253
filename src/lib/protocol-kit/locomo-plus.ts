import type { QueryRow, TurnRow } from '../datasets/tables.ts';
import type { LocomoPlusItem } from './inputs.ts';
import { conversationsOf, SIMILARITY_K } from './locomo.ts';
import { corpusMap, type Corpus, type Protocol } from './types.ts';

/** LoCoMo-Plus: the release's pairwise scores, or MemLens's retrieval stitching. */
export const LOCOMO_PLUS_MODES = ['release', 'retrieval'] as const;
export type LocomoPlusMode = (typeof LOCOMO_PLUS_MODES)[number];

/**
 * The repo stitches each item into `random.choice(locomo10)` with no seed, so no assignment can
 * be recovered; item i goes to conversation i mod 10 instead, which is reproducible and gives
 * each conversation the ~40 items a uniform draw gives it on average.
 */
export function hostConversation(itemIndex: number, convIds: readonly string[]): string {
  return convIds[itemIndex % convIds.length];
}

export interface LocomoPlusInputs {
  items: readonly LocomoPlusItem[];
  /** Cue turns (adapter rows, speaker prefix removed), conv_id = item_id. */
  cueTurns: readonly TurnRow[];
  triggers: readonly QueryRow[];
  locomoTurns: readonly TurnRow[];
}

/**
 * LoCoMo-Plus in Figure 4: trigger vs each cue turn (targets), background = every turn of the
 * host LoCoMo conversation. Cue turns go after the conversation: position only breaks ties.
 */
export function locomoPlusProtocol(inputs: LocomoPlusInputs): Protocol {
  const hosts = conversationsOf(inputs.locomoTurns);
  const convIds = [...hosts.keys()];
  const cues = conversationsOf(inputs.cueTurns);
  const corpora: Corpus[] = inputs.items.map((item) => {
    const hostId = hostConversation(item.item_index, convIds);
    const host = hosts.get(hostId) ?? [];
    const cue = cues.get(item.item_id) ?? [];
    return {
      id: item.item_id,
      shared: { id: hostId, size: host.length },
      docs: [...host.map((t) => t.text), ...cue.map((t) => t.text)],
      docIds: [...host.map((t) => t.dia_id), ...cue.map((t) => t.dia_id)],
    };
  });
  const relation = new Map(inputs.items.map((i) => [i.item_id, i.relation_type]));
  return {
    benchmark: 'locomo-plus',
    notes: [
      'query: trigger (speaker prefix removed); targets: its cue-dialogue turns',
      'background: all turns of LoCoMo conversation (item index mod 10), as the repo stitches each item into one conversation',
    ],
    corpora: corpusMap(corpora),
    queries: inputs.triggers.map((q) => ({
      id: q.query_id,
      series: 'trigger',
      group: relation.get(q.query_id) ?? '?',
      text: q.text,
      corpusId: q.conv_id,
      goldIds: [...new Set(q.gold_ids)],
    })),
    defaultK: SIMILARITY_K,
  };
}
