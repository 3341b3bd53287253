import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import type { SqlParam, SqlRow } from '../../../src/lib/query/sql-values.ts';
import { defineQuery } from '../../../src/lib/query/define-query.ts';
import { QueryClient, QueryError } from '../../../src/lib/query/query-client.ts';
import { rowSchema } from '../../../src/lib/query/row-schema.ts';
import { sql } from '../../../src/lib/query/sql.ts';

let catalog: Catalog;
let calls = 0;
const counting = {
  query(text: string, params?: readonly SqlParam[]): Promise<SqlRow[]> {
    calls++;
    return catalog.query(text, params);
  },
};

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await catalog.query("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) v(id, name)");
});
afterAll(async () => {
  await catalog.engine.close();
});

const nameOf = defineQuery(
  'name of',
  (id: number) => sql`SELECT name FROM t WHERE id = ${id}`,
  rowSchema({ name: 'string' }),
);
const wrongType = defineQuery(
  'wrong type',
  () => sql`SELECT id AS name FROM t`,
  rowSchema({ name: 'string' }),
);

describe('QueryClient', () => {
  it('says SQL is not ready before it has a source', async () => {
    const client = new QueryClient();
    await expect(client.run(nameOf(1))).rejects.toThrow('SQL is not ready yet');
  });

  it('answers decoded rows and asks DuckDB once per query and data version', async () => {
    const client = new QueryClient();
    client.setSource(counting);
    calls = 0;
    const [a, b] = await Promise.all([client.run(nameOf(1)), client.run(nameOf(1))]);
    expect(a).toEqual([{ name: 'a' }]);
    expect(b).toEqual(a);
    expect(calls).toBe(1);
    await client.run(nameOf(2));
    expect(calls).toBe(2);
    client.invalidate();
    await client.run(nameOf(1));
    expect(calls).toBe(3);
  });

  it('names the query and column when rows do not fit its decoder', async () => {
    const client = new QueryClient();
    client.setSource(catalog);
    const failure = client.run(wrongType());
    await expect(failure).rejects.toBeInstanceOf(QueryError);
    await expect(client.run(wrongType())).rejects.toThrow(
      'wrong type: unexpected rows: row 1, column name: expected string, got number 1',
    );
  });

  it('does not cache a failed query', async () => {
    const client = new QueryClient();
    client.setSource(counting);
    const missing = defineQuery('missing', () => sql`SELECT * FROM not_yet`, rowSchema({}));
    await expect(client.run(missing())).rejects.toThrow(/not_yet/);
    await catalog.query('CREATE TABLE not_yet AS SELECT 1 AS x');
    await expect(client.run(missing())).resolves.toHaveLength(1);
  });
});
