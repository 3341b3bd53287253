// The schema browser and the editor's completion: every table and view a reader can query, with
// its columns and types, grouped by where it came from.
import { defineQuery } from '../../../lib/query/define-query.ts';
import { rowSchema } from '../../../lib/query/row-schema.ts';
import { sql } from '../../../lib/query/sql.ts';

export const consoleSchemaQuery = defineQuery(
  'tables and columns',
  () => sql`SELECT t.table_name, t.table_type, c.column_name, c.data_type
FROM information_schema.tables t
JOIN information_schema.columns c USING (table_schema, table_name)
WHERE t.table_schema = 'main' AND NOT starts_with(t.table_name, '__')
ORDER BY t.table_name, c.ordinal_position`,
  rowSchema({
    table_name: 'string',
    table_type: 'string',
    column_name: 'string',
    data_type: 'string',
  }),
);

export type SchemaRow = ReturnType<ReturnType<typeof consoleSchemaQuery>['decode']>;

export type TableGroup = 'results' | 'benchmarks' | 'yours' | 'other';

export const TABLE_GROUPS: readonly TableGroup[] = ['results', 'benchmarks', 'yours', 'other'];

export const GROUP_LABELS: Readonly<Record<TableGroup, string>> = {
  results: 'Released and reproduced results',
  benchmarks: 'Benchmarks',
  yours: 'Your tables',
  other: 'Other',
};

export interface SchemaTable {
  name: string;
  view: boolean;
  group: TableGroup;
  columns: { name: string; type: string }[];
  rows: number | null;
}

export function tableGroup(name: string, benchmarkTables: ReadonlySet<string>): TableGroup {
  // run_*: a Reproduce run the reader saved as a table.
  if (name.startsWith('user_') || name.startsWith('run_')) return 'yours';
  if (['results', 'reproduced', 'paper_vs_ours'].includes(name) || name.startsWith('results_')) {
    return 'results';
  }
  if (benchmarkTables.has(name) || /^(inmind|lme|locomo|memuse)_/.test(name)) return 'benchmarks';
  return 'other';
}

/** One entry per table, in group order then by name, with row counts where known. */
export function schemaTables(
  rows: readonly SchemaRow[],
  counts: ReadonlyMap<string, number>,
  benchmarkTables: ReadonlySet<string>,
): SchemaTable[] {
  const byName = new Map<string, SchemaTable>();
  for (const r of rows) {
    let t = byName.get(r.table_name);
    if (!t) {
      t = {
        name: r.table_name,
        view: r.table_type === 'VIEW',
        group: tableGroup(r.table_name, benchmarkTables),
        columns: [],
        rows: counts.get(r.table_name) ?? null,
      };
      byName.set(r.table_name, t);
    }
    t.columns.push({ name: r.column_name, type: r.data_type });
  }
  const rank = (g: TableGroup) => TABLE_GROUPS.indexOf(g);
  return [...byName.values()].sort(
    (a, b) => rank(a.group) - rank(b.group) || a.name.localeCompare(b.name),
  );
}

/** lang-sql's completion schema: table → its column names. */
export function completionSchema(tables: readonly SchemaTable[]): Record<string, string[]> {
  return Object.fromEntries(tables.map((t) => [t.name, t.columns.map((c) => c.name)]));
}
