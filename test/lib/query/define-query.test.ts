import { describe, expect, it } from 'vitest';
import { defineQuery } from '../../../src/lib/query/define-query.ts';
import { rowSchema } from '../../../src/lib/query/row-schema.ts';
import { sql } from '../../../src/lib/query/sql.ts';

const byId = defineQuery(
  'by id',
  (id: number) => sql`SELECT ${id} AS id`,
  rowSchema({ id: 'number' }),
);

describe('defineQuery', () => {
  it('binds arguments into SQL, parameters and a cache key', () => {
    const q = byId(7);
    expect(q.name).toBe('by id');
    expect(q.sql).toBe('SELECT ? AS id');
    expect(q.params).toEqual([7]);
    expect(q.key).toBe(byId(7).key);
    expect(q.key).not.toBe(byId(8).key);
  });
});
