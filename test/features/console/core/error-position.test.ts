import { describe, expect, it } from 'vitest';
import {
  describePosition,
  errorPosition,
  readDuckDbError,
} from '../../../../src/features/console/core/error-position.ts';

// Messages as DuckDB-WASM 1.32 writes them (console-runner.test.ts beside this file gets them live).
describe('errorPosition', () => {
  it('reads the caret under a one-line query', () => {
    const sql = 'SELECT 1 FORM x';
    const message =
      'Parser Error: syntax error at or near "x"\n\nLINE 1: SELECT 1 FORM x\n                      ^';
    const p = errorPosition(message, sql);
    expect(p).toEqual({ line: 1, column: 15, from: 14, to: 15 });
    expect(describePosition(p!)).toBe('line 1, column 15');
  });

  it('counts lines and marks the whole word pointed at', () => {
    const sql = 'SELECT *\nFROM range(3) WHERE\n  nonexist > 1';
    const message =
      'Binder Error: Referenced column "nonexist" not found\n\nLINE 3:   nonexist > 1\n          ^';
    const p = errorPosition(message, sql);
    expect(p).toMatchObject({ line: 3, column: 3 });
    expect(sql.slice(p!.from, p!.to)).toBe('nonexist');
  });

  it('finds the spot in a long line DuckDB quoted cut short', () => {
    const head = `SELECT ${Array.from({ length: 30 }, (_, i) => `c${i}`).join(', ')}`;
    const sql = `${head}, oops FROM t`;
    const at = sql.indexOf('oops');
    const quote = sql.slice(at - 37, at + 40);
    const message = `Binder Error: x\n\nLINE 1: ...${quote}...\n${' '.repeat(8 + 3 + 37)}^`;
    const p = errorPosition(message, sql);
    expect(p).toMatchObject({ line: 1, column: at + 1, from: at, to: at + 4 });
  });

  it('reads the JSON errors of duckdb-wasm in a browser, with their offset', () => {
    const sql = 'SELECT 1\nFORM inmind_tasks';
    const message = JSON.stringify({
      exception_type: 'Parser',
      exception_message:
        'syntax error at or near "inmind_tasks"\n\nLINE 2: FORM inmind_tasks\n             ^',
      error_subtype: 'SYNTAX_ERROR',
      position: '14',
    });
    expect(readDuckDbError(message)).toEqual({
      text: 'Parser Error: syntax error at or near "inmind_tasks"\n\nLINE 2: FORM inmind_tasks\n             ^',
      offset: 14,
    });
    const p = errorPosition(message, sql);
    expect(p).toEqual({ line: 2, column: 6, from: 14, to: 26 });
    expect(readDuckDbError('{"not": "duckdb"}').offset).toBeNull();
    expect(readDuckDbError('{broken').text).toBe('{broken');
  });

  it('returns null when DuckDB gave no position', () => {
    expect(errorPosition('Catalog Error: Table with name nope does not exist!', 'FROM nope')).toBe(
      null,
    );
    expect(errorPosition('x\nLINE 9: y\n        ^', 'y')).toBeNull();
  });
});
