// Curated playground cases. The texts are never copied here: each case names an InMind task or
// a LoCoMo question by id, and is read from the loaded benchmark tables.

import { domainLabel } from '../../../lib/common/domain-label.ts';
import type { InMindTask } from '../../../lib/protocol-kit/inmind.ts';

export interface InmindCaseDef {
  id: string;
  source: 'inmind';
  taskId: number;
  label: string;
}

export interface LocomoCaseDef {
  id: string;
  source: 'locomo';
  queryId: string;
  label: string;
}

export type CaseDef = InmindCaseDef | LocomoCaseDef;

export const CURATED_CASES: readonly CaseDef[] = [
  { id: 'tree-nut', source: 'inmind', taskId: 155, label: 'Tree-nut allergy → macarons' },
  { id: 'cat', source: 'inmind', taskId: 86, label: 'Weak immune system → getting a cat' },
  { id: 'i-485', source: 'inmind', taskId: 40, label: 'Pending I-485 → trip to Canada' },
  {
    id: 'locomo-direct',
    source: 'locomo',
    queryId: 'conv-26:q0',
    label: 'LoCoMo: a direct question (contrast)',
  },
];

export const DEFAULT_CASE = 'tree-nut';

export type QueryVariant = 'indirect' | 'naive' | 'question';

export interface CaseQuery {
  variant: QueryVariant;
  label: string;
  text: string;
}

export interface PlaygroundCase {
  id: string;
  label: string;
  /** Where the texts come from, e.g. "InMind task 155 (health_and_wellness)". */
  citation: string;
  memories: string[];
  queries: CaseQuery[];
}

export interface LocomoQueryFields {
  query_id: string;
  text: string;
  gold_ids: readonly string[];
}

export interface LocomoTurnFields {
  dia_id: string;
  speaker: string;
  text: string;
}

export function caseDef(id: string | undefined): CaseDef | undefined {
  return CURATED_CASES.find((c) => c.id === id);
}

/** The stored memory is the injected pair: the user's turn and the assistant's reply. */
export function inmindCase(def: InmindCaseDef, task: InMindTask): PlaygroundCase {
  if (task.task_id !== def.taskId) {
    throw new Error(`case ${def.id} expects InMind task ${def.taskId}, got ${task.task_id}`);
  }
  return {
    id: def.id,
    label: def.label,
    citation: `InMind task ${task.task_id} (${domainLabel(task.domain)})`,
    memories: [task.user_message, task.assistant_message],
    queries: [
      { variant: 'indirect', label: 'Indirect query (needs the memory)', text: task.query },
      { variant: 'naive', label: 'Naive query (asks for the memory)', text: task.naive_query },
    ],
  };
}

/** The memory is the question's gold evidence, in the conversation's order. */
export function locomoCase(
  def: LocomoCaseDef,
  query: LocomoQueryFields,
  turns: readonly LocomoTurnFields[],
): PlaygroundCase {
  const byId = new Map(turns.map((t) => [t.dia_id, t]));
  const memories = query.gold_ids.map((id) => {
    const turn = byId.get(id);
    if (!turn) throw new Error(`case ${def.id}: evidence turn ${id} not found`);
    return turn.text;
  });
  return {
    id: def.id,
    label: def.label,
    citation: `LoCoMo question ${query.query_id}, evidence ${query.gold_ids.join(', ')}`,
    memories,
    queries: [{ variant: 'question', label: 'Question', text: query.text }],
  };
}

export function queryOf(c: PlaygroundCase, variant: string | undefined): CaseQuery {
  return c.queries.find((q) => q.variant === variant) ?? c.queries[0];
}
