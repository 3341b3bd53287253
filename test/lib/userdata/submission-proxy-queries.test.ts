import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { inmindTaskRows } from '../../../src/lib/datasets/inmind.ts';
import {
  proxyTargetsQuery,
  releasedTargetRecallQuery,
  submissionContextsQuery,
} from '../../../src/lib/userdata/submission-proxy-queries.ts';
import { submissionProxy } from '../../../src/lib/userdata/submission-proxy.ts';
import {
  proxyChartRows,
  submissionProxySpec,
} from '../../../src/lib/charts/submission-proxy-chart.ts';
import { dataMarkLabels, renderSvg, resultsCatalog } from '../charts/chart-harness.ts';
import { GOOD_DIR, fixture, repoRoot } from './helpers.ts';
import { loadAsPage } from './duckdb.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await resultsCatalog();
  const file = path.join(repoRoot, 'public/data/inmind/inmind_en.jsonl');
  await catalog.loadRows(
    'inmind_tasks',
    inmindTaskRows(readFileSync(file, 'utf8')),
    'inmind_en.jsonl',
  );
  await loadAsPage(catalog, fixture(GOOD_DIR, 'submission-ranked.jsonl'));
});
afterAll(async () => {
  await catalog.engine.close();
});

describe('what the submission proxy reads', () => {
  it('reads the indirect contexts in file order, and every InMind target', async () => {
    const contexts = await catalog.run(submissionContextsQuery('user_submission_ranked'));
    expect(contexts.map((c) => `${c.system}/${c.task_id}`)).toEqual([
      'RankedRAG/0',
      'RankedRAG/3',
      'RankedRAG/4',
      'RankedRAG/5',
      'Summariser/0',
      'Summariser/3',
    ]);
    expect(contexts[0].context).toMatch(/^\[1\] User: /);
    expect(await catalog.run(proxyTargetsQuery())).toHaveLength(125);
  });

  it("reads Table 1's judged Target Recall, one row per system, in the paper's order", async () => {
    const released = await catalog.run(releasedTargetRecallQuery());
    expect(released.length).toBeGreaterThan(5);
    expect(released.find((r) => r.label.startsWith('BM25'))).toMatchObject({
      value: 3.2,
      value_text: '3.2',
      source_line: 127,
    });
    const labels = released.map((r) => r.label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('draws the paper bars and the submission bars labelled proxy', async () => {
    const released = await catalog.run(releasedTargetRecallQuery());
    const contexts = await catalog.run(submissionContextsQuery('user_submission_ranked'));
    const tasks = await catalog.run(proxyTargetsQuery());
    const proxies = submissionProxy(tasks, [], contexts);
    const rows = proxyChartRows(released, proxies);
    const labels = dataMarkLabels(await renderSvg(submissionProxySpec(rows)));
    expect(labels).toHaveLength(released.length + 2);
    expect(labels).toContain(
      'BM25 (Robertson and Zaragoza, 2009) | InMind Table 1 (GPT-5-mini judge) | 3.2%',
    );
    expect(labels.filter((l) => l.includes('(proxy)'))).toEqual([
      'RankedRAG (proxy) | your submission (proxy: target rank ≤ 5 in its context) | 75.0% (proxy, 3/4)',
      'Summariser (proxy) | your submission (proxy: target rank ≤ 5 in its context) | 50.0% (proxy, 1/2)',
    ]);
  });
});
