import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readUserTableRows,
  fieldChoices,
  suggestDecl,
} from '../../../src/lib/userdata/benchmark-rows.ts';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { bm25Retriever } from '../../../src/lib/protocol-kit/bm25-retriever.ts';
import { readDeclaration } from '../../../src/lib/protocol-kit/user-benchmark.ts';
import { declareUserBenchmark } from '../../../src/lib/userdata/declare.ts';
import { runProtocol } from '../../../src/lib/protocols/run.ts';
import { DEFAULT_SPEC } from '../../../src/lib/protocols/build.ts';
import { queryRows } from '../../../src/lib/protocol-kit/report.ts';
import { withPart } from '../../../src/lib/userdata/benchmark-decl.ts';
import { removeUserTable } from '../../../src/lib/userdata/persist-keep.ts';
import { MemoryTableStore } from '../../../src/lib/userdata/persist-store.ts';
import { GOOD_DIR, fixture } from '../userdata/helpers.ts';
import { loadAsPage, tableCounts } from '../userdata/duckdb.ts';

const TABLE = 'user_own_benchmark';
const expected = JSON.parse(
  readFileSync(path.join(GOOD_DIR, 'own-benchmark.ranks.json'), 'utf8'),
) as { bm25: number[] };

let catalog: Catalog;
beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await loadAsPage(catalog, fixture(GOOD_DIR, 'own-benchmark.jsonl'));
});
afterAll(async () => {
  await catalog.engine.close();
});

const spec = { ...DEFAULT_SPEC, benchmark: TABLE };

describe('a loaded table declared a benchmark', () => {
  it('is refused before it is declared, with a message that says what to do', async () => {
    await expect(runProtocol(catalog, spec, bm25Retriever())).rejects.toThrow(
      'user_own_benchmark: loaded, but not declared a benchmark: declare it on Your data',
    );
  });

  it('keeps the table as loaded when the declaration does not fit', async () => {
    const before = await tableCounts(catalog);
    const decl = suggestDecl(fieldChoices(await readUserTableRows(catalog, TABLE)));
    const bad = withPart(decl, 'memory.id', 'fields.session');
    await expect(declareUserBenchmark(catalog, TABLE, bad)).rejects.toThrow(
      'user_own_benchmark line 2: memory.id (fields.session): "s1" is also the id on line 1',
    );
    expect(await tableCounts(catalog)).toEqual(before);
    await expect(readDeclaration(catalog, TABLE)).rejects.toThrow('not declared');
  });

  it('runs the same protocol path as the papers’ benchmarks, with the stored ranks', async () => {
    const decl = suggestDecl(fieldChoices(await readUserTableRows(catalog, TABLE)));
    const rows = await declareUserBenchmark(catalog, TABLE, decl);
    expect([rows.memories.length, rows.queries.length]).toEqual([50, 10]);
    expect(await readDeclaration(catalog, TABLE)).toEqual(decl);
    const { protocol, evaluation } = await runProtocol(catalog, spec, bm25Retriever());
    expect(protocol.benchmark).toBe(TABLE);
    expect(protocol.notes[0]).toBe(
      'your benchmark user_own_benchmark: 10 queries against all 50 memories (5 sessions, dated 2026-01-01 to 2026-05-19)',
    );
    expect(evaluation.outcomes.map((o) => o.targetRank)).toEqual(expected.bm25);
    expect(queryRows(evaluation, 5).map((r) => r.group)).toContain('pets');
  });

  it('forgets the declaration with the table', async () => {
    await removeUserTable(catalog, new MemoryTableStore(), TABLE);
    await expect(runProtocol(catalog, spec, bm25Retriever())).rejects.toThrow(
      'user_own_benchmark: no table of yours has this name in this browser',
    );
  });
});
