import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import {
  tableCountsQuery,
  tableNamesQuery,
  visibleTables,
} from '../../../src/lib/query/catalog-queries.ts';

let catalog: Catalog;
beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await catalog.query(`CREATE TABLE b AS SELECT * FROM range(3);
CREATE TABLE "a ""quoted"" name" AS SELECT 1 AS x; CREATE TABLE __staging AS SELECT 1 AS x`);
});
afterAll(async () => {
  await catalog.engine.close();
});

describe('catalog queries', () => {
  it('lists visible tables and counts their rows', async () => {
    const tables = visibleTables(await catalog.run(tableNamesQuery()));
    expect(tables).toEqual(['a "quoted" name', 'b']);
    expect(await catalog.run(tableCountsQuery(tables))).toEqual([
      { table: 'a "quoted" name', rows: 1 },
      { table: 'b', rows: 3 },
    ]);
    expect(await catalog.run(tableCountsQuery([]))).toEqual([]);
  });
});
