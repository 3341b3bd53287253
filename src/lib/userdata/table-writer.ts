import type { SqlEngine } from '../db/engine.ts';
import {
  ROLLBACK_SQL,
  createPiecesSql,
  createUserStagingSql,
  insertPiece,
  dropTableSql,
  insertUserRows,
  swapUserTableStatements,
  type InsertCell,
  type UserCell,
  type UserColumn,
  type UserTableMeta,
} from '../query/user-tables.ts';

// DuckDB-WASM's prepared statements fail ("memory access out of bounds") past about 20,000
// parameters or about 2 MB of bound text (1 MB worked, measured in Node); every cell, and every
// element of a list cell, is one parameter.
const BATCH_ROWS = 2000;
const BATCH_CHARS = 500_000;
const BATCH_PARAMS = 8000;
/** A text longer than this is staged in pieces of this size, each bound in its own statement. */
const PIECE_CHARS = 200_000;

let stagingCounter = 0;

function paramCount(row: readonly UserCell[]): number {
  return row.reduce((n: number, cell) => n + (Array.isArray(cell) ? cell.length : 1), 0);
}

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
  const pieces = `${staging}_pieces`;
  let piecesMade = false;
  let refs = 0;
  let count = 0;
  const insert = (batch: readonly (readonly InsertCell[])[]) => {
    const statement = insertUserRows(staging, batch);
    return engine.query(statement.sql, statement.params);
  };
  /** Long texts go to the piece table first; the row then refers to them. */
  const stageLong = async (row: readonly UserCell[]): Promise<readonly InsertCell[]> => {
    if (!row.some((c) => typeof c === 'string' && c.length > PIECE_CHARS)) return row;
    if (!piecesMade) {
      await engine.query(createPiecesSql(pieces));
      piecesMade = true;
    }
    return Promise.all(
      row.map(async (cell): Promise<InsertCell> => {
        if (typeof cell !== 'string' || cell.length <= PIECE_CHARS) return cell;
        const ref = ++refs;
        for (let k = 0; k * PIECE_CHARS < cell.length; k++) {
          const piece = insertPiece(
            pieces,
            ref,
            k,
            cell.slice(k * PIECE_CHARS, (k + 1) * PIECE_CHARS),
          );
          await engine.query(piece.sql, piece.params);
        }
        return { staged: { table: pieces, ref } };
      }),
    );
  };
  try {
    await engine.query(createUserStagingSql(staging, columns));
    let batch: (readonly InsertCell[])[] = [];
    let chars = 0;
    let params = 0;
    for await (const row of rows) {
      const staged = await stageLong(row);
      batch.push(staged);
      chars += staged === row ? approxChars(row) : 1024;
      params += paramCount(row);
      count++;
      if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS || params >= BATCH_PARAMS) {
        await insert(batch);
        batch = [];
        chars = 0;
        params = 0;
      }
    }
    if (batch.length > 0) await insert(batch);
    try {
      for (const statement of swapUserTableStatements(staging, { ...meta, rows: count })) {
        await engine.query(statement.sql, statement.params);
      }
    } catch (err) {
      await engine.query(ROLLBACK_SQL).catch(() => []);
      throw err;
    }
  } finally {
    await engine.query(dropTableSql(staging)).catch(() => []);
    if (piecesMade) await engine.query(dropTableSql(pieces)).catch(() => []);
  }
  return count;
}
