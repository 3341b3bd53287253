import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseFileSeconds, planE2eRuns } from '../../scripts/lib/test-plan.ts';

const opts = { aloneSeconds: 100, groupSeconds: 60, unknownSeconds: 30 };

describe('the e2e runs npm test queues', () => {
  it('a long file alone, the rest packed up to the cap, longest run first, each file once', () => {
    const seconds = { 'a.ts': 200, 'b.ts': 40, 'c.ts': 20, 'd.ts': 35, 'e.ts': 10, 'f.ts': 120 };
    const runs = planE2eRuns(Object.keys(seconds), seconds, opts);
    expect(runs).toEqual([['a.ts'], ['f.ts'], ['b.ts', 'c.ts'], ['d.ts', 'e.ts']]);
    expect(runs.flat().sort()).toEqual(Object.keys(seconds).sort());
  });

  it('a file with no recorded time counts as unknownSeconds', () => {
    const runs = planE2eRuns(['new.ts', 'old.ts'], { 'old.ts': 40 }, opts);
    expect(runs).toEqual([['old.ts'], ['new.ts']]);
  });

  it('the committed table names only e2e files that exist', () => {
    const e2e = fileURLToPath(new URL('../e2e/', import.meta.url));
    const file = path.join(e2e, 'file-seconds.json');
    const names = Object.keys(parseFileSeconds(readFileSync(file, 'utf8'), file));
    const files = new Set(readdirSync(e2e));
    expect(names.filter((n) => !files.has(n))).toEqual([]);
  });

  it('a table entry that is not seconds is named', () => {
    expect(() => parseFileSeconds('{"x.test.ts": "slow"}', 'f.json')).toThrow(
      'f.json: "x.test.ts" has "slow", expected seconds (≥ 0)',
    );
    expect(() => parseFileSeconds('[]', 'f.json')).toThrow('f.json: expected an object');
  });
});
