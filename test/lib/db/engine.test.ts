import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DUCKDB_START_PHASES,
  REGISTERED_DIR,
  duckdbStartMark,
  toPlainValue,
  type SqlEngine,
} from '../../../src/lib/db/engine.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';

let engine: SqlEngine;

beforeAll(async () => {
  engine = await openNodeEngine();
});

afterAll(async () => {
  await engine?.close();
});

describe("the marks of DuckDB's start (read by npm run bench:load)", () => {
  it('names one mark per phase, in the order they happen', () => {
    expect(DUCKDB_START_PHASES.map(duckdbStartMark)).toEqual([
      'memlens:duckdb:client',
      'memlens:duckdb:worker',
      'memlens:duckdb:instantiated',
      'memlens:duckdb:opened',
    ]);
  });
});

describe('Arrow rows to plain values', () => {
  it('turns DuckDB lists, structs, big integers and NULLs into JSON-like values', async () => {
    const [row] = await engine.query(
      "SELECT 42::BIGINT AS n, [1, 2, 3] AS list, {'a': 'x', 'b': [true]} AS struct, NULL AS nothing, 'é' AS text",
    );
    expect(row).toEqual({
      n: 42,
      list: [1, 2, 3],
      struct: { a: 'x', b: [true] },
      nothing: null,
      text: 'é',
    });
  });

  it('converts values Arrow hands out: BigInt, typed arrays, dates', () => {
    expect(toPlainValue(7n)).toBe(7);
    expect(toPlainValue(new Float32Array([0.5, 2]))).toEqual([0.5, 2]);
    expect(toPlainValue(new Date(Date.UTC(2024, 0, 2)))).toBe('2024-01-02T00:00:00.000Z');
    expect(toPlainValue(undefined)).toBeNull();
    expect(toPlainValue({ toJSON: () => ({ k: 1n }) })).toEqual({ k: 1 });
  });
});

describe('the locked configuration (LOCKDOWN_SQL, run by both engines at start-up)', () => {
  const refused = (sql: string) =>
    engine.query(sql).then(
      () => 'ran',
      (e: unknown) => String(e),
    );

  it('reads files registered under REGISTERED_DIR and nothing else', async () => {
    await engine.registerText(`${REGISTERED_DIR}ok.csv`, 'x,y\n1,2\n');
    await engine.registerText('elsewhere.csv', 'x,y\n1,2\n');
    expect(await engine.query(`SELECT * FROM read_csv('${REGISTERED_DIR}ok.csv')`)).toEqual([
      { x: 1, y: 2 },
    ]);
    for (const sql of [
      "SELECT * FROM read_csv('elsewhere.csv')",
      `SELECT * FROM read_csv('${REGISTERED_DIR}../elsewhere.csv')`,
      "SELECT * FROM read_text('http://127.0.0.1:9/leak?d=1')",
      "SELECT * FROM read_csv('https://example.org/x.csv')",
      "COPY (SELECT 1) TO 'http://127.0.0.1:9/x.csv'",
      "ATTACH 'http://127.0.0.1:9/x.db' AS far",
      "SELECT * FROM glob('*')",
    ]) {
      expect(await refused(sql), sql).toMatch(/Permission Error/);
    }
  });

  it('loads no extension and keeps every setting as it was', async () => {
    expect(await refused('LOAD httpfs')).toMatch(/Permission Error: Loading external extensions/);
    for (const sql of [
      'SET enable_external_access = true',
      'RESET enable_external_access',
      "SET allowed_directories = ['/']",
      'SET autoload_known_extensions = true',
      'SET lock_configuration = false',
    ]) {
      expect(await refused(sql), sql).toMatch(/the configuration has been locked/);
    }
    const [row] = await engine.query(
      "SELECT current_setting('enable_external_access') AS ext, current_setting('autoload_known_extensions') AS autoload, current_setting('lock_configuration') AS locked",
    );
    expect(row).toEqual({ ext: false, autoload: false, locked: true });
  });
});
