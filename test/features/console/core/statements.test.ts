import { describe, expect, it } from 'vitest';
import {
  describeSql,
  hasStatement,
  mayChangeTables,
  splitStatements,
} from '../../../../src/features/console/core/statements.ts';

describe('splitStatements', () => {
  it('splits on semicolons outside strings, quoted names and comments', () => {
    const sql = `-- lead; comment\nSELECT 'a;b' AS "x;y"; /* c; */ create table t AS SELECT 1;\n`;
    expect(splitStatements(sql).map(({ text, keyword }) => ({ text, keyword }))).toEqual([
      { text: `-- lead; comment\nSELECT 'a;b' AS "x;y"`, keyword: 'SELECT' },
      { text: '/* c; */ create table t AS SELECT 1', keyword: 'CREATE' },
    ]);
  });

  it('reads doubled quotes inside a string as one quote', () => {
    expect(splitStatements("SELECT 'it''s; fine'; SELECT 2").map((s) => s.keyword)).toEqual([
      'SELECT',
      'SELECT',
    ]);
  });

  it("splits where DuckDB does: E'…' strings with backslashes, $$…$$ strings", () => {
    const keywords = (sql: string) => splitStatements(sql).map((s) => s.keyword);
    expect(keywords("SELECT E'\\''; DROP TABLE results; --'")).toEqual(['SELECT', 'DROP']);
    expect(keywords("SELECT $$'$$; DROP TABLE results; --'")).toEqual(['SELECT', 'DROP']);
    expect(keywords('SELECT $t$ ; $t$ AS x')).toEqual(['SELECT']);
  });

  it('keeps the code of each statement as tokens, quoted names unquoted', () => {
    expect(splitStatements('DROP TABLE "my ""t""" -- x\n')[0].tokens).toEqual([
      { kind: 'word', value: 'DROP' },
      { kind: 'word', value: 'TABLE' },
      { kind: 'quoted', value: 'my "t"' },
    ]);
  });

  it('finds no statement in comments and blanks', () => {
    expect(hasStatement('-- computed in the browser by src/lib/protocols')).toBe(false);
    expect(hasStatement(' /* only */ ;\n ')).toBe(false);
    expect(hasStatement('FROM results')).toBe(true);
  });
});

describe('what a text does', () => {
  it('says whether it may change tables', () => {
    expect(mayChangeTables('SELECT 1; DESCRIBE results')).toBe(false);
    expect(mayChangeTables('SELECT 1; DROP TABLE user_x')).toBe(true);
  });

  it('describes the last statement only when it is a query', () => {
    expect(describeSql('CREATE TABLE t AS SELECT 1; WITH a AS (SELECT 1) FROM a')).toBe(
      'DESCRIBE WITH a AS (SELECT 1) FROM a',
    );
    expect(describeSql('SELECT 1; INSERT INTO t VALUES (2)')).toBeNull();
    expect(describeSql('-- nothing')).toBeNull();
  });
});
