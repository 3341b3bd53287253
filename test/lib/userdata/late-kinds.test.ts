// Issue 37.5: queries that come after the first records (the sample) are mapped, loaded and
// declared; the mapping's fields are tallied over every record of the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { userRecordsSampleQuery } from '../../../src/lib/query/user-benchmarks.ts';
import { fieldChoices, suggestDecl, tableRow } from '../../../src/lib/userdata/benchmark-rows.ts';
import { bytesSource } from '../../../src/lib/userdata/byte-source.ts';
import { declareUserBenchmark } from '../../../src/lib/userdata/declare.ts';
import { inspectUserFile } from '../../../src/lib/userdata/inspect.ts';
import { LATE_QUERIES_NAME, lateQueriesJsonl } from '../../support/late-queries.ts';
import { loadAsPage } from './duckdb.ts';

const TABLE = 'user_late_queries';
let catalog: Catalog;
beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
});
afterAll(async () => {
  await catalog.engine.close();
});

describe('a benchmark whose queries come after the sample', () => {
  it('maps the query fields that only the last records hold', async () => {
    const found = await inspectUserFile(bytesSource(LATE_QUERIES_NAME, lateQueriesJsonl(1000, 20)));
    expect([found.sample.length, found.records, found.allRecords]).toEqual([200, 1020, true]);
    const query = found.fields.find((f) => f.label === 'query');
    expect([query?.present, query?.kinds]).toEqual([20, ['string']]);
    expect(found.mapping.query).toEqual(['query']);
    expect(found.mapping.memory).toEqual(['memory']);
    expect(found.mapping.gold).toEqual(['gold']);
  });

  it('loads every row and declares it, offering the late fields', async () => {
    const source = bytesSource(LATE_QUERIES_NAME, lateQueriesJsonl(1000, 20));
    const loaded = await loadAsPage(catalog, source);
    expect([loaded.table, loaded.rows]).toEqual([TABLE, 1020]);
    const rows = await catalog.run(userRecordsSampleQuery(TABLE, 50));
    const choices = fieldChoices(rows.map(tableRow));
    expect(choices).toEqual(
      expect.arrayContaining(['query', 'gold', 'memory', 'fields.id', 'fields.category']),
    );
    const decl = suggestDecl(choices);
    expect(decl.query.category).toBe('fields.category');
    const declared = await declareUserBenchmark(catalog, TABLE, decl);
    expect([declared.memories.length, declared.queries.length]).toEqual([1000, 20]);
  });

  it('stops tallying at a bad record past the sample, which loading then names', async () => {
    const text = `${lateQueriesJsonl(300, 0)}{"query": oops}\n{"query": "late"}\n`;
    const found = await inspectUserFile(bytesSource('broken.jsonl', text));
    expect([found.records, found.allRecords]).toEqual([300, false]);
    await expect(loadAsPage(catalog, bytesSource('broken.jsonl', text))).rejects.toThrow(
      /^broken\.jsonl:301:/,
    );
  });
});
