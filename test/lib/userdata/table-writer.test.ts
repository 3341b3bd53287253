import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import type { SqlEngine } from '../../../src/lib/db/engine.ts';
import type { UserCell, UserColumn } from '../../../src/lib/query/user-tables.ts';
import { writeUserTable } from '../../../src/lib/userdata/table-writer.ts';

let engine: SqlEngine;
beforeAll(async () => {
  engine = await openNodeEngine();
});
afterAll(async () => {
  await engine.close();
});

const COLUMNS: UserColumn[] = [
  { name: 'line', type: 'INTEGER' },
  { name: 'text', type: 'VARCHAR' },
  { name: 'tags', type: 'VARCHAR[]' },
];

async function* rowsOf(rows: (readonly UserCell[])[]) {
  yield* rows;
}

const meta = (name: string) => ({
  name,
  file: 'x.jsonl',
  kind: 'records',
  format: 'jsonl',
  mapping: '{}',
});

describe('writeUserTable', () => {
  it('binds every cell: quotes, NUL, markup and lists round-trip unchanged', async () => {
    const nasty = ["'; DROP TABLE t; --", 'a\u0000b', '<img src=x onerror=alert(1)>', '😀\n\t'];
    const rows = nasty.map((text, i): UserCell[] => [i + 1, text, [text, 'x']]);
    expect(await writeUserTable(engine, COLUMNS, rowsOf(rows), meta('user_nasty'))).toBe(4);
    const back = await engine.query('SELECT line, text, tags FROM user_nasty ORDER BY line');
    expect(back.map((r) => r.text)).toEqual(nasty);
    expect(back.map((r) => r.tags)).toEqual(nasty.map((t) => [t, 'x']));
  });

  it('stages a text too long to bind at once in pieces, and keeps it whole', async () => {
    const long = `${'memory text '.repeat(2_000_000)}end\u0000`;
    const rows: UserCell[][] = [
      [1, long, []],
      [2, 'short', ['a']],
    ];
    expect(await writeUserTable(engine, COLUMNS, rowsOf(rows), meta('user_long'))).toBe(2);
    const [row] = await engine.query(
      'SELECT length(text) AS n, text = (SELECT text FROM user_long WHERE line = 1) AS same FROM user_long WHERE line = 1',
    );
    expect(row.n).toBe(long.length);
    const [text] = await engine.query(
      'SELECT right(text, 4) AS tail, tags FROM user_long WHERE line = 1',
    );
    expect(text).toEqual({ tail: 'end\u0000', tags: [] });
    const tables = await engine.query(
      "SELECT table_name FROM information_schema.tables WHERE table_name LIKE '__staging%'",
    );
    expect(tables).toEqual([]);
  });

  it('writes many rows in many batches', async () => {
    const rows = Array.from({ length: 12_345 }, (_, i): UserCell[] => [i, `row ${i}`, ['t']]);
    expect(await writeUserTable(engine, COLUMNS, rowsOf(rows), meta('user_many'))).toBe(12_345);
    const [n] = await engine.query('SELECT count(*)::INTEGER AS n, max(line) AS m FROM user_many');
    expect(n).toEqual({ n: 12_345, m: 12_344 });
  });
});
