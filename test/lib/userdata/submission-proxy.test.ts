import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  indexBackground,
  proxyShare,
  submissionProxy,
  targetRank,
} from '../../../src/lib/userdata/submission-proxy.ts';
import { GOOD_DIR, repoRoot } from './helpers.ts';

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l): unknown => JSON.parse(l));

function record(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw new Error('not an object');
  return Object.fromEntries(Object.entries(value));
}

const tasks = lines(path.join(repoRoot, 'public/data/inmind/inmind_en.jsonl')).map((v) => {
  const r = record(v);
  return { task_id: Number(r.task_id), user_message: String(r.user_message) };
});
const background = lines(path.join(repoRoot, 'public/data/inmind/lme_s_background.jsonl')).map(
  (v) => ({ content: String(record(v).content).split('\n---TIMESTAMP:')[0] }),
);
const submission = lines(path.join(GOOD_DIR, 'submission-ranked.jsonl')).map((v) => {
  const r = record(v);
  return {
    system: String(r.system),
    task_id: Number(r.task_id),
    context: String(record(r.query).context),
  };
});

describe('target rank in a recorded context', () => {
  const index = indexBackground([
    { content: 'We talked about the weather on Monday.' },
    { content: 'My sister lives in Lyon, France.' },
  ]);

  it('counts the distinct background turns held before the target', () => {
    const target = 'I am allergic to tree nuts.';
    expect(targetRank(`${target} We talked about the weather on Monday.`, target, index)).toBe(1);
    const context =
      'We talked about the weather on Monday! [2] my sister lives in lyon france --- we talked about the weather on monday. I AM allergic to tree nuts!';
    expect(targetRank(context, target, index)).toBe(3);
  });

  it('is null when the target is absent, and a partial turn is not counted', () => {
    expect(targetRank('We talked about the weather', 'tree nuts', index)).toBeNull();
    expect(targetRank('We talked about the weather. tree nuts', 'tree nuts', index)).toBe(1);
  });
});

describe('the rank-based target-recall proxy of a submission', () => {
  it('scores each system of the fixture submission', () => {
    const proxies = submissionProxy(tasks, background, submission);
    expect(proxies).toEqual([
      {
        system: 'RankedRAG',
        tasks: 4,
        inContext: 3,
        hits: { 1: 1, 5: 2, 10: 3 },
        medianRank: 5,
      },
      { system: 'Summariser', tasks: 2, inContext: 1, hits: { 1: 0, 5: 1, 10: 1 }, medianRank: 2 },
    ]);
    expect(proxyShare(proxies[0], proxies[0].hits[5])).toBe(0.5);
  });

  it('skips rows of tasks it does not know and gives 0 for a system without tasks', () => {
    const proxies = submissionProxy(tasks, background, [
      { system: 'X', task_id: 99999, context: 'anything' },
    ]);
    expect(proxies).toEqual([]);
    expect(
      proxyShare(
        { system: 'Y', tasks: 0, inContext: 0, hits: { 1: 0, 5: 0, 10: 0 }, medianRank: null },
        0,
      ),
    ).toBe(0);
  });
});
