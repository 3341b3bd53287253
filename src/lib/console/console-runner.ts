// One run of the reader's SQL on the console's connection: the rows (up to a cap), each column
// with its DuckDB type, the time DuckDB took, or the error with where DuckDB pointed.
import { StatementCancelledError, type StatementRunner } from '../db/engine.ts';
import type { SqlRow } from '../query/sql-values.ts';
import { rowSchema } from '../query/row-schema.ts';
import { errorMessage } from '../common/error-message.ts';
import { errorPosition, readDuckDbError, type ErrorPosition } from './error-position.ts';
import { consoleColumns, type ConsoleColumn, type DescribedColumn } from './result-types.ts';
import { describeSql, splitStatements, type Statement } from './statements.ts';

/** Rows kept of one result; the rest are never read out of DuckDB. */
export const RESULT_CAP = 100_000;

export interface ConsoleResult {
  sql: string;
  columns: ConsoleColumn[];
  rows: SqlRow[];
  /** The result had more than `RESULT_CAP` rows. */
  truncated: boolean;
  /** Milliseconds from sending the text to the last row read. */
  ms: number;
}

export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly position: ErrorPosition | null,
    readonly cancelled: boolean,
    /** The console refused the text before DuckDB saw it (guard.ts says why). */
    readonly refused = false,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}

const describedRow = rowSchema({ column_name: 'string', column_type: 'string' });

async function describe(
  runner: StatementRunner,
  sql: string,
  signal?: AbortSignal,
): Promise<DescribedColumn[] | null> {
  const text = describeSql(sql);
  if (!text) return null;
  try {
    const { rows } = await runner.run(text, 10_000, signal);
    return rows.map(describedRow);
  } catch {
    return null;
  }
}

/** PIVOT without an IN list expands into several statements, which DuckDB cannot prepare. */
const UNPREPARABLE = new Set(['PIVOT', 'UNPIVOT']);

function consoleError(err: unknown, statement: Statement): ConsoleError {
  const cancelled = err instanceof StatementCancelledError;
  const message = errorMessage(err);
  const at = cancelled ? null : errorPosition(message, statement.text);
  const position = at && {
    ...at,
    from: at.from + statement.start,
    to: at.to + statement.start,
  };
  return new ConsoleError(readDuckDbError(message).text, position, cancelled);
}

/**
 * Runs the statements of `sql` one by one, each checked by DuckDB's parser to be the one
 * statement the console judged, and reads the last one's rows. An aborted `signal` stops it
 * wherever it is (StatementCancelledError, as a cancelled ConsoleError).
 */
export async function runConsoleSql(
  runner: StatementRunner,
  sql: string,
  maxRows = RESULT_CAP,
  now: () => number = () => performance.now(),
  signal?: AbortSignal,
): Promise<ConsoleResult> {
  const started = now();
  const statements = splitStatements(sql);
  let result: Awaited<ReturnType<StatementRunner['run']>> = {
    columns: [],
    rows: [],
    truncated: false,
  };
  for (const [i, statement] of statements.entries()) {
    try {
      if (!UNPREPARABLE.has(statement.keyword)) await runner.check(statement.text, signal);
      result = await runner.run(statement.text, i === statements.length - 1 ? maxRows : 0, signal);
    } catch (err) {
      throw consoleError(err, statement);
    }
  }
  const ms = now() - started;
  const columns = consoleColumns(result.columns, await describe(runner, sql, signal));
  return { sql, columns, rows: result.rows, truncated: result.truncated, ms };
}
