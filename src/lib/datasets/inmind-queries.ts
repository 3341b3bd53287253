// The InMind page's questions about the benchmark's tasks.
import { defineQuery } from '../query/define-query.ts';
import { rowSchema } from '../query/row-schema.ts';
import { containsLike, ident, joinSql, sql, trusted } from '../query/sql.ts';

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

const TASK_SEARCH_FIELDS = [
  'domain',
  'entity_1',
  'entity_2',
  'relation',
  'explanation',
  'user_message',
  'naive_query',
  'query',
];

export const taskListQuery = defineQuery(
  'InMind tasks',
  (search: string, sort: TaskSortColumn, descending: boolean) => {
    const term = search.trim();
    const where = term
      ? sql`WHERE ${joinSql(
          TASK_SEARCH_FIELDS.map((f) => sql`${ident(f)} ILIKE ${containsLike(term)} ESCAPE '\\'`),
          ' OR ',
        )}`
      : sql``;
    return sql`SELECT task_id, domain, entity_1, entity_2, naive_query, query FROM inmind_tasks ${where}
ORDER BY ${ident(sort)} ${trusted(descending ? 'DESC' : 'ASC')}, task_id`;
  },
  rowSchema({
    task_id: 'number',
    domain: 'string',
    entity_1: 'string?',
    entity_2: 'string?',
    naive_query: 'string?',
    query: 'string?',
  }),
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
