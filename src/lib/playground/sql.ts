// The playground's queries and the conversion of their rows into cases.
import type { SqlRow } from '../db/engine.ts';
import { sql, type SqlFragment } from '../query/sql.ts';
import type { SqlParam } from '../query/sql-values.ts';
import { inmindTaskFromRow } from '../protocol-kit/inputs.ts';
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

const inmindDefs = CURATED_CASES.filter((c): c is InmindCaseDef => c.source === 'inmind');
const locomoDefs = CURATED_CASES.filter((c): c is LocomoCaseDef => c.source === 'locomo');

export const INMIND_CASES_SQL = `SELECT task_id, domain, user_message, assistant_message, naive_query, query
FROM inmind_tasks WHERE task_id IN (${inmindDefs.map((d) => d.taskId).join(', ')}) ORDER BY task_id`;

export function locomoQuerySql(def: LocomoCaseDef): SqlFragment {
  return sql`SELECT query_id, conv_id, text, gold_ids FROM queries
WHERE dataset = 'locomo' AND query_id = ${def.queryId}`;
}

export function locomoTurnsSql(convId: string, diaIds: readonly string[]): SqlFragment {
  return sql`SELECT dia_id, speaker, text FROM turns
WHERE dataset = 'locomo' AND conv_id = ${convId} AND dia_id IN (${diaIds})`;
}

const str = (v: unknown) => String(v ?? '');

export function inmindCasesFromRows(rows: readonly SqlRow[]): PlaygroundCase[] {
  return inmindDefs.flatMap((def) => {
    const row = rows.find((r) => Number(r.task_id) === def.taskId);
    if (!row) return [];
    return [inmindCase(def, inmindTaskFromRow(row))];
  });
}

interface CatalogLike {
  query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]>;
  tableNames(): Promise<string[]>;
}

export async function loadBackground(catalog: CatalogLike): Promise<string[]> {
  return (await catalog.query(BACKGROUND_SQL)).map((r) => str(r.content));
}

export async function loadInmindCases(catalog: CatalogLike): Promise<PlaygroundCase[]> {
  return inmindCasesFromRows(await catalog.query(INMIND_CASES_SQL));
}

/** Empty until the LoCoMo tables are loaded (they arrive after the InMind ones). */
export async function loadLocomoCases(catalog: CatalogLike): Promise<PlaygroundCase[]> {
  const tables = await catalog.tableNames();
  if (!tables.includes('queries') || !tables.includes('turns')) return [];
  const out: PlaygroundCase[] = [];
  for (const def of locomoDefs) {
    const q = locomoQuerySql(def);
    const [query] = await catalog.query(q.sql, q.params);
    if (!query) continue;
    const gold = Array.isArray(query.gold_ids) ? query.gold_ids.map(str) : [];
    const t = locomoTurnsSql(str(query.conv_id), gold);
    const turns = await catalog.query(t.sql, t.params);
    out.push(
      locomoCase(
        def,
        { query_id: str(query.query_id), text: str(query.text), gold_ids: gold },
        turns.map((t) => ({ dia_id: str(t.dia_id), speaker: str(t.speaker), text: str(t.text) })),
      ),
    );
  }
  return out;
}
