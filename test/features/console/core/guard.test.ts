import { describe, expect, it } from 'vitest';
import { judgeSql, linkRunBlocker } from '../../../../src/features/console/core/guard.ts';

const tables = {
  existing: new Set(['results', 'inmind_tasks', 'user_good', '__user_tables', 'scratch']),
  consoleOwned: new Set(['scratch', 'turns']),
  builtIn: new Set(['results', 'inmind_tasks', 'turns']),
};
const refusal = (sql: string) => judgeSql(sql, tables).refused;

describe('judgeSql', () => {
  it('lets queries run, whatever they read', () => {
    for (const sql of [
      'SELECT * FROM results',
      'WITH a AS (SELECT 1) FROM a',
      'DESCRIBE results',
      'SUMMARIZE inmind_tasks',
      'EXPLAIN SELECT 1',
      "SELECT 'DROP TABLE results' AS s",
    ]) {
      expect(judgeSql(sql, tables), sql).toMatchObject({ refused: null, writes: [] });
    }
  });

  it("refuses every change to MemLens's tables and to Your data's, saying why", () => {
    for (const sql of [
      'DROP TABLE results',
      'drop table if exists "RESULTS"',
      'DROP TABLE memory.main.results',
      'DELETE FROM results',
      'UPDATE results SET score = 0',
      'INSERT INTO inmind_tasks SELECT * FROM inmind_tasks',
      'CREATE OR REPLACE TABLE inmind_tasks AS SELECT 1',
      'CREATE TEMP TABLE results AS SELECT 1',
      'ALTER TABLE results RENAME TO gone',
      'TRUNCATE results',
    ]) {
      expect(refusal(sql), sql).toMatch(/one of MemLens's own tables, which every page reads/);
    }
    expect(refusal('CREATE TABLE turns AS SELECT 1'), 'a benchmark table not loaded yet').toMatch(
      /one of MemLens's own tables/,
    );
    expect(refusal('DROP TABLE user_good')).toMatch(/loaded on the Your data page/);
    expect(refusal('DELETE FROM __user_tables')).toMatch(/bookkeeping/);
    expect(refusal('DROP TABLE other.results')).toMatch(/could not tell which table/);
    expect(refusal('DROP TABLE scratch CASCADE')).toMatch(/no CASCADE/);
    expect(refusal('DROP SCHEMA main CASCADE')).toMatch(/drops only its own tables/);
  });

  it('refuses files, databases, extensions and settings, one reason per family', () => {
    expect(refusal("ATTACH 'http://127.0.0.1:4358/x.db' AS far")).toMatch(/attaches no other/);
    expect(refusal("COPY results TO 'http://127.0.0.1:4358/x.csv'")).toMatch(/no files/);
    expect(refusal('INSTALL httpfs')).toMatch(/without extensions/);
    expect(refusal('LOAD httpfs')).toMatch(/without extensions/);
    expect(refusal('SET VARIABLE leak = 1')).toMatch(/settings are fixed/);
    expect(refusal('PRAGMA enable_profiling')).toMatch(/settings are fixed/);
    expect(refusal('WITH a AS (SELECT 1) DELETE FROM scratch')).toMatch(/also writes/);
    expect(refusal('EXPLAIN ANALYZE DELETE FROM scratch')).toMatch(/also writes/);
  });

  it('names the statement of a longer text, and refuses all of it', () => {
    const sql =
      "SET VARIABLE leak=(SELECT string_agg(query,'|') FROM user_good); SELECT * FROM read_text('http://127.0.0.1:4358/leak')";
    expect(refusal(sql)).toMatch(/^Not run: statement 1 \(SET\)/);
    expect(refusal('SELECT 1; DROP TABLE results')).toMatch(/^Not run: statement 2 \(DROP\)/);
  });

  it('lets the console change its own tables, new ones included, listing them', () => {
    expect(
      judgeSql(
        'CREATE TABLE mine AS SELECT * FROM results; INSERT INTO mine SELECT * FROM results; DROP TABLE scratch',
        tables,
      ),
    ).toMatchObject({
      refused: null,
      writes: ['mine', 'scratch'],
    });
    expect(refusal('CREATE TABLE user_mine AS SELECT 1')).toMatch(/kept for the tables Your data/);
  });
});

describe('linkRunBlocker', () => {
  it('runs a link by itself only when it is one query that reads', () => {
    expect(linkRunBlocker('SELECT domain, count(*) FROM inmind_tasks GROUP BY 1')).toBeNull();
    expect(linkRunBlocker('DROP TABLE results')).toMatch(
      /holds a DROP statement, so it was not run by itself/,
    );
    expect(linkRunBlocker('SELECT 1; SELECT 2')).toMatch(/holds 2 statements/);
    expect(linkRunBlocker("SELECT * FROM read_text('x'); SET VARIABLE a = 1")).toMatch(
      /2 statements/,
    );
  });
});
