import { LoadError, type Catalog } from '../db/catalog.ts';
import { defineQuery } from '../query/define-query.ts';
import { rowSchema } from '../query/row-schema.ts';
import { sql } from '../query/sql.ts';
import type { UserCell } from '../query/user-tables.ts';
import { DatasetFormatError } from '../datasets/validate.ts';
import type { ByteSource } from './byte-source.ts';
import { RECORD_COLUMNS, SUBMISSION_COLUMNS, recordCells, submissionCells } from './columns.ts';
import type { DataKind } from './inspect.ts';
import { SubmissionChecker } from './inmind-submission.ts';
import {
  describeMapping,
  mapRecord,
  mappingProblem,
  noMappingError,
  type Mapping,
} from './mapping.ts';
import type { FileFormat, UserRecord } from './record.ts';
import { readRecords, type RecordOptions } from './records.ts';
import { tableNameProblem } from './table-name.ts';
import { writeUserTable } from './table-writer.ts';
import { errorMessage } from '../common/error-message.ts';

export interface LoadPlan {
  format: FileFormat;
  kind: DataKind;
  mapping: Mapping;
  table: string;
}

export interface LoadResult {
  file: string;
  table: string;
  kind: DataKind;
  rows: number;
}

async function* mapRows(
  records: AsyncIterable<UserRecord>,
  toCells: (record: UserRecord) => UserCell[],
): AsyncGenerator<UserCell[]> {
  for await (const record of records) yield toCells(record);
}

/** What a submission's task ids are checked against. */
export const inmindTaskIdsQuery = defineQuery(
  'InMind task ids',
  () => sql`SELECT task_id FROM inmind_tasks`,
  rowSchema({ task_id: 'number' }),
);

/** Task ids of the loaded InMind tasks, or null when that table is not there. */
async function inmindTaskIds(catalog: Catalog): Promise<Set<number> | null> {
  try {
    const rows = await catalog.run(inmindTaskIdsQuery());
    return rows.length === 0 ? null : new Set(rows.map((r) => r.task_id));
  } catch {
    return null;
  }
}

/**
 * Streams the whole file into `plan.table` (a `user_` table). Any bad line, wrong type or DuckDB
 * failure throws an error naming the file (and line), and every table loaded before stays as it was.
 */
export async function loadUserFile(
  catalog: Catalog,
  source: ByteSource,
  plan: LoadPlan,
  options: RecordOptions = {},
): Promise<LoadResult> {
  const file = source.name;
  const nameProblem = tableNameProblem(plan.table);
  if (nameProblem) throw new LoadError(file, nameProblem);
  const records = readRecords(source, plan.format, options);
  const meta = { name: plan.table, file, kind: plan.kind, format: plan.format };
  try {
    let rows: number;
    if (plan.kind === 'inmind-submission') {
      const checker = new SubmissionChecker(file, await inmindTaskIds(catalog));
      const cells = mapRows(records, (r) => submissionCells(checker.check(r)));
      rows = await writeUserTable(catalog.engine, SUBMISSION_COLUMNS, cells, {
        ...meta,
        mapping: '',
      });
    } else {
      if (mappingProblem(plan.mapping)) throw noMappingError(file);
      const cells = mapRows(records, (r) => recordCells(mapRecord(r, plan.mapping, file)));
      const mapping = describeMapping(plan.mapping);
      rows = await writeUserTable(catalog.engine, RECORD_COLUMNS, cells, { ...meta, mapping });
    }
    return { file, table: plan.table, kind: plan.kind, rows };
  } catch (err) {
    if (err instanceof DatasetFormatError || err instanceof LoadError) throw err;
    if (options.signal?.aborted)
      throw new LoadError(file, 'loading cancelled; nothing was changed');
    throw new LoadError(file, errorMessage(err));
  }
}

/** The plan the mapping step starts from: what inspection detected and suggested. */
export function planFrom(inspection: {
  format: FileFormat;
  kind: DataKind;
  mapping: Mapping;
  table: string;
}): LoadPlan {
  return {
    format: inspection.format,
    kind: inspection.kind,
    mapping: inspection.mapping,
    table: inspection.table,
  };
}
