// One run of the reader's SQL on the console's connection: the rows (up to a cap), each column
// with its DuckDB type, the time DuckDB took, or the error with where DuckDB pointed.
import { StatementCancelledError, type StatementRunner } from '../../../lib/db/engine.ts';
import type { SqlRow } from '../../../lib/query/sql-values.ts';
import { rowSchema } from '../../../lib/query/row-schema.ts';
import { errorMessage } from '../../../lib/common/error-message.ts';
import { errorPosition, readDuckDbError, type ErrorPosition } from './error-position.ts';
import { consoleColumns, type ConsoleColumn, type DescribedColumn } from './result-types.ts';
import { describeSql, splitStatements, type Statement } from './statements.ts';
import {
  TransactionRefusal,
  inCheckedWriteTransaction,
  inReadOnlyTransaction,
  isReadOnlyRefusal,
} from './transaction.ts';

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
    const { rows } = await inReadOnlyTransaction(runner, () => runner.run(text, 10_000, signal));
    return rows.map(describedRow);
  } catch {
    return null;
  }
}

/** PIVOT without an IN list expands into several statements, which DuckDB cannot prepare. */
const UNPREPARABLE = new Set(['PIVOT', 'UNPIVOT']);

/** Which statement, as the reader counts them: `statement 2 (DELETE)`, or the keyword alone. */
function whichStatement(statement: Statement, index: number, count: number): string {
  const keyword = statement.keyword || 'statement';
  return count > 1 ? `statement ${index + 1} (${keyword})` : keyword;
}

const unpreparable = (which: string) =>
  `Not run: ${which} holds a ';' inside a string or comment, and DuckDB cannot check such a statement is only one (write the ';' as chr(59)).`;

function consoleError(err: unknown, statement: Statement, which: string): ConsoleError {
  if (err instanceof ConsoleError) return err;
  if (err instanceof TransactionRefusal) {
    return new ConsoleError(
      `Not run: DuckDB undid ${which}, since ${err.message}; the console changes only the tables the statement names, once you confirm. Nothing was kept.`,
      null,
      false,
      true,
    );
  }
  const cancelled = err instanceof StatementCancelledError;
  const message = errorMessage(err);
  if (isReadOnlyRefusal(message)) {
    return new ConsoleError(
      `Not run: DuckDB reads ${which} as one that writes, where the console read a query (a comment or quote the two read differently). Nothing was changed.`,
      null,
      false,
      true,
    );
  }
  const at = cancelled ? null : errorPosition(message, statement.text);
  const position = at && {
    ...at,
    from: at.from + statement.start,
    to: at.to + statement.start,
  };
  return new ConsoleError(readDuckDbError(message).text, position, cancelled);
}

export interface ConsoleRunOptions {
  /** Rows kept of the last result (default RESULT_CAP). */
  maxRows?: number;
  now?: () => number;
  signal?: AbortSignal;
  /**
   * Per statement, in order: the tables it may create, change or drop (lower-cased), as the
   * reader confirmed them. A statement with none runs in a read-only transaction.
   */
  writes?: readonly (readonly string[])[];
}

/**
 * Runs the statements of `sql` one by one, each checked by DuckDB's parser to be the one
 * statement the console judged and run in a transaction of its own (transaction.ts), and reads
 * the last one's rows. An aborted `signal` stops it wherever it is (StatementCancelledError, as
 * a cancelled ConsoleError).
 */
export async function runConsoleSql(
  runner: StatementRunner,
  sql: string,
  options: ConsoleRunOptions = {},
): Promise<ConsoleResult> {
  const { maxRows = RESULT_CAP, now = () => performance.now(), signal, writes = [] } = options;
  const started = now();
  const statements = splitStatements(sql);
  let result: Awaited<ReturnType<StatementRunner['run']>> = {
    columns: [],
    rows: [],
    truncated: false,
  };
  for (const [i, statement] of statements.entries()) {
    const which = whichStatement(statement, i, statements.length);
    const execute = async () => {
      if (!UNPREPARABLE.has(statement.keyword)) await runner.check(statement.text, signal);
      // DuckDB cannot prepare it, so nothing else proves it one statement: no ';' anywhere does.
      else if (statement.text.includes(';'))
        throw new ConsoleError(unpreparable(which), null, false, true);
      return runner.run(statement.text, i === statements.length - 1 ? maxRows : 0, signal);
    };
    const targets = writes[i] ?? [];
    try {
      result = await (targets.length > 0
        ? inCheckedWriteTransaction(runner, targets, execute, signal)
        : inReadOnlyTransaction(runner, execute, signal));
    } catch (err) {
      throw consoleError(err, statement, which);
    }
  }
  const ms = now() - started;
  const columns = consoleColumns(result.columns, await describe(runner, sql, signal));
  return { sql, columns, rows: result.rows, truncated: result.truncated, ms };
}
