import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { userBenchmarksQuery } from '../../../src/lib/query/user-benchmarks.ts';
import { withPart } from '../../../src/lib/userdata/benchmark-decl.ts';
import { suggestDecl } from '../../../src/lib/userdata/benchmark-rows.ts';
import { declareUserBenchmark } from '../../../src/lib/userdata/declare.ts';
import { bytesSource } from '../../../src/lib/userdata/byte-source.ts';
import { GOOD_DIR, fixture } from './helpers.ts';
import { loadAsPage, tableCounts } from './duckdb.ts';

let catalog: Catalog;
beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await loadAsPage(catalog, fixture(GOOD_DIR, 'own-benchmark.jsonl'));
});
afterAll(async () => {
  await catalog.engine.close();
});

const DECL = suggestDecl(['memory', 'query', 'gold', 'fields.id']);

describe('declareUserBenchmark', () => {
  it('records nothing when a row does not fit, and the table stays as loaded', async () => {
    const before = await tableCounts(catalog);
    const bad = withPart(DECL, 'memory.text', 'speaker');
    await expect(declareUserBenchmark(catalog, 'user_own_benchmark', bad)).rejects.toThrow(
      'user_own_benchmark line 1: memory.text (speaker): expected text, found null',
    );
    expect(await tableCounts(catalog)).toEqual(before);
  });

  it('records a declaration that every row fits, replacing the one before', async () => {
    await declareUserBenchmark(catalog, 'user_own_benchmark', DECL);
    const rows = await declareUserBenchmark(catalog, 'user_own_benchmark', DECL);
    expect([rows.memories.length, rows.queries.length]).toEqual([50, 10]);
    const kept = await catalog.run(userBenchmarksQuery());
    expect(kept.map((r) => [r.name, JSON.parse(r.declaration)])).toEqual([
      ['user_own_benchmark', DECL],
    ]);
  });

  it('reads a CSV of the same benchmark: memory rows hold an empty query cell', async () => {
    const csv = [
      'id,text,query,gold,category',
      'm1,I own a beagle named Biscuit.,,,',
      'm2,I live in Porto.,,,',
      ',,Which dog do I own?,m1,pets',
    ].join('\n');
    await loadAsPage(catalog, bytesSource('own.csv', csv));
    const rows = await declareUserBenchmark(catalog, 'user_own', DECL);
    expect(rows.memories.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(rows.queries).toEqual([
      { id: 'line 4', text: 'Which dog do I own?', gold: ['m1'], category: null, line: 4 },
    ]);
  });
});
