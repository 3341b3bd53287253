import { describe, expect, it } from 'vitest';
import { collectFields } from '../../../src/lib/userdata/fields.ts';
import { mapRecord, mappingProblem, suggestMapping } from '../../../src/lib/userdata/mapping.ts';
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
