// What the submission proxy reads from DuckDB: the submission's indirect contexts, the InMind
// targets, and Table 1's released Target Recall rows to set beside it.
import { defineQuery } from '../query/define-query.ts';
import { rowSchema } from '../query/row-schema.ts';
import { ident, sql } from '../query/sql.ts';

export const submissionContextsQuery = defineQuery(
  'submission contexts',
  (
    table: string,
  ) => sql`SELECT system, CAST(task_id AS INTEGER) AS task_id, query_context AS context
FROM ${ident(table)} ORDER BY line`,
  rowSchema({ system: 'string', task_id: 'number', context: 'string' }),
);

export const proxyTargetsQuery = defineQuery(
  'InMind targets',
  () =>
    sql`SELECT CAST(task_id AS INTEGER) AS task_id, user_message FROM inmind_tasks ORDER BY task_id`,
  rowSchema({ task_id: 'number', user_message: 'string' }),
);

/** Table 1's Target Recall, one row per system as the paper prints it (judged by GPT-5-mini). */
export const releasedTargetRecallQuery = defineQuery(
  'InMind Table 1 target recall',
  () => sql`SELECT CASE WHEN system = 'Backbone' THEN 'Backbone in context'
       WHEN regexp_extract(note, 'group: ([^;]+)', 1) = 'Naive RAG' THEN "row"
       ELSE system || ' (' || variant || ')' END AS label,
  CAST(value AS DOUBLE) AS value, CAST(value_text AS VARCHAR) AS value_text, CAST(source_line AS INTEGER) AS source_line
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1' AND metric = 'target_recall'
ORDER BY source_line`,
  rowSchema({ label: 'string', value: 'number', value_text: 'string', source_line: 'number' }),
);

/** One system's recorded contexts, both turns, in file order: what its ranks are read from. */
export const submissionSystemRowsQuery = defineQuery(
  'submission system contexts',
  (table: string, system: string) =>
    sql`SELECT CAST(task_id AS INTEGER) AS task_id, naive_context, query_context
FROM ${ident(table)} WHERE system = ${system} ORDER BY line`,
  rowSchema({ task_id: 'number', naive_context: 'string', query_context: 'string' }),
);

/** The systems of a submission table, in order of first appearance, with their task counts. */
export const submissionSystemsQuery = defineQuery(
  'submission systems',
  (table: string) =>
    sql`SELECT system, CAST(count(*) AS INTEGER) AS tasks FROM ${ident(table)}
GROUP BY system ORDER BY min(line)`,
  rowSchema({ system: 'string', tasks: 'number' }),
);
