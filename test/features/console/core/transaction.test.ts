// The console's transactions on DuckDB-WASM (Node build), and its read/write decision fuzzed
// against DuckDB's own parser: texts built from the places the console's lexer and DuckDB's can
// disagree (nested comments, quoting, line terminators) around every kind of statement.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../../../../src/lib/db/node-engine.ts';
import {
  StatementCancelledError,
  type SqlEngine,
  type StatementRunner,
} from '../../../../src/lib/db/engine.ts';
import {
  catalogFingerprint,
  fingerprintChange,
  inCheckedWriteTransaction,
  inReadOnlyTransaction,
  TransactionRefusal,
} from '../../../../src/features/console/core/transaction.ts';
import {
  ConsoleError,
  runConsoleSql,
} from '../../../../src/features/console/core/console-runner.ts';
import { judgeSql, linkRunBlocker, planRun } from '../../../../src/features/console/core/guard.ts';
import { quoteIdent } from '../../../../src/lib/query/sql-text.ts';
import { seededRandom } from '../../../../src/lib/analysis/seeded-random.ts';

let engine: SqlEngine;
let runner: StatementRunner;

/** MemLens's table, a reader's Your data table, and one the console made. */
const SETUP = [
  'CREATE TABLE results AS SELECT range AS k, range * 2 AS v FROM range(50)',
  'CREATE TABLE user_good AS SELECT range AS k FROM range(20)',
  'CREATE TABLE mine AS SELECT 1 AS k',
];
const OWNERSHIP = {
  existing: new Set(['results', 'user_good', 'mine']),
  consoleOwned: new Set(['mine']),
  builtIn: new Set(['results']),
};
const NOT_MINE = new Set(['mine']);
/** The console's table and the ones a confirmed text may make of it or beside it. */
const CONSOLE_MAY_MAKE = new Set(['mine', 'mine2', 'mine_view', 'gone', 'mi"ne']);
const NOTHING = new Set<string>();

const OBJECTS_SQL = `
  SELECT 'TABLE' AS kind, database_name AS db, schema_name AS sch, table_name AS name FROM duckdb_tables()
  UNION ALL SELECT 'VIEW', database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal`;

/**
 * Drops every table and view, in every database and in both connections' temporary ones, and
 * the one macro a text makes, then makes the three tables again.
 */
async function reset(): Promise<void> {
  for (const run of [
    (sql: string) => engine.query(sql),
    async (sql: string) => (await runner.run(sql, 10_000)).rows,
  ]) {
    for (const o of await run(OBJECTS_SQL)) {
      const name = [o.db, o.sch, o.name].map((p) => quoteIdent(String(p))).join('.');
      await run(`DROP ${String(o.kind)} IF EXISTS ${name} CASCADE`);
    }
    await run('DROP MACRO IF EXISTS lower2');
  }
  for (const sql of SETUP) await engine.query(sql);
}

beforeAll(async () => {
  engine = await openNodeEngine();
  runner = await engine.openStatementRunner();
});

afterAll(async () => {
  await runner?.close();
  await engine?.close();
});

describe('transactions', () => {
  beforeEach(reset);

  it('a read-only transaction lets DuckDB refuse the write and keeps nothing', async () => {
    const before = await catalogFingerprint(runner, NOTHING);
    const err = await inReadOnlyTransaction(runner, () => runner.run('DELETE FROM results', 0))
      .then(() => null)
      .catch((e: unknown) => e);
    expect(String(err)).toMatch(/read-only mode/);
    await inReadOnlyTransaction(runner, () =>
      runner.run('CREATE TEMP TABLE results AS SELECT 1 AS forged', 0),
    );
    expect(fingerprintChange(before, await catalogFingerprint(runner, NOTHING))).toBeNull();
  });

  it('a statement that ends the transaction is refused as such', async () => {
    const err = await inReadOnlyTransaction(runner, () => runner.run('COMMIT', 0)).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransactionRefusal);
    expect(String(err)).toMatch(/ended the console’s own transaction/);
  });

  it('a write commits what it was meant to change and nothing else', async () => {
    await inCheckedWriteTransaction(runner, ['mine'], () =>
      runner.run('INSERT INTO mine VALUES (2)', 0),
    );
    expect(await engine.query('SELECT count(*)::INT AS n FROM mine')).toEqual([{ n: 2 }]);

    for (const sql of [
      'DELETE FROM results WHERE k < 3',
      'UPDATE user_good SET k = -k',
      'CREATE TEMP TABLE results AS SELECT 1 AS forged',
      'CREATE MACRO lower2(x) AS x',
      'DROP TABLE user_good',
    ]) {
      const before = await catalogFingerprint(runner, NOT_MINE);
      const err = await inCheckedWriteTransaction(runner, ['mine'], () => runner.run(sql, 0)).catch(
        (e: unknown) => e,
      );
      expect(err, sql).toBeInstanceOf(TransactionRefusal);
      expect(String(err), sql).toMatch(/it (created|changed|dropped) /);
      expect(fingerprintChange(before, await catalogFingerprint(runner, NOT_MINE)), sql).toBeNull();
    }
  });

  it('a cancel that lands while BEGIN runs leaves no transaction open', async () => {
    // The browser runner's order: DuckDB runs BEGIN to its end, then the run sees the abort.
    const cancelledAfterBegin = (controller: AbortController): StatementRunner => ({
      ...runner,
      async run(sql, maxRows, signal) {
        if (!sql.startsWith('BEGIN')) return runner.run(sql, maxRows, signal);
        await runner.run(sql, maxRows);
        controller.abort();
        throw new StatementCancelledError();
      },
    });
    const body = () => runner.run('SELECT 1', 1);
    for (const begin of [
      (r: StatementRunner, signal: AbortSignal) => inReadOnlyTransaction(r, body, signal),
      (r: StatementRunner, signal: AbortSignal) =>
        inCheckedWriteTransaction(r, ['mine'], body, signal),
    ]) {
      const controller = new AbortController();
      const cancelled = cancelledAfterBegin(controller);
      await expect(begin(cancelled, controller.signal)).rejects.toBeInstanceOf(
        StatementCancelledError,
      );
      const next = await runConsoleSql(runner, 'SELECT 42 AS answer');
      expect(next.rows).toEqual([{ answer: 42 }]);
    }
  });

  it('names what a statement changed', () => {
    const before = new Map([['table "memory"."main"."results"', 'rows=3']]);
    expect(
      fingerprintChange(before, new Map([['table "memory"."main"."results"', 'rows=2']])),
    ).toBe('it changed table "memory"."main"."results"');
    expect(fingerprintChange(before, new Map())).toBe('it dropped table "memory"."main"."results"');
    expect(fingerprintChange(new Map(), before)).toBe('it created table "memory"."main"."results"');
  });
});

// Statements of every kind the console meets; `{t}` is a table name as it may be written.
const READS = [
  'SELECT count(*) FROM {t}',
  'FROM {t}',
  'TABLE {t}',
  'WITH x AS (SELECT 1 AS k) SELECT * FROM x',
  'VALUES (1)',
  'DESCRIBE {t}',
  'SUMMARIZE {t}',
  'SHOW TABLES',
  'EXPLAIN SELECT * FROM {t}',
  'PIVOT {t} ON (k % 2) USING count(*)',
];
const WRITES = [
  'DROP TABLE {t}',
  'DROP TABLE IF EXISTS {t} CASCADE',
  'DELETE FROM {t}',
  'UPDATE {t} SET k = -1',
  'INSERT INTO {t} (k) VALUES (99)',
  'TRUNCATE {t}',
  'ALTER TABLE {t} RENAME TO gone',
  'ALTER TABLE {t} ADD COLUMN z INT',
  'CREATE OR REPLACE TABLE {t} AS SELECT 7 AS k',
  'CREATE TEMP TABLE {t} AS SELECT 7 AS k',
  'CREATE OR REPLACE VIEW {t} AS SELECT 7 AS k',
  'CREATE TABLE mine2 AS SELECT * FROM {t}',
  'CREATE VIEW mine_view AS SELECT 1 AS k',
  'CREATE MACRO lower2(x) AS x',
  'EXPLAIN ANALYZE DELETE FROM {t}',
  'WITH d AS (SELECT 1) DELETE FROM {t}',
  'INSERT INTO mine SELECT k FROM {t}',
  'COMMIT',
  'ROLLBACK',
  'BEGIN TRANSACTION',
  'CHECKPOINT',
  'SET lock_configuration = false',
];
const NAMES = [
  'results',
  '"results"',
  '"RESULTS"',
  'memory.main.results',
  '"memory"."main"."results"',
  'user_good',
  'mine',
];
const TERMINATORS = ['\n', '\r', '\r\n', '\u2028', '\u000b', '\f', ' '];
type Hider = (x: string, read: string, end: string) => string;
/** Wrappers `w(x)` where DuckDB nests block comments and the console’s lexer closes at the first end. */
const NESTED: Hider[] = [
  (x, read) => `/* /* */ ${read} -- */ ; ${x}`,
  (x, read, end) => `/* /* */ ${read} -- */ ;${end}${x}`,
  (x, read) => `/* /* */ ${read} /* */ ; ${x} -- */`,
];
/** Wrappers `w(x)` where comments, quotes and line terminators could make the two lexers part. */
const HIDERS: Hider[] = [
  (x) => x,
  (x) => `/* a */ ${x}`,
  (x, _read, end) => `-- c${end}${x}`,
  (x, read) => `${read} /* ; */ ; ${x}`,
  (x, read) => `SELECT 'a;b' ; ${x} -- ${read}`,
  (x, read) => `SELECT E'\\' ; ${x} -- '; ${read}`,
  (x, read) => `SELECT $$;$$ ; ${x} ; ${read}`,
  (x, read) => `SELECT $q$ $$ $q$ ; ${x} -- ${read}`,
  (x, read) => `SELECT "a;b" FROM (SELECT 1 AS "a;b") ; ${x} -- ${read}`,
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)];
}

function fuzzTexts(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = pick(random, NAMES);
    const read = pick(random, READS).replaceAll('{t}', pick(random, NAMES));
    const write = pick(random, WRITES).replaceAll('{t}', name);
    const hide = pick(random, random() < 0.5 ? NESTED : HIDERS);
    const end = pick(random, TERMINATORS);
    texts.push(hide(random() < 0.8 ? write : read, read, end));
  }
  return texts;
}

/** What the console does with `sql`, as ConsoleSession does: judged, asked for, run. */
async function consoleRun(
  sql: string,
  confirmed: boolean,
): Promise<'refused' | 'asked' | 'ran' | 'failed'> {
  const plan = planRun(judgeSql(sql, OWNERSHIP), confirmed);
  if (plan.kind === 'refused') return 'refused';
  if (plan.kind === 'confirm') return 'asked';
  return runConsoleSql(runner, sql, { writes: plan.writes }).then(
    () => 'ran',
    (err: unknown) => {
      expect(err).toBeInstanceOf(ConsoleError);
      return 'failed';
    },
  );
}

/** Whether DuckDB, running the text by itself, changes anything. */
async function duckdbWrites(sql: string, baseline: ReadonlyMap<string, string>): Promise<boolean> {
  await engine.query(sql).catch(() => []);
  // A text that left a transaction open (BEGIN) is closed before the fingerprint is read.
  await engine.query('ROLLBACK').catch(() => []);
  return fingerprintChange(baseline, await catalogFingerprint(runner, NOTHING)) !== null;
}

describe("the console's read/write decision, fuzzed against DuckDB's parser", () => {
  const texts = fuzzTexts(80, 20261207);

  it('no text changes MemLens or Your data tables; a link changes nothing at all', async () => {
    // reset() restores the same contents each time, so one fingerprint of each kind serves all.
    await reset();
    const everything = await catalogFingerprint(runner, NOTHING);
    const notTheConsoles = await catalogFingerprint(runner, CONSOLE_MAY_MAKE);
    let lexersDisagreed = 0;
    let duckdbWouldWrite = 0;
    for (const sql of texts) {
      const writes = await duckdbWrites(sql, everything);
      if (writes) duckdbWouldWrite++;

      await reset();
      if (linkRunBlocker(sql) === null) {
        // A link that runs on opening: its own judgement, no confirmation.
        const outcome = await consoleRun(sql, false);
        const change = fingerprintChange(everything, await catalogFingerprint(runner, NOTHING));
        expect(change, `link ${JSON.stringify(sql)}`).toBeNull();
        if (writes && outcome === 'failed') lexersDisagreed++;
      }

      // Typed and confirmed, the strongest case: only the console's own tables may change.
      await consoleRun(sql, true);
      const change = fingerprintChange(
        notTheConsoles,
        await catalogFingerprint(runner, CONSOLE_MAY_MAKE),
      );
      expect(change, `confirmed ${JSON.stringify(sql)}`).toBeNull();
      await reset();
    }
    // The fuzz reaches texts that write, and texts the console's lexer took for a query that
    // DuckDB read as a write (stopped by DuckDB's read-only transaction).
    expect(duckdbWouldWrite).toBeGreaterThan(texts.length / 5);
    expect(lexersDisagreed).toBeGreaterThan(5);
  });

  it('says what DuckDB refused, in the reader’s words', async () => {
    await reset();
    const sql = '/* /* */ SELECT 1 -- */ ; DROP TABLE results';
    expect(linkRunBlocker(sql)).toBeNull();
    const err = await runConsoleSql(runner, sql).catch((e: unknown) => e);
    expect(err).toMatchObject({
      refused: true,
      message: expect.stringMatching(
        /^Not run: DuckDB reads SELECT as one that writes, where the console read a query/,
      ),
    });
    expect(await engine.query('SELECT count(*)::INT AS n FROM results')).toEqual([{ n: 50 }]);
  });
});
