import type { SqlEngine } from '../db/engine.ts';
import {
  ROLLBACK_SQL,
  createUserStagingSql,
  dropTableSql,
  insertUserRowsSql,
  swapUserTableSql,
  type UserCell,
  type UserColumn,
  type UserTableMeta,
} from '../db/queries.ts';

const BATCH_ROWS = 2000;
const BATCH_CHARS = 2_000_000;

let stagingCounter = 0;

function approxChars(row: readonly UserCell[]): number {
  let n = 8;
  for (const cell of row) {
    if (typeof cell === 'string') n += cell.length + 4;
    else if (Array.isArray(cell)) n += cell.reduce((s: number, c: string) => s + c.length + 4, 8);
    else n += 8;
  }
  return n;
}

/**
 * Streams rows into a staging table in batches, then swaps it in with its catalogue entry in one
 * transaction. An error from the rows (a bad line) or from DuckDB leaves every existing table as it was.
 */
export async function writeUserTable(
  engine: SqlEngine,
  columns: readonly UserColumn[],
  rows: AsyncIterable<readonly UserCell[]>,
  meta: Omit<UserTableMeta, 'rows'>,
): Promise<number> {
  const staging = `__staging_${meta.name}_${++stagingCounter}`;
  let count = 0;
  try {
    await engine.query(createUserStagingSql(staging, columns));
    let batch: (readonly UserCell[])[] = [];
    let chars = 0;
    for await (const row of rows) {
      batch.push(row);
      chars += approxChars(row);
      count++;
      if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
        await engine.query(insertUserRowsSql(staging, batch));
        batch = [];
        chars = 0;
      }
    }
    if (batch.length > 0) await engine.query(insertUserRowsSql(staging, batch));
    try {
      await engine.query(swapUserTableSql(staging, { ...meta, rows: count }));
    } catch (err) {
      await engine.query(ROLLBACK_SQL).catch(() => []);
      throw err;
    }
  } finally {
    await engine.query(dropTableSql(staging)).catch(() => []);
  }
  return count;
}
