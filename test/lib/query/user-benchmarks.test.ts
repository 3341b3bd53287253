import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { userBenchmarksQuery, userRecordsQuery } from '../../../src/lib/query/user-benchmarks.ts';
import {
  declareBenchmarkStatements,
  dropUserTableStatements,
} from '../../../src/lib/query/user-tables.ts';
import { GOOD_DIR, fixture } from '../userdata/helpers.ts';
import { loadAsPage } from '../userdata/duckdb.ts';

let catalog: Catalog;
beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await loadAsPage(catalog, fixture(GOOD_DIR, 'own-benchmark.jsonl'));
});
afterAll(async () => {
  await catalog.engine.close();
});

async function runAll(statements: ReturnType<typeof dropUserTableStatements>) {
  for (const s of statements) await catalog.engine.query(s.sql, s.params);
}

describe('what a reader’s benchmark reads', () => {
  it('lists no declaration before the first, then one per table, dropped with the table', async () => {
    expect(await catalog.run(userBenchmarksQuery())).toEqual([]);
    await runAll(declareBenchmarkStatements('user_own_benchmark', '{"a":1}'));
    await runAll(declareBenchmarkStatements('user_own_benchmark', '{"a":2}'));
    expect(await catalog.run(userBenchmarksQuery())).toEqual([
      { name: 'user_own_benchmark', declaration: '{"a":2}' },
    ]);
    const rows = await catalog.run(userRecordsQuery('user_own_benchmark', 2));
    expect(rows.map((r) => [r.line, r.memory, r.query])).toEqual([
      [1, 'My sister Lena moved to Porto last spring and works as a marine biologist.', null],
      [2, 'I am allergic to peanuts, so I always check the labels on granola bars.', null],
    ]);
    const all = await catalog.run(userRecordsQuery('user_own_benchmark'));
    expect([all.length, all[59].gold]).toEqual([60, ['m49']]);
    await runAll(dropUserTableStatements('user_own_benchmark'));
    expect(await catalog.run(userBenchmarksQuery())).toEqual([]);
  });
});
