// The InMind page's questions about the benchmark's tasks.
import { defineQuery } from '../query/define-query.ts';
import { rowSchema } from '../query/row-schema.ts';
import { ident, joinSql, sql, trusted } from '../query/sql.ts';

export const domainCountsQuery = defineQuery(
  'tasks per domain',
  () => sql`SELECT domain, CAST(count(*) AS INTEGER) AS tasks
FROM inmind_tasks GROUP BY domain ORDER BY tasks DESC, domain`,
  rowSchema({ domain: 'string', tasks: 'number' }),
);

export const TASK_SORT_COLUMNS = [
  'task_id',
  'domain',
  'entity_1',
  'entity_2',
  'naive_query',
  'query',
] as const;
export type TaskSortColumn = (typeof TASK_SORT_COLUMNS)[number];

export function isTaskSortColumn(value: string): value is TaskSortColumn {
  return TASK_SORT_COLUMNS.some((c) => c === value);
}

/** Every field a reader may search: the stored fact, what is asked about, the queries, the bridge. */
const TASK_SEARCH_FIELDS = [
  'domain',
  'entity_1',
  'entity_2',
  'relation',
  'explanation',
  'user_message',
  'assistant_message',
  'naive_query',
  'query',
];

/** Words of a search: letters and digits, lowercased; everything else separates them. */
export function searchWords(search: string): string[] {
  return [...new Set(search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/** Control and invisible characters as U+XXXX, so a search from a link shows what it holds. */
export function visibleText(text: string): string {
  return text.replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/**
 * Why a non-blank search filters nothing (it holds no letter or digit, e.g. `?q=%00`), or null.
 */
export function unsearchableNote(search: string): string | null {
  if (search.trim() === '' || searchWords(search).length > 0) return null;
  return `The search “${visibleText(search)}” holds no letter or digit to look for, so no task is filtered out.`;
}

/** RE2 text matching `word` as a whole word or its plural, case-insensitively. */
function wordPattern(word: string): string {
  return `(?i)(^|[^\\p{L}\\p{N}])${word}(s|es)?($|[^\\p{L}\\p{N}])`;
}

/** Tasks where every word of the search is a word of some field ("cat" finds "cats", not "category"). */
function taskWhere(search: string) {
  const words = searchWords(search);
  if (words.length === 0) return sql``;
  const haystack = sql`concat_ws(' ', ${joinSql(
    TASK_SEARCH_FIELDS.map((f) => sql`coalesce(${ident(f)}, '')`),
    ', ',
  )})`;
  return sql`WHERE ${joinSql(
    words.map((w) => sql`regexp_matches(${haystack}, ${wordPattern(w)})`),
    ' AND ',
  )}`;
}

export const taskListQuery = defineQuery(
  'InMind tasks',
  (search: string, sort: TaskSortColumn, descending: boolean) =>
    sql`SELECT task_id, domain, entity_1, entity_2, naive_query, query FROM inmind_tasks ${taskWhere(search)}
ORDER BY ${ident(sort)} ${trusted(descending ? 'DESC' : 'ASC')}, task_id`,
  rowSchema({
    task_id: 'number',
    domain: 'string',
    entity_1: 'string?',
    entity_2: 'string?',
    naive_query: 'string?',
    query: 'string?',
  }),
);

export const taskCountQuery = defineQuery(
  'InMind task count',
  () => sql`SELECT CAST(count(*) AS INTEGER) AS n FROM inmind_tasks`,
  rowSchema({ n: 'number' }),
);

export const taskQuery = defineQuery(
  'InMind task',
  (taskId: number) => sql`SELECT * FROM inmind_tasks WHERE task_id = ${Math.trunc(taskId)}`,
  rowSchema({
    task_id: 'number',
    domain: 'string',
    entity_1: 'string?',
    entity_2: 'string?',
    relation: 'string?',
    explanation: 'string?',
    user_message: 'string?',
    assistant_message: 'string?',
    naive_query: 'string?',
    query: 'string?',
    source_url: 'string?',
  }),
);

/** The LongMemEval-S background's 486 turns, in trace order: the Embeddings page's corpus. */
export const lmeTurnTextsQuery = defineQuery(
  'LME-s background turns',
  () => sql`SELECT content FROM lme_background ORDER BY session_index, turn_index, id`,
  rowSchema({ content: 'string' }),
);
