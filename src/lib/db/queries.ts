import { containsPattern, quoteIdent } from './sql-text.ts';

/** Every SQL statement the app runs lives here, so pages and tests share one wording. */

export const RESULTS_SELECT = `SELECT paper, "table", "row", "column", CAST(value AS DOUBLE) AS value,
  value AS value_text, unit, note, section, CAST(source_line AS INTEGER) AS source_line,
  system, variant, metric, delta FROM {file}`;

export const INMIND_TABLE1_SQL = `SELECT "row", system, variant, metric, "column" AS metric_label,
  value, value_text, unit, paper, "table", section, source_line, note,
  regexp_extract(note, 'group: ([^;]+)', 1) AS "group",
  CASE WHEN regexp_extract(note, 'group: ([^;]+)', 1) = 'Naive RAG' THEN "row"
       ELSE system || ' (' || variant || ')' END AS label
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1' AND metric IN ('naive', 'target_recall', 'application')
ORDER BY source_line, CASE metric WHEN 'naive' THEN 0 WHEN 'target_recall' THEN 1 ELSE 2 END`;

export const INMIND_DOMAIN_COUNTS_SQL = `SELECT domain, CAST(count(*) AS INTEGER) AS tasks
FROM inmind_tasks GROUP BY domain ORDER BY tasks DESC, domain`;

export const TASK_SORT_COLUMNS = [
  'task_id',
  'domain',
  'entity_1',
  'entity_2',
  'naive_query',
  'query',
] as const;
export type TaskSortColumn = (typeof TASK_SORT_COLUMNS)[number];

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

export function inmindTaskListSql(
  search: string,
  sort: TaskSortColumn,
  descending: boolean,
): string {
  const where = search.trim()
    ? `WHERE ${TASK_SEARCH_FIELDS.map((f) => `${f} ILIKE ${containsPattern(search.trim())} ESCAPE '\\'`).join(' OR ')}`
    : '';
  return `SELECT task_id, domain, entity_1, entity_2, naive_query, query FROM inmind_tasks ${where}
ORDER BY ${sort} ${descending ? 'DESC' : 'ASC'}, task_id`;
}

export function inmindTaskSql(taskId: number): string {
  return `SELECT * FROM inmind_tasks WHERE task_id = ${Math.trunc(taskId)}`;
}

export function tableRowsSql(table: string, limit = 1000): string {
  return `SELECT * FROM ${quoteIdent(table)} LIMIT ${limit}`;
}
