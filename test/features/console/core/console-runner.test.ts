import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../../../../src/lib/db/node-engine.ts';
import {
  StatementCancelledError,
  type SqlEngine,
  type StatementRunner,
} from '../../../../src/lib/db/engine.ts';
import {
  ConsoleError,
  runConsoleSql,
} from '../../../../src/features/console/core/console-runner.ts';

let engine: SqlEngine;
let runner: StatementRunner;

beforeAll(async () => {
  engine = await openNodeEngine();
  runner = await engine.openStatementRunner();
});

afterAll(async () => {
  await runner?.close();
  await engine?.close();
});

describe('runConsoleSql on DuckDB-WASM (Node build)', () => {
  it('returns rows with DuckDB type names and the time taken', async () => {
    let clock = 0;
    const result = await runConsoleSql(
      runner,
      "SELECT 42::BIGINT AS n, 'x' AS s, [1, 2] AS l, 1.5 AS d",
      { maxRows: 100, now: () => (clock += 7) },
    );
    expect(result.rows).toEqual([{ n: 42, s: 'x', l: [1, 2], d: 1.5 }]);
    expect(result.columns).toEqual([
      { name: 'n', type: 'BIGINT' },
      { name: 's', type: 'VARCHAR' },
      { name: 'l', type: 'INTEGER[]' },
      { name: 'd', type: 'DECIMAL(2,1)' },
    ]);
    expect(result.ms).toBe(7);
    expect(result.truncated).toBe(false);
  });

  it('keeps at most the cap, saying more rows followed', async () => {
    const result = await runConsoleSql(runner, 'SELECT * FROM range(250) r(i)', { maxRows: 100 });
    expect(result.rows).toHaveLength(100);
    expect(result.rows[99]).toEqual({ i: 99 });
    expect(result.truncated).toBe(true);
  });

  it('runs several statements and shows the last result; the runner sees the app tables', async () => {
    await engine.query('CREATE OR REPLACE TABLE app_table AS SELECT 3 AS k');
    const result = await runConsoleSql(
      runner,
      'CREATE OR REPLACE TABLE mine AS SELECT k + 1 AS k FROM app_table; SELECT k FROM mine',
      { writes: [['mine'], []] },
    );
    expect(result.rows).toEqual([{ k: 4 }]);
    expect(result.columns).toEqual([{ name: 'k', type: 'INTEGER' }]);
  });

  it('turns a syntax error into a ConsoleError with line and column', async () => {
    const sql = 'SELECT 1\nFORM range(3)';
    const err = await runConsoleSql(runner, sql).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConsoleError);
    const ce = err as ConsoleError;
    expect(ce.message).toMatch(/^Parser Error: syntax error/);
    expect(ce.position).toMatchObject({ line: 2 });
    expect(sql.slice(ce.position!.from, ce.position!.to)).toBe('range');
    expect(ce.cancelled).toBe(false);
  });

  it('runs nothing more once its signal is aborted, whatever step it was at', async () => {
    const cancel = new AbortController();
    cancel.abort();
    const err = await runConsoleSql(runner, 'CREATE TABLE never_made AS SELECT 1 AS x; SELECT 2', {
      maxRows: 100,
      signal: cancel.signal,
      writes: [['never_made'], []],
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ cancelled: true, position: null });
    const { rows } = await runner.run(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'never_made'",
      1,
    );
    expect(Number(rows[0].n)).toBe(0);
  });

  it('says a statement was cancelled, without a position', async () => {
    const cancelling: StatementRunner = {
      run: async () => {
        throw new StatementCancelledError();
      },
      check: async () => undefined,
      cancel: async () => true,
      close: async () => undefined,
    };
    const err = await runConsoleSql(cancelling, 'SELECT 1').catch((e: unknown) => e);
    expect(err).toMatchObject({ cancelled: true, position: null, message: /^Cancelled/ });
  });
});
