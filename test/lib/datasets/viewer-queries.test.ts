import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lmeBackgroundRows } from '../../../src/lib/datasets/inmind.ts';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import {
  collectBenchmarkRows,
  loadBenchmarkRows,
} from '../../../src/lib/loaders/benchmark-loader.ts';
import {
  INMIND_BACKGROUND,
  conversationListQuery,
  conversationTurnsQuery,
  goldTurnsQuery,
  queryByIdQuery,
  queryCountQuery,
  queryFacetsQuery,
  queryListQuery,
  viewerDatasetsQuery,
  type QueryFilters,
} from '../../../src/lib/datasets/viewer-queries.ts';
import { SITE, siteFetch } from '../data/site-fetch.ts';

let catalog: Catalog;
const all: QueryFilters = { dataset: null, style: null, category: null, conv: null, search: '' };

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  const rows = await collectBenchmarkRows({
    siteBase: SITE,
    allowUpstream: false,
    fetchImpl: siteFetch(),
  });
  await loadBenchmarkRows(catalog, rows);
});
afterAll(async () => {
  await catalog.engine.close();
});

describe('conversation viewer SQL on the real benchmarks', () => {
  it('lists datasets and LoCoMo’s ten conversations in natural order', async () => {
    const datasets = await catalog.run(viewerDatasetsQuery(['turns']));
    expect(datasets.find((d) => d.dataset === 'locomo')).toEqual({
      dataset: 'locomo',
      label: 'locomo (10 conversations)',
    });
    const convs = await catalog.run(conversationListQuery('locomo'));
    expect(convs.map((c) => c.conv_id)).toEqual([
      'conv-26',
      'conv-30',
      'conv-41',
      'conv-42',
      'conv-43',
      'conv-44',
      'conv-47',
      'conv-48',
      'conv-49',
      'conv-50',
    ]);
    expect(convs.find((c) => c.conv_id === 'conv-47')).toMatchObject({ turns: 689 });
    const plus = await catalog.run(conversationListQuery('locomo-plus'));
    expect(plus.slice(0, 3).map((c) => c.conv_id)).toEqual(['lp-0', 'lp-1', 'lp-2']);
  });

  it('reads a conversation’s turns in order with sessions and dates', async () => {
    const turns = await catalog.run(conversationTurnsQuery('locomo', 'conv-26'));
    expect(turns).toHaveLength(419);
    expect(turns[0]).toMatchObject({
      session: 1,
      dia_id: 'D1:1',
      turn_index: 0,
      speaker: 'Caroline',
    });
    expect(String(turns[0].date)).toMatch(/2023/);
    expect(turns.map((t) => t.turn_index)).toEqual(turns.map((_, i) => i));
  });
});

describe('query explorer SQL', () => {
  it('filters by dataset, style and category, matching the facet counts', async () => {
    const facets = await catalog.run(queryFacetsQuery());
    const cat4 = facets.find((f) => f.dataset === 'locomo' && f.category === 4);
    const filters = { ...all, dataset: 'locomo', style: 'question', category: 4 };
    const [count] = await catalog.run(queryCountQuery(filters));
    expect(count.n).toBe(cat4?.n);
    expect(count.n).toBe(841);
    const list = await catalog.run(queryListQuery(filters, 5));
    expect(list).toHaveLength(5);
    expect(list.every((q) => q.category === 4 && q.dataset === 'locomo')).toBe(true);
  });

  it('searches every word, case-insensitively, with LIKE wildcards taken literally', async () => {
    const [both] = await catalog.run(queryCountQuery({ ...all, search: 'caroline  PRIDE' }));
    const rows = await catalog.run(queryListQuery({ ...all, search: 'caroline  PRIDE' }, 100));
    expect(both.n).toBeGreaterThan(0);
    expect(
      rows.every((r) => /caroline/i.test(String(r.text)) && /pride/i.test(String(r.text))),
    ).toBe(true);
    const literal = await catalog.run(queryListQuery({ ...all, search: '%' }, 100));
    const [total] = await catalog.run(queryCountQuery(all));
    expect(literal.length).toBeLessThan(Number(total.n));
    expect(literal.every((r) => String(r.text).includes('%'))).toBe(true);
  });

  it('joins each query’s gold evidence to its turns, in gold order', async () => {
    const [q] = await catalog.run(queryByIdQuery('locomo', 'conv-26:q37'));
    expect(q.gold_ids).toEqual(['D8:6', 'D9:17']);
    const gold = await catalog.run(
      goldTurnsQuery([{ dataset: 'locomo', query_id: 'conv-26:q37' }]),
    );
    expect(gold.map((g) => g.dia_id)).toEqual(['D8:6', 'D9:17']);
    expect(gold.every((g) => typeof g.text === 'string' && g.conv_id === 'conv-26')).toBe(true);
    expect(gold[0]).toMatchObject({ session: 8 });
  });
});

describe('the InMind background as a conversation', () => {
  it('reads 486 turns in 47 sessions, in file order', async () => {
    const file = new URL('../../../public/data/inmind/lme_s_background.jsonl', import.meta.url);
    const rows = lmeBackgroundRows(readFileSync(file, 'utf8'));
    await catalog.loadRows('lme_background', rows, 'lme_s_background.jsonl');
    const [conv] = await catalog.run(conversationListQuery(INMIND_BACKGROUND.dataset));
    expect(conv).toEqual({ conv_id: 'lme_s_background', turns: 486, sessions: 47 });
    const turns = await catalog.run(
      conversationTurnsQuery(INMIND_BACKGROUND.dataset, conv.conv_id as string),
    );
    expect(turns.map((t) => t.dia_id)).toEqual(rows.map((r) => r.id));
    expect(turns[0]).toMatchObject({ session: 1, turn_index: 0, speaker: 'user' });
    expect(turns.at(-1)).toMatchObject({ session: 47, turn_index: 485 });
  });
});
