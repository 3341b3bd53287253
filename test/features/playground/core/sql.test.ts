import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../../src/lib/db/node-engine.ts';
import { loadInMind } from '../../../../src/lib/loaders/core-loader.ts';
import {
  collectBenchmarkRows,
  loadBenchmarkRows,
} from '../../../../src/lib/loaders/benchmark-loader.ts';
import {
  backgroundQuery,
  hasLocomoTables,
  inmindCasesFromRows,
  inmindCasesQuery,
  locomoCaseQueriesQuery,
  locomoCaseTurnsQuery,
  locomoCasesFromRows,
} from '../../../../src/features/playground/core/sql.ts';
import { tableNamesQuery } from '../../../../src/lib/query/catalog-queries.ts';
import { SITE, siteFetch } from '../../../lib/data/site-fetch.ts';
import { background } from './fixtures.ts';

let catalog: Catalog;
const opts = { siteBase: SITE, allowUpstream: false, fetchImpl: siteFetch() };

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await loadInMind(catalog, opts);
});

/** What the page does: the LoCoMo questions once their tables are there, then their evidence. */
async function locomoCases() {
  const tables = (await catalog.run(tableNamesQuery())).map((t) => t.table_name);
  if (!hasLocomoTables(tables)) return [];
  const questions = await catalog.run(locomoCaseQueriesQuery());
  return locomoCasesFromRows(questions, await catalog.run(locomoCaseTurnsQuery(questions)));
}

afterAll(async () => {
  await catalog.engine.close();
});

describe('the playground reads its cases from DuckDB', () => {
  it('reads the 486 background turns in the file order, timestamps removed', async () => {
    expect(await catalog.run(backgroundQuery())).toEqual(background());
  });

  it('reads the three InMind cases by task_id', async () => {
    const cases = inmindCasesFromRows(await catalog.run(inmindCasesQuery()));
    expect(cases.map((c) => c.citation)).toEqual([
      'InMind task 155 (health and wellness)',
      'InMind task 86 (health and wellness)',
      'InMind task 40 (legal)',
    ]);
  });

  it('has no LoCoMo case before the LoCoMo tables load, and one after', async () => {
    expect(await locomoCases()).toEqual([]);
    await loadBenchmarkRows(catalog, await collectBenchmarkRows(opts));
    const [c] = await locomoCases();
    expect(c.queries[0].text).toBe('When did Caroline go to the LGBTQ support group?');
    expect(c.memories).toEqual([
      'I went to a LGBTQ support group yesterday and it was so powerful.',
    ]);
    expect(c.citation).toBe('LoCoMo question conv-26:q0, evidence D1:3');
  });
});
