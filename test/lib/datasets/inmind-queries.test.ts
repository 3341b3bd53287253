import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import {
  domainCountsQuery,
  searchWords,
  unsearchableNote,
  visibleText,
  taskCountQuery,
  taskListQuery,
  taskQuery,
} from '../../../src/lib/datasets/inmind-queries.ts';
import { catalogWithInmind } from '../userdata/duckdb.ts';

let catalog: Catalog;
beforeAll(async () => {
  catalog = await catalogWithInmind();
});
afterAll(async () => {
  await catalog.engine.close();
});

const ids = async (search: string) =>
  (await catalog.run(taskListQuery(search, 'task_id', false))).map((t) => t.task_id);

describe('InMind task queries', () => {
  it('counts 125 tasks in ten domains', async () => {
    expect(await catalog.run(taskCountQuery())).toEqual([{ n: 125 }]);
    const domains = await catalog.run(domainCountsQuery());
    expect(domains).toHaveLength(10);
    expect(domains.reduce((s, d) => s + d.tasks, 0)).toBe(125);
  });

  it('splits a search into lowercase words', () => {
    expect(searchWords('  Macaron, CAT  cat-food ')).toEqual(['macaron', 'cat', 'food']);
    expect(searchWords('%_\\')).toEqual([]);
  });

  it('says when a search from a link holds nothing to look for, showing what it holds', () => {
    expect(unsearchableNote('\u0000')).toBe(
      'The search “U+0000” holds no letter or digit to look for, so no task is filtered out.',
    );
    expect(unsearchableNote('cat')).toBeNull();
    expect(unsearchableNote('  ')).toBeNull();
    expect(visibleText('a\u200Bb\n')).toBe('aU+200BbU+000A');
  });

  it('searches words: "cat" finds cats, not "category" or "education"', async () => {
    const cat = await ids('cat');
    const substring = await catalog.query(
      `SELECT count(*)::INTEGER AS n FROM inmind_tasks
       WHERE concat_ws(' ', entity_1, entity_2, relation, explanation, user_message,
         assistant_message, naive_query, query) ILIKE '%cat%'`,
    );
    expect(cat.length).toBeGreaterThan(0);
    expect(cat.length).toBeLessThan(Number(substring[0].n));
    for (const id of cat) {
      const [task] = await catalog.run(taskQuery(id));
      const text = Object.values(task).join(' ').toLowerCase();
      expect(text).toMatch(/(^|[^\p{L}\p{N}])cat(s|es)?($|[^\p{L}\p{N}])/u);
    }
  });

  it('needs every word, in any field, and finds the macaron task', async () => {
    const macaron = await ids('macaron');
    expect(macaron).toContain(155);
    expect(await ids('macaron zzzunlikelyword')).toEqual([]);
    expect(await ids('')).toHaveLength(125);
    expect(await ids('%')).toHaveLength(125);
  });

  it('sorts by any listed column, descending too', async () => {
    const desc = await catalog.run(taskListQuery('', 'task_id', true));
    expect(desc[0].task_id).toBeGreaterThan(desc.at(-1)?.task_id ?? Infinity);
  });
});
