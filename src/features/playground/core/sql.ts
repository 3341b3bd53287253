// The playground's queries, with their row decoders, and the conversion of their rows into cases.
import { defineQuery } from '../../../lib/query/define-query.ts';
import { rowSchema } from '../../../lib/query/row-schema.ts';
import { sql } from '../../../lib/query/sql.ts';
import { inmindTaskRow } from '../../../lib/protocol-kit/inputs.ts';
import type { InMindTask } from '../../../lib/protocol-kit/inmind.ts';
import {
  CURATED_CASES,
  inmindCase,
  locomoCase,
  type InmindCaseDef,
  type LocomoCaseDef,
  type PlaygroundCase,
} from './cases.ts';

/** The 486 LongMemEval-S background turns, in the file's order, timestamp suffix removed. */
export const BACKGROUND_SQL =
  'SELECT content FROM lme_background ORDER BY session_index, turn_index, id';

const contentColumn = rowSchema({ content: 'string' });

export const backgroundQuery = defineQuery(
  'playground background',
  () => ({ sql: BACKGROUND_SQL, params: [] }),
  (row, i) => contentColumn(row, i).content,
);

const inmindDefs = CURATED_CASES.filter((c): c is InmindCaseDef => c.source === 'inmind');
const locomoDefs = CURATED_CASES.filter((c): c is LocomoCaseDef => c.source === 'locomo');

/** The InMind tasks the curated cases are made of. */
export const inmindCasesQuery = defineQuery(
  'playground InMind cases',
  () => sql`SELECT task_id, domain, user_message, assistant_message, naive_query, query
FROM inmind_tasks WHERE task_id IN (${inmindDefs.map((d) => d.taskId)}) ORDER BY task_id`,
  inmindTaskRow,
);

export function inmindCasesFromRows(rows: readonly InMindTask[]): PlaygroundCase[] {
  return inmindDefs.flatMap((def) => {
    const task = rows.find((r) => r.task_id === def.taskId);
    return task ? [inmindCase(def, task)] : [];
  });
}

/** The LoCoMo cases need the benchmark tables, which arrive after the InMind ones. */
export function hasLocomoTables(tables: readonly string[]): boolean {
  return tables.includes('queries') && tables.includes('turns');
}

const caseQueryColumns = rowSchema({
  query_id: 'string',
  conv_id: 'string',
  text: 'string',
  gold_ids: 'value',
});

export interface LocomoCaseQuery {
  query_id: string;
  conv_id: string;
  text: string;
  gold_ids: string[];
}

/** The curated LoCoMo questions. */
export const locomoCaseQueriesQuery = defineQuery(
  'playground LoCoMo questions',
  () => sql`SELECT query_id, conv_id, text, gold_ids FROM queries
WHERE dataset = 'locomo' AND query_id IN (${locomoDefs.map((d) => d.queryId)})`,
  (row, i): LocomoCaseQuery => {
    const r = caseQueryColumns(row, i);
    const gold = Array.isArray(r.gold_ids) ? r.gold_ids.map(String) : [];
    return { query_id: r.query_id, conv_id: r.conv_id, text: r.text, gold_ids: gold };
  },
);

const caseTurnColumns = rowSchema({
  conv_id: 'string',
  dia_id: 'string',
  speaker: 'string',
  text: 'string',
});

/** The evidence turns of those questions. */
export const locomoCaseTurnsQuery = defineQuery(
  'playground LoCoMo evidence',
  (questions: readonly LocomoCaseQuery[]) => {
    const convIds = [...new Set(questions.map((q) => q.conv_id))];
    const diaIds = [...new Set(questions.flatMap((q) => q.gold_ids))];
    if (diaIds.length === 0)
      return sql`SELECT conv_id, dia_id, speaker, text FROM turns WHERE false`;
    return sql`SELECT conv_id, dia_id, speaker, text FROM turns
WHERE dataset = 'locomo' AND conv_id IN (${convIds}) AND dia_id IN (${diaIds})`;
  },
  caseTurnColumns,
);

/** The LoCoMo cases in their curated order; a question not in the tables is left out. */
export function locomoCasesFromRows(
  questions: readonly LocomoCaseQuery[],
  turns: readonly { conv_id: string; dia_id: string; speaker: string; text: string }[],
): PlaygroundCase[] {
  return locomoDefs.flatMap((def) => {
    const query = questions.find((q) => q.query_id === def.queryId);
    if (!query) return [];
    const own = turns.filter(
      (t) => t.conv_id === query.conv_id && query.gold_ids.includes(t.dia_id),
    );
    return [locomoCase(def, query, own)];
  });
}
