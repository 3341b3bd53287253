import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import {
  conversationListQuery,
  conversationTurnsQuery,
} from '../../../src/lib/datasets/viewer-queries.ts';
import {
  submissionByDomainQuery,
  submissionTasksQuery,
  userTablesQuery,
} from '../../../src/lib/query/user-tables.ts';
import { bytesSource } from '../../../src/lib/userdata/byte-source.ts';
import { inspectUserFile } from '../../../src/lib/userdata/inspect.ts';
import { loadUserFile, planFrom } from '../../../src/lib/userdata/load.ts';
import { GOOD_DIR, errorOf, fixture } from './helpers.ts';
import { catalogWithInmind, loadAsPage, tableCounts } from './duckdb.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await catalogWithInmind();
});
afterAll(async () => {
  await catalog.engine.close();
});

describe('loading readers’ files into user_ tables', () => {
  it('loads JSONL through the suggested mapping', async () => {
    const result = await loadAsPage(catalog, fixture(GOOD_DIR, 'records.jsonl'));
    expect(result).toEqual({
      file: 'records.jsonl',
      table: 'user_records',
      kind: 'records',
      rows: 5,
    });
    const rows = await catalog.query('SELECT * FROM user_records ORDER BY line');
    expect(rows[1]).toEqual({
      line: 2,
      query: 'What does Bob play?',
      memory: 'Bob plays the cello on Sundays.',
      gold: ['cello', 'the cello'],
      conversation: 'c1',
      speaker: 'Bob',
      fields: '{"id":2}',
    });
    expect(rows[4].fields).toBe('{"id":5,"extra":{"note":"kept as JSON"}}');
  });

  it('loads CSV (BOM, CRLF, multi-line field), a JSON array and BOM+CRLF JSONL', async () => {
    await loadAsPage(catalog, fixture(GOOD_DIR, 'records.csv'));
    const csv = await catalog.query(
      'SELECT line, query, memory, gold FROM user_records ORDER BY line',
    );
    expect(csv).toEqual([
      { line: 2, query: 'Where, exactly?', memory: 'Line one\nline two', gold: ['Paris'] },
      { line: 4, query: 'He said "hi"', memory: 'plain', gold: ['42'] },
      { line: 6, query: 'last', memory: '', gold: [''] },
    ]);
    const json = await loadAsPage(catalog, fixture(GOOD_DIR, 'records.json'));
    expect(json.rows).toBe(3);
    const lines = await catalog.query('SELECT line, gold FROM user_records ORDER BY line');
    expect(lines).toEqual([
      { line: 2, gold: ['1'] },
      { line: 7, gold: ['2', 'two'] },
      { line: 15, gold: ['3'] },
    ]);
    expect((await loadAsPage(catalog, fixture(GOOD_DIR, 'bom-crlf.jsonl'))).rows).toBe(2);
  });

  it('keeps text byte for byte, NUL and quotes included', async () => {
    const text = JSON.stringify({ memory: "it's a\u0000b 'quoted' \\ back", question: '日本語' });
    await loadAsPage(catalog, bytesSource('odd.jsonl', `${text}\n`));
    const [row] = await catalog.query('SELECT query, memory FROM user_odd');
    expect(row).toEqual({ query: '日本語', memory: "it's a\u0000b 'quoted' \\ back" });
  });

  it('lists user tables with file, kind and mapping, and hides staging tables', async () => {
    const tables = await catalog.run(userTablesQuery());
    expect(tables.map((t) => t.name)).toContain('user_records');
    const records = tables.find((t) => t.name === 'user_records');
    expect(records).toMatchObject({
      file: 'records.json',
      kind: 'records',
      format: 'json',
      rows: 3,
    });
    expect(records?.mapping).toBe('query ← question, memory ← memory, gold ← answer');
    expect(tables.find((t) => t.name === 'user_bom_crlf')).toMatchObject({ rows: 2 });
    expect(
      Object.keys(await tableCounts(catalog)).filter((t) => t.startsWith('__staging')),
    ).toEqual([]);
    expect(await catalog.tableNames()).not.toContain('__user_tables');
  });

  it('shows a user table in the conversation viewer, one conversation per id', async () => {
    await loadAsPage(catalog, fixture(GOOD_DIR, 'records.jsonl'));
    const convs = await catalog.run(conversationListQuery('user_records'));
    expect(convs).toEqual([
      { conv_id: 'c1', turns: 3, sessions: 1 },
      { conv_id: 'c2', turns: 2, sessions: 1 },
    ]);
    const turns = await catalog.run(conversationTurnsQuery('user_records', 'c2'));
    expect(turns.map((t) => [t.dia_id, t.turn_index, t.speaker, t.text])).toEqual([
      ['L4', 0, 'Cy', 'Cy is allergic to peanuts.'],
      ['L5', 1, 'Dee', 'Dee works at a bakery.'],
    ]);
  });

  it('refuses a table name outside user_*', async () => {
    const err = await errorOf(() =>
      loadAsPage(catalog, fixture(GOOD_DIR, 'records.jsonl'), { table: 'turns' }),
    );
    expect(err.message).toMatch(/^records\.jsonl: Table names start with "user_"/);
  });

  it('leaves the previous table when cancelled', async () => {
    const before = await tableCounts(catalog);
    const controller = new AbortController();
    const source = fixture(GOOD_DIR, 'records.jsonl');
    const plan = planFrom(await inspectUserFile(source));
    controller.abort();
    const err = await errorOf(() =>
      loadUserFile(catalog, source, plan, { signal: controller.signal }),
    );
    expect(err.message).toBe('records.jsonl: loading cancelled; nothing was changed');
    expect(await tableCounts(catalog)).toEqual(before);
  });
});

describe('an InMind submission', () => {
  beforeAll(async () => {
    const result = await loadAsPage(catalog, fixture(GOOD_DIR, 'submission.jsonl'));
    expect(result).toEqual({
      file: 'submission.jsonl',
      table: 'user_submission',
      kind: 'inmind-submission',
      rows: 7,
    });
  });

  it('reports, per system and domain, how often the context holds the target message', async () => {
    const rows = await catalog.run(submissionByDomainQuery('user_submission'));
    const byKey = Object.fromEntries(rows.map((r) => [`${r.system}/${r.domain}`, r]));
    expect(byKey['TestMem/health_and_wellness']).toMatchObject({
      tasks: 2,
      naive_exact: 1,
      naive_normalized: 1,
      query_exact: 0,
      query_normalized: 0.5,
    });
    expect(byKey['TestMem/professional_and_career']).toMatchObject({
      tasks: 2,
      naive_exact: 0.5,
      naive_normalized: 1,
      query_exact: 0.5,
      query_normalized: 0.5,
    });
    expect(byKey['TestMem/legal']).toMatchObject({
      naive_exact: 0,
      naive_normalized: 1,
      query_normalized: 0,
    });
    expect(byKey['TestMem/financial']).toMatchObject({ naive_normalized: 0, query_normalized: 0 });
    const all = byKey['TestMem/All domains'];
    expect(all).toMatchObject({ is_total: 1, tasks: 6, naive_exact: 0.5, query_exact: 1 / 6 });
    expect(all.naive_normalized).toBeCloseTo(5 / 6);
    expect(all.query_normalized).toBeCloseTo(2 / 6);
    expect(byKey['Baseline/All domains']).toMatchObject({
      tasks: 1,
      naive_exact: 0,
      naive_context_chars: 0,
    });
  });

  it('puts both answers of each task side by side with the target and context lengths', async () => {
    const rows = await catalog.run(submissionTasksQuery('user_submission'));
    expect(rows).toHaveLength(7);
    const task0 = rows.find((r) => r.system === 'TestMem' && r.task_id === 0);
    expect(task0).toMatchObject({
      domain: 'health_and_wellness',
      user_message: "I've been diagnosed with asthma.",
      naive_answer: 'You have asthma.',
      query_answer: 'Consider hypoallergenic pets.',
      naive_exact: true,
      query_exact: false,
      query_normalized: true,
      query_context_chars: 'Earlier: ive been DIAGNOSED with asthma'.length,
    });
  });
});
