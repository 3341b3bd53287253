import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer, type ColumnSource, type SchemaElement } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { userTablesQuery } from '../../../src/lib/query/user-tables.ts';
import {
  bytesSource,
  iterableSource,
  type ByteSource,
} from '../../../src/lib/userdata/byte-source.ts';
import { inspectUserFile } from '../../../src/lib/userdata/inspect.ts';
import { PARQUET_NOT_INSTALLED } from '../../../src/lib/userdata/parquet.ts';
import { hyparquetReader, toJsonValue } from '../../../src/lib/userdata/parquet-hyparquet.ts';
import { readRecords } from '../../../src/lib/userdata/records.ts';
import { GOOD_DIR, chunked, collect, errorOf, fixture } from './helpers.ts';
import { catalogWithInmind, loadAsPage, tableCounts } from './duckdb.ts';

/**
 * Parquet files are written here with hyparquet-writer. The committed fixtures
 * (`test/fixtures/userdata/records.parquet`, `test/fixtures/bad/*.parquet`) were written the same
 * way: records.jsonl's five records (answer as a list of strings); truncated.parquet is
 * records.parquet less its last 100 bytes; garbage-metadata.parquet is "PAR1", 32 bytes of 0xFF,
 * a footer length of 32 and "PAR1".
 */
function parquetBytes(
  columnData: ColumnSource[],
  schema?: SchemaElement[],
  rowGroupSize?: number,
): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({ columnData, schema, rowGroupSize }));
}

const utf8 = (name: string): SchemaElement => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: 'OPTIONAL',
});

/** A real Parquet LIST<STRING> column (three schema elements). */
const stringList = (name: string): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { ...utf8('element') },
];

/** Strings, INT32/INT64, doubles, a LIST, a struct, a timestamp, nulls. */
function mixedFile(): Uint8Array {
  return parquetBytes(
    [
      { name: 'question', data: ['Where is Ann?', 'What does Bob play?', null] },
      { name: 'memory', data: ['Ann is in Paris.', 'Bob plays the cello.', 'Cy sleeps.'] },
      { name: 'answer', data: [['Paris'], ['cello', 'the cello'], null] },
      { name: 'n', data: [1, null, -3] },
      { name: 'big', data: [9007199254740993n, 42n, null] },
      { name: 'score', data: [0.5, 2.25, null] },
      { name: 'at', data: [new Date('2024-05-01T12:00:00Z'), null, new Date(0)] },
      { name: 'meta', data: [{ a: 1n, b: 'x' }, null, { a: 2n, b: 'y' }] },
    ],
    [
      { name: 'root', num_children: 8 },
      utf8('question'),
      utf8('memory'),
      ...stringList('answer'),
      { name: 'n', type: 'INT32', repetition_type: 'OPTIONAL' },
      { name: 'big', type: 'INT64', repetition_type: 'OPTIONAL' },
      { name: 'score', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
      {
        name: 'at',
        type: 'INT64',
        repetition_type: 'OPTIONAL',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
      },
      { name: 'meta', repetition_type: 'OPTIONAL', num_children: 2 },
      { name: 'a', type: 'INT64', repetition_type: 'OPTIONAL' },
      utf8('b'),
    ],
  );
}

/** `rows` rows in groups of `group`. */
function manyRows(rows: number, group: number): Uint8Array {
  const ids = Array.from({ length: rows }, (_, i) => i + 1);
  return parquetBytes(
    [
      { name: 'question', data: ids.map((i) => `Question ${i}?`), type: 'STRING' },
      { name: 'memory', data: ids.map((i) => `Memory ${i}`), type: 'STRING' },
      { name: 'conversation', data: ids.map((i) => `c${i % 3}`), type: 'STRING' },
      { name: 'id', data: ids, type: 'INT32' },
    ],
    undefined,
    group,
  );
}

let catalog: Catalog;

beforeAll(async () => {
  catalog = await catalogWithInmind();
});
afterAll(async () => {
  await catalog.engine.close();
});

describe('Parquet through the page’s loading code', () => {
  it('inspects a Parquet file: format, fields and the suggested mapping', async () => {
    const inspection = await inspectUserFile(bytesSource('mixed.parquet', mixedFile()));
    expect(inspection.format).toBe('parquet');
    expect(inspection.kind).toBe('records');
    expect(inspection.table).toBe('user_mixed');
    expect(inspection.sample.map((r) => [r.line, r.path])).toEqual([
      [1, ''],
      [2, ''],
      [3, ''],
    ]);
    expect(inspection.mapping.query).toEqual(['question']);
    expect(inspection.mapping.memory).toEqual(['memory']);
    expect(inspection.mapping.gold).toEqual(['answer']);
    expect(inspection.fields.map((f) => f.label)).toEqual(
      expect.arrayContaining(['question', 'answer', 'big', 'meta.a', 'meta.b']),
    );
  });

  it('converts values to JSON: BigInt, dates, lists, structs and nulls', async () => {
    const records = await collect(
      readRecords(bytesSource('mixed.parquet', mixedFile()), 'parquet'),
    );
    expect(records.map((r) => r.value)).toEqual([
      {
        question: 'Where is Ann?',
        memory: 'Ann is in Paris.',
        answer: ['Paris'],
        n: 1,
        big: '9007199254740993',
        score: 0.5,
        at: '2024-05-01T12:00:00.000Z',
        meta: { a: 1, b: 'x' },
      },
      {
        question: 'What does Bob play?',
        memory: 'Bob plays the cello.',
        answer: ['cello', 'the cello'],
        n: null,
        big: 42,
        score: 2.25,
        at: null,
        meta: null,
      },
      {
        question: null,
        memory: 'Cy sleeps.',
        answer: null,
        n: -3,
        big: null,
        score: null,
        at: '1970-01-01T00:00:00.000Z',
        meta: { a: 2, b: 'y' },
      },
    ]);
  });

  it('loads strings, numbers, a list column and nulls into a user_ table', async () => {
    const result = await loadAsPage(catalog, bytesSource('mixed.parquet', mixedFile()));
    expect(result).toEqual({
      file: 'mixed.parquet',
      table: 'user_mixed',
      kind: 'records',
      rows: 3,
    });
    const rows = await catalog.query(
      'SELECT line, query, memory, gold, fields FROM user_mixed ORDER BY line',
    );
    expect(rows).toEqual([
      {
        line: 1,
        query: 'Where is Ann?',
        memory: 'Ann is in Paris.',
        gold: ['Paris'],
        fields:
          '{"n":1,"big":"9007199254740993","score":0.5,"at":"2024-05-01T12:00:00.000Z","meta":{"a":1,"b":"x"}}',
      },
      {
        line: 2,
        query: 'What does Bob play?',
        memory: 'Bob plays the cello.',
        gold: ['cello', 'the cello'],
        fields: '{"n":null,"big":42,"score":2.25,"at":null,"meta":null}',
      },
      {
        line: 3,
        query: null,
        memory: 'Cy sleeps.',
        gold: null,
        fields:
          '{"n":-3,"big":null,"score":null,"at":"1970-01-01T00:00:00.000Z","meta":{"a":2,"b":"y"}}',
      },
    ]);
    const tables = await catalog.run(userTablesQuery());
    expect(tables.find((t) => t.name === 'user_mixed')).toMatchObject({
      file: 'mixed.parquet',
      format: 'parquet',
      rows: 3,
    });
  });

  it('reads a multi-row-group file group by group, every row in order', async () => {
    const bytes = manyRows(2500, 1000);
    expect(parquetMetadata(bytes).row_groups.map((g) => Number(g.num_rows))).toEqual([
      1000, 1000, 500,
    ]);
    const result = await loadAsPage(catalog, bytesSource('groups.parquet', bytes));
    expect(result.rows).toBe(2500);
    const [stats] = await catalog.query(
      'SELECT count(*)::INTEGER AS n, min(line) AS lo, max(line) AS hi, count(DISTINCT conversation)::INTEGER AS convs FROM user_groups',
    );
    expect(stats).toEqual({ n: 2500, lo: 1, hi: 2500, convs: 3 });
    const edge = await catalog.query(
      'SELECT line, query, memory, conversation, fields FROM user_groups WHERE line IN (1000, 1001, 2500) ORDER BY line',
    );
    expect(edge).toEqual([
      {
        line: 1000,
        query: 'Question 1000?',
        memory: 'Memory 1000',
        conversation: 'c1',
        fields: '{"id":1000}',
      },
      {
        line: 1001,
        query: 'Question 1001?',
        memory: 'Memory 1001',
        conversation: 'c2',
        fields: '{"id":1001}',
      },
      {
        line: 2500,
        query: 'Question 2500?',
        memory: 'Memory 2500',
        conversation: 'c1',
        fields: '{"id":2500}',
      },
    ]);
  });

  it('reads the same file from small chunks, and from a source of unknown size, with progress', async () => {
    const bytes = manyRows(300, 100);
    const small = chunked('small.parquet', bytes, 97);
    const unknown = iterableSource('unknown.parquet', null, small.chunks);
    for (const source of [small, unknown]) {
      let read = 0;
      const result = await loadAsPage(catalog, source, {}, { onBytes: (n) => (read = n) });
      expect(result.rows).toBe(300);
      expect(read).toBe(bytes.length);
    }
    const [row] = await catalog.query('SELECT query FROM user_unknown WHERE line = 300');
    expect(row.query).toBe('Question 300?');
  });

  it('loads the committed records.parquet like records.jsonl', async () => {
    const result = await loadAsPage(catalog, fixture(GOOD_DIR, 'records.parquet'));
    expect(result).toEqual({
      file: 'records.parquet',
      table: 'user_records',
      kind: 'records',
      rows: 5,
    });
    const rows = await catalog.query(
      'SELECT line, query, gold, conversation, speaker, fields FROM user_records ORDER BY line',
    );
    expect(rows[1]).toEqual({
      line: 2,
      query: 'What does Bob play?',
      gold: ['cello', 'the cello'],
      conversation: 'c1',
      speaker: 'Bob',
      fields: '{"id":2}',
    });
    expect(rows[3].gold).toBeNull();
  });
});

describe('bad Parquet files', () => {
  let before: Record<string, number>;
  beforeAll(async () => {
    await loadAsPage(catalog, fixture(GOOD_DIR, 'records.jsonl'), { table: 'user_keep' });
    before = await tableCounts(catalog);
  });

  async function rejects(
    source: ByteSource,
    message: string,
    options: Parameters<typeof loadAsPage>[3] = {},
  ): Promise<void> {
    const err = await errorOf(() => loadAsPage(catalog, source, { table: 'user_keep' }, options));
    expect(err.message).toContain(message);
    expect(await tableCounts(catalog)).toEqual(before);
  }

  it('names a truncated file', async () => {
    const bytes = mixedFile();
    await rejects(
      bytesSource('cut.parquet', bytes.subarray(0, bytes.length - 10)),
      'cut.parquet: expected a Parquet file ending in its footer and "PAR1", found other bytes at the end (the file is truncated or not Parquet)',
    );
    await rejects(
      bytesSource('tiny.parquet', bytes.subarray(0, 6)),
      'tiny.parquet: expected a Parquet file (at least 12 bytes: "PAR1", data, metadata, "PAR1"), found only 6 bytes',
    );
  });

  it('names a file with Parquet magic but a garbage footer', async () => {
    const bytes = new Uint8Array(64).fill(0xab);
    bytes.set([0x50, 0x41, 0x52, 0x31], 0);
    bytes.set([0x50, 0x41, 0x52, 0x31], 60);
    await rejects(
      bytesSource('footer.parquet', bytes),
      'footer.parquet: expected Parquet metadata of at most 52 bytes before the footer, found a footer giving 2880154539 bytes',
    );
    new DataView(bytes.buffer).setUint32(56, 40, true);
    await rejects(
      bytesSource('metadata.parquet', bytes),
      'metadata.parquet: expected readable Parquet metadata, found corrupt metadata (',
    );
  });

  it('names a file whose row data is corrupt', async () => {
    const bytes = manyRows(300, 100).slice();
    const meta = parquetMetadata(bytes);
    const page = Number(meta.row_groups[1].columns[0].meta_data?.data_page_offset);
    bytes.fill(0xff, page, page + 24);
    const message =
      'pages.parquet: expected readable Parquet data, found corrupt data in row group 2 of 3, rows 101–200 (';
    await rejects(bytesSource('pages.parquet', bytes), message);
    // Group 1's rows come out before group 2 is decoded.
    let yielded = 0;
    const err = await errorOf(async () => {
      for await (const record of readRecords(bytesSource('pages.parquet', bytes), 'parquet')) {
        expect(record.line).toBe(++yielded);
      }
    });
    expect(err.message).toContain(message);
    expect(yielded).toBe(100);
  });

  it('refuses a file without rows, or compressed with a codec this build cannot read', async () => {
    await rejects(
      bytesSource('none.parquet', parquetBytes([{ name: 'question', data: [], type: 'STRING' }])),
      'none.parquet: expected at least one record, found a Parquet file with no rows',
    );
    const gzip = new Uint8Array(
      parquetWriteBuffer({
        columnData: [{ name: 'question', data: ['q'], type: 'STRING' }],
        codec: 'GZIP',
        compressors: { GZIP: (input: Uint8Array) => input },
      }),
    );
    await rejects(
      bytesSource('gzip.parquet', gzip),
      'gzip.parquet: expected a Parquet file compressed with SNAPPY or not compressed (re-save it with compression="snappy"), found GZIP compression in column "question"',
    );
  });

  it('refuses a file over the size cap, before reading it or while reading it', async () => {
    const parquet = hyparquetReader({ maxBytes: 1024 });
    const bytes = manyRows(300, 100);
    expect(bytes.length).toBeGreaterThan(1024);
    const message = 'big.parquet: expected a Parquet file under 1.0 KiB (Parquet is read whole';
    let chunks = 0;
    const known = iterableSource('big.parquet', bytes.length, async function* () {
      chunks++;
      yield bytes;
    });
    await rejects(known, message, { parquet });
    expect(chunks).toBe(1); // the head only, to detect the format
    const unknown = iterableSource('big.parquet', null, chunked('big.parquet', bytes, 256).chunks);
    await rejects(unknown, message, { parquet });
  });

  it('still takes another reader, e.g. one refusing Parquet', async () => {
    await rejects(
      fixture(GOOD_DIR, 'records.parquet'),
      'records.parquet: expected a JSON, JSON Lines or CSV file, found a Parquet file, and Parquet support not installed',
      { parquet: PARQUET_NOT_INSTALLED },
    );
  });
});

describe('toJsonValue', () => {
  it.each([
    [2n ** 53n - 1n, 9007199254740991],
    [-(2n ** 53n), '-9007199254740992'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [new Date(Number.NaN), null],
    [undefined, null],
    [new Uint8Array([0, 255, 104, 105]), 'AP9oaQ=='],
    [new Float32Array([1.5, 2]), [1.5, 2]],
    [new BigInt64Array([1n, 2n ** 60n]), [1, '1152921504606846976']],
    [
      new Map<unknown, unknown>([
        ['k', 1n],
        [2, [new Date(0)]],
      ]),
      { k: 1, '2': ['1970-01-01T00:00:00.000Z'] },
    ],
  ])('%s', (value, expected) => {
    expect(toJsonValue(value)).toEqual(expected);
  });
});
