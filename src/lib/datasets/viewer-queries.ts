// The conversation viewer's and query explorer's questions to DuckDB.
import { defineQuery } from '../query/define-query.ts';
import { rowSchema } from '../query/row-schema.ts';
import { plural } from '../common/plural.ts';
import { containsLike, ident, joinSql, sql, trusted, type SqlFragment } from '../query/sql.ts';
import { turnFromRow } from './conversation-items.ts';
import { queryFromRow } from './query-view.ts';
import { USER_TABLES_META, isUserTable } from '../query/user-tables.ts';

/** The fixed LongMemEval-S background every InMind task is injected into, as one conversation. */
export const INMIND_BACKGROUND = {
  dataset: 'inmind-background',
  conv: 'lme_s_background',
} as const;

/** The viewer holds one conversation in memory; a huge user table is shown up to this many turns. */
export const VIEWER_MAX_TURNS = 5000;

/** Datasets the viewer can show, from whichever of its tables are loaded. */
export const viewerDatasetsQuery = defineQuery(
  'viewer datasets',
  (tables: readonly string[]) => {
    const parts: SqlFragment[] = [];
    if (tables.includes('turns')) {
      parts.push(sql`SELECT 0 AS part, dataset, 'benchmark' AS kind,
  CAST(count(DISTINCT conv_id) AS INTEGER) AS n FROM turns GROUP BY dataset`);
    }
    if (tables.includes('lme_background')) {
      parts.push(sql`SELECT 1 AS part, ${INMIND_BACKGROUND.dataset} AS dataset, 'background' AS kind,
  CAST(count(*) AS INTEGER) AS n FROM lme_background`);
    }
    if (tables.includes(USER_TABLES_META)) {
      parts.push(sql`SELECT 2 AS part, name AS dataset, 'user' AS kind, 0 AS n
FROM ${ident(USER_TABLES_META)} WHERE kind = 'records'`);
    }
    if (parts.length === 0) return sql`SELECT NULL AS dataset, NULL AS kind, 0 AS n WHERE false`;
    return sql`SELECT dataset, kind, n FROM (${joinSql(parts, '\nUNION ALL\n')}) ORDER BY part, dataset`;
  },
  (row, i) => datasetOption(datasetRow(row, i)),
);

const datasetRow = rowSchema({
  dataset: 'string',
  kind: ['benchmark', 'background', 'user'],
  n: 'number',
});

function datasetOption(r: ReturnType<typeof datasetRow>): { dataset: string; label: string } {
  if (r.kind === 'benchmark')
    return { dataset: r.dataset, label: `${r.dataset} (${plural(r.n, 'conversation')})` };
  if (r.kind === 'background')
    return { dataset: r.dataset, label: `InMind background (${plural(r.n, 'turn')})` };
  return { dataset: r.dataset, label: `${r.dataset} (your data)` };
}

/** Natural order: conv-2 before conv-10, lp-9 before lp-10. */
function naturalOrder(column: string) {
  const c = ident(column);
  return sql`regexp_replace(${c}, '\\d+$', ''), TRY_CAST(regexp_extract(${c}, '(\\d+)$', 1) AS BIGINT), ${c}`;
}

export const conversationListQuery = defineQuery(
  'conversations',
  (dataset: string) => {
    if (dataset === INMIND_BACKGROUND.dataset) {
      return sql`SELECT ${INMIND_BACKGROUND.conv} AS conv_id, CAST(count(*) AS INTEGER) AS turns,
  CAST(count(DISTINCT session_id) AS INTEGER) AS sessions FROM lme_background`;
    }
    if (isUserTable(dataset)) {
      return sql`SELECT conversation AS conv_id, CAST(count(*) AS INTEGER) AS turns, 1 AS sessions
FROM ${ident(dataset)} GROUP BY conversation ORDER BY ${naturalOrder('conversation')}`;
    }
    return sql`SELECT conv_id, CAST(count(*) AS INTEGER) AS turns, CAST(count(DISTINCT session) AS INTEGER) AS sessions
FROM turns WHERE dataset = ${dataset} GROUP BY conv_id ORDER BY ${naturalOrder('conv_id')}`;
  },
  rowSchema({ conv_id: 'string', turns: 'number', sessions: 'number' }),
);

function conversationTurnsSelect(dataset: string, conv: string): SqlFragment {
  if (dataset === INMIND_BACKGROUND.dataset) {
    return sql`SELECT session_index + 1 AS session, id AS dia_id,
  CAST(row_number() OVER (ORDER BY session_index, turn_index) - 1 AS INTEGER) AS turn_index,
  role AS speaker, coalesce(timestamp, '') AS date, content AS text, NULL AS caption, NULL AS img_url
FROM lme_background ORDER BY session_index, turn_index`;
  }
  if (isUserTable(dataset)) {
    return sql`SELECT 1 AS session, 'L' || line AS dia_id,
  CAST(row_number() OVER (ORDER BY line) - 1 AS INTEGER) AS turn_index, coalesce(speaker, '') AS speaker,
  '' AS date, coalesce(memory, query, '') AS text, NULL AS caption, NULL AS img_url
FROM ${ident(dataset)} WHERE conversation = ${conv} ORDER BY line`;
  }
  return sql`SELECT session, dia_id, turn_index, speaker, date, text, caption, img_url FROM turns
WHERE dataset = ${dataset} AND conv_id = ${conv} ORDER BY turn_index`;
}

/** Turns of one conversation in order; a user table's records read as turns of session 1. */
export const conversationTurnsQuery = defineQuery(
  'conversation turns',
  (dataset: string, conv: string) =>
    sql`${conversationTurnsSelect(dataset, conv)} LIMIT ${trusted(String(VIEWER_MAX_TURNS))}`,
  (row) => turnFromRow(row),
);

const QUERY_COLUMNS = trusted(
  'dataset, query_id, conv_id, style, category, text, answer, gold_ids',
);

export const queryByIdQuery = defineQuery(
  'query',
  (dataset: string, queryId: string) =>
    sql`SELECT ${QUERY_COLUMNS} FROM queries WHERE dataset = ${dataset} AND query_id = ${queryId}`,
  (row) => queryFromRow(row),
);

export const queryFacetsQuery = defineQuery(
  'query facets',
  () => sql`SELECT dataset, style, category, CAST(count(*) AS INTEGER) AS n
FROM queries GROUP BY ALL ORDER BY dataset, style, category NULLS LAST`,
  rowSchema({ dataset: 'string', style: 'string', category: 'number?', n: 'number' }),
);

export interface QueryFilters {
  dataset: string | null;
  style: string | null;
  category: number | null;
  conv: string | null;
  /** Every whitespace-separated word must occur in the query text (case-insensitive). */
  search: string;
}

function queryWhere(f: QueryFilters): SqlFragment {
  const parts: SqlFragment[] = [];
  if (f.dataset !== null) parts.push(sql`dataset = ${f.dataset}`);
  if (f.style !== null) parts.push(sql`style = ${f.style}`);
  if (f.category !== null) parts.push(sql`category = ${Math.trunc(f.category)}`);
  if (f.conv !== null) parts.push(sql`conv_id = ${f.conv}`);
  for (const word of f.search.trim().split(/\s+/).filter(Boolean)) {
    parts.push(sql`text ILIKE ${containsLike(word)} ESCAPE '\\'`);
  }
  return parts.length === 0 ? sql`` : sql`WHERE ${joinSql(parts, ' AND ')}`;
}

export const queryListQuery = defineQuery(
  'queries',
  (filters: QueryFilters, limit: number) =>
    sql`SELECT ${QUERY_COLUMNS} FROM queries ${queryWhere(filters)} ORDER BY rowid LIMIT ${Math.trunc(limit)}`,
  (row) => queryFromRow(row),
);

export const queryCountQuery = defineQuery(
  'query count',
  (filters: QueryFilters) =>
    sql`SELECT CAST(count(*) AS INTEGER) AS n FROM queries ${queryWhere(filters)}`,
  rowSchema({ n: 'number' }),
);

/** Gold evidence of the given queries, in gold order, joined to their turns (text null if absent). */
export const goldTurnsQuery = defineQuery(
  'gold turns',
  (keys: readonly { dataset: string; query_id: string }[]) => {
    if (keys.length === 0) {
      return sql`SELECT NULL AS dataset, NULL AS query_id, NULL AS conv_id, NULL AS dia_id,
  NULL AS speaker, NULL AS text, NULL AS session WHERE false`;
    }
    const match = joinSql(
      keys.map((k) => sql`(dataset = ${k.dataset} AND query_id = ${k.query_id})`),
      ' OR ',
    );
    return sql`WITH g AS (
  SELECT dataset, query_id, conv_id, unnest(gold_ids) AS dia_id, generate_subscripts(gold_ids, 1) AS k
  FROM queries WHERE ${match}
)
SELECT g.dataset, g.query_id, g.conv_id, g.dia_id, t.turn_index, t.session, t.speaker, t.text
FROM g LEFT JOIN turns t ON t.dataset = g.dataset AND t.conv_id = g.conv_id AND t.dia_id = g.dia_id
ORDER BY g.dataset, g.query_id, g.k`;
  },
  rowSchema({
    dataset: 'string',
    query_id: 'string',
    conv_id: 'string',
    dia_id: 'string',
    speaker: 'string?',
    text: 'string?',
    session: 'number?',
  }),
);
