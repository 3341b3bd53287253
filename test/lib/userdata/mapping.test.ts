import { describe, expect, it } from 'vitest';
import {
  MAX_LISTED_FIELDS,
  collectFields,
  fieldWindow,
  summarizeFields,
  wideFieldWindow,
} from '../../../src/lib/userdata/fields.ts';
import {
  mapRecord,
  mappingNotes,
  mappingProblem,
  roleOptions,
  suggestMapping,
} from '../../../src/lib/userdata/mapping.ts';
import { readRecords } from '../../../src/lib/userdata/records.ts';
import { GOOD_DIR, collect, fixture } from './helpers.ts';

describe('field detection and mapping', () => {
  it('suggests query, memory, gold, conversation and speaker from field names', async () => {
    const records = await collect(readRecords(fixture(GOOD_DIR, 'records.jsonl'), 'jsonl'));
    const fields = collectFields(records.map((r) => r.value));
    expect(fields.map((f) => f.label)).toEqual([
      'id',
      'conversation_id',
      'speaker',
      'question',
      'memory',
      'answer',
      'extra',
      'extra.note',
    ]);
    expect(fields.find((f) => f.label === 'answer')?.kinds).toEqual([
      'array',
      'null',
      'number',
      'string',
    ]);
    expect(suggestMapping(fields)).toEqual({
      query: ['question'],
      memory: ['memory'],
      gold: ['answer'],
      conversation: ['conversation_id'],
      speaker: ['speaker'],
    });
  });

  it('maps a record: numbers become text, gold becomes a list, other fields stay as JSON', async () => {
    const records = await collect(readRecords(fixture(GOOD_DIR, 'records.jsonl'), 'jsonl'));
    const mapping = suggestMapping(collectFields(records.map((r) => r.value)));
    expect(mapRecord(records[2], mapping, 'records.jsonl')).toEqual({
      line: 3,
      query: "How old is Ann's cat?",
      memory: "Ann's cat turned 7 last week.",
      gold: ['7'],
      conversation: 'c1',
      speaker: 'Ann',
      fields: '{"id":3}',
    });
    expect(mapRecord(records[1], mapping, 'records.jsonl').gold).toEqual(['cello', 'the cello']);
    expect(mapRecord(records[3], mapping, 'records.jsonl').gold).toBeNull();
  });

  it('falls back to the longest text field as the memory and maps nested fields', () => {
    const fields = collectFields([{ id: 'a', body: 'a long piece of text', meta: { note: 'x' } }]);
    expect(suggestMapping(fields).memory).toEqual(['body']);
    const nested = collectFields([{ naive: { context: 'ctx' }, q: 'why' }]);
    expect(suggestMapping(nested)).toMatchObject({ query: ['q'], memory: ['naive', 'context'] });
  });

  it('needs the query or the memory', () => {
    expect(
      mappingProblem({ query: null, memory: null, gold: ['a'], conversation: null, speaker: null }),
    ).toMatch(/query or the memory/);
  });
});

describe('wide and clashing records', () => {
  it('lists at most the limit of fields and counts the rest, which stay in the fields column', () => {
    const wide: Record<string, string> = { question: 'q?' };
    for (let i = 0; i < 5000; i++) wide[`k${i}`] = String(i);
    const summary = summarizeFields([wide], 100);
    expect(summary.fields).toHaveLength(100);
    expect(summary.folded).toBe(4901);
    expect(suggestMapping(summary.fields).query).toEqual(['question']);
    const row = mapRecord({ line: 1, path: '', value: wide }, suggestMapping(summary.fields), 'w');
    expect(Object.keys(JSON.parse(row.fields ?? '{}'))).toHaveLength(5000);
  });

  it('keeps a million-key record listable: the list is capped, the rest counted', () => {
    const huge: Record<string, number> = {};
    for (let i = 0; i < 1_000_000; i++) huge[`f${i}`] = i;
    const summary = summarizeFields([huge]);
    const menu = roleOptions(summary.fields, 'memory', null, '', 200);
    expect(summary.fields).toHaveLength(MAX_LISTED_FIELDS);
    expect(summary.folded).toBe(1_000_000 - MAX_LISTED_FIELDS);
    expect(menu).toHaveLength(200);
  });

  it('finds, describes and maps a field past the tallied ones (the last of 10⁶ keys)', () => {
    const huge: Record<string, unknown> = {};
    for (let i = 0; i < 999_999; i++) huge[`f${i}`] = i;
    huge.the_question = 'what is last?';
    const records = [huge, { the_question: 'and second?' }];
    const summary = summarizeFields(records);
    expect(summary.foldedIds.at(-1)).toBe('["the_question"]');
    const found = wideFieldWindow(summary, records, 'THE_QUES', 100);
    expect(found.matching).toBe(1);
    expect(found.shown).toEqual([
      {
        path: ['the_question'],
        label: 'the_question',
        kinds: ['string'],
        present: 2,
        meanLength: 12,
        example: 'what is last?',
        nonFinite: 0,
      },
    ]);
    expect(wideFieldWindow(summary, records, 'f99999', 5)).toMatchObject({ matching: 10 });
    expect(wideFieldWindow(summary, records, '', 5)).toMatchObject({ matching: 1_000_000 });
    const mapping = { ...suggestMapping(summary.fields), query: ['the_question'] };
    const row = mapRecord({ line: 1, path: '', value: huge }, mapping, 'w');
    expect(row.query).toBe('what is last?');
  });

  it('gives "a.b" and a → b different labels and reports the clash', () => {
    const summary = summarizeFields([{ 'a.b': 'literal', a: { b: 'nested' }, '': 'empty' }]);
    expect(summary.fields.map((f) => f.label)).toEqual(['"a.b"', 'a', 'a.b', '""']);
    expect(new Set(summary.fields.map((f) => f.label)).size).toBe(summary.fields.length);
    expect(summary.clashes).toEqual(['a.b']);
  });

  it('finds fields by search, and a menu always holds the chosen field', () => {
    const fields = collectFields([{ alpha: 'x', beta: 'y', gamma: 'z', n: { alpha2: 'w' } }]);
    expect(fieldWindow(fields, 'ALP', 10).shown.map((f) => f.label)).toEqual(['alpha', 'n.alpha2']);
    expect(fieldWindow(fields, '', 2)).toMatchObject({ matching: 5 });
    const menu = roleOptions(fields, 'memory', ['gamma'], 'alp', 1);
    expect(menu.map((f) => f.label)).toEqual(['alpha', 'gamma']);
  });

  it('keeps a __proto__ field as data in the fields column', () => {
    const value = JSON.parse('{"question":"q","__proto__":{"polluted":true}}');
    const row = mapRecord(
      { line: 1, path: '', value },
      suggestMapping(collectFields([value])),
      'p',
    );
    expect(row.fields).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('mappingNotes', () => {
  it('says when a field named for a role is skipped, and when numbers overflow', () => {
    const records = [JSON.parse('{"query":["a","b"],"question":"q?","score":1e400}')];
    const fields = collectFields(records);
    const mapping = suggestMapping(fields);
    expect(mapping.query).toEqual(['question']);
    expect(mappingNotes(fields, mapping)).toEqual([
      'query holds array values, which cannot be the query: question was chosen instead.',
      'score: 1 number in the sample is too large for a double and will be stored as null.',
    ]);
    expect(
      mappingNotes(
        collectFields([{ query: 'x' }]),
        suggestMapping(collectFields([{ query: 'x' }])),
      ),
    ).toEqual([]);
  });
});
