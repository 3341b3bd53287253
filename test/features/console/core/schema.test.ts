import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../../src/lib/db/node-engine.ts';
import {
  completionSchema,
  consoleSchemaQuery,
  schemaTables,
  tableGroup,
} from '../../../../src/features/console/core/schema.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await catalog.query(`CREATE TABLE results AS SELECT 'inmind' AS paper, 1.0 AS value;
CREATE VIEW results_inmind AS SELECT * FROM results;
CREATE TABLE turns AS SELECT 'c1' AS conv_id, 0 AS turn_index;
CREATE TABLE user_mine AS SELECT [1] AS v;
CREATE TABLE __staging AS SELECT 1 AS hidden;`);
});

afterAll(async () => {
  await catalog.engine.close();
});

describe('the schema browser', () => {
  it('lists every visible table and view with columns, types, group and rows', async () => {
    const rows = await catalog.run(consoleSchemaQuery());
    const tables = schemaTables(rows, new Map([['turns', 1]]), new Set(['turns']));
    expect(tables.map((t) => [t.name, t.group, t.view, t.rows])).toEqual([
      ['results', 'results', false, null],
      ['results_inmind', 'results', true, null],
      ['turns', 'benchmarks', false, 1],
      ['user_mine', 'yours', false, null],
    ]);
    expect(tables[0].columns).toEqual([
      { name: 'paper', type: 'VARCHAR' },
      { name: 'value', type: 'DECIMAL(2,1)' },
    ]);
    expect(completionSchema(tables).user_mine).toEqual(['v']);
  });

  it('groups names it does not know as other', () => {
    expect(tableGroup('mine', new Set())).toBe('other');
    expect(tableGroup('inmind_tasks', new Set())).toBe('benchmarks');
    expect(tableGroup('locomo_session_summaries', new Set())).toBe('benchmarks');
    expect(tableGroup('reproduced', new Set())).toBe('results');
    expect(tableGroup('paper_vs_ours', new Set())).toBe('results');
    expect(tableGroup('run_inmind_minilm_fp32_k5', new Set())).toBe('yours');
  });
});
