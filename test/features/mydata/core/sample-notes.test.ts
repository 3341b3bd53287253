import { describe, expect, it } from 'vitest';
import { inspectUserFile } from '../../../../src/lib/userdata/inspect.ts';
import { bytesSource } from '../../../../src/lib/userdata/byte-source.ts';
import {
  duplicateIdNote,
  sampleNotes,
  typeMismatchNotes,
} from '../../../../src/features/mydata/core/sample-notes.ts';
import { summarizeFields } from '../../../../src/lib/userdata/fields.ts';
import { emptyMapping } from '../../../../src/lib/userdata/mapping.ts';
import type { UserRecord } from '../../../../src/lib/userdata/record.ts';
import type { JsonObject } from '../../../../src/lib/datasets/validate.ts';

const records = (...values: JsonObject[]): UserRecord[] =>
  values.map((value, i) => ({ line: i + 1, path: '', value }));
const fieldsOf = (sample: UserRecord[]) => summarizeFields(sample.map((r) => r.value)).fields;
const jsonl = (name: string, lines: string[]) =>
  bytesSource(name, new TextEncoder().encode(`${lines.join('\n')}\n`));

describe('duplicateIdNote', () => {
  it('counts repeated ids and names the first two lines of the first one', () => {
    const sample = records(
      { task_id: 1, q: 'a' },
      { task_id: 2, q: 'b' },
      { task_id: 1, q: 'c' },
      { task_id: 3, q: 'd' },
      { task_id: 3, q: 'e' },
      { task_id: 1, q: 'f' },
    );
    expect(duplicateIdNote(sample, fieldsOf(sample))).toBe(
      'task_id: 2 values repeated across 5 records of the 6 read (the first, 1, on lines 1 and 3); all are loaded, so the same task_id names more than one row.',
    );
  });

  it('says nothing for unique ids, or without an id field', () => {
    const unique = records({ id: 'a' }, { id: 'b' }, { id: null }, { id: null });
    expect(duplicateIdNote(unique, fieldsOf(unique))).toBeNull();
    const none = records({ text: 'a' }, { text: 'a' });
    expect(duplicateIdNote(none, fieldsOf(none))).toBeNull();
  });
});

describe('typeMismatchNotes', () => {
  it('lists each other kind with its first line, and what loading does with it', () => {
    const sample = records(
      { task_id: 1, query: 'a', score: 1 },
      { task_id: 2, query: 'b', score: 'high' },
      { task_id: 'seven', query: ['c'], score: null },
      { task_id: 4, query: 'd', score: 2 },
    );
    const mapping = { ...emptyMapping(), query: ['query'] };
    expect(typeMismatchNotes(sample, fieldsOf(sample), mapping)).toEqual([
      'task_id: number in 3 records, string in 1 (first on line 3); kept as they are in the fields column.',
      'query: string in 3 records, array in 1 (first on line 3); mapped as the query, loading will stop at line 3.',
      'score: number in 2 records, string in 1 (first on line 2); kept as they are in the fields column.',
    ]);
    const asMemory = { ...emptyMapping(), memory: ['score'] };
    expect(typeMismatchNotes(sample, fieldsOf(sample), asMemory)[2]).toBe(
      'score: number in 2 records, string in 1 (first on line 2); mapped as the memory, each is loaded as text.',
    );
  });

  it('says nothing when every value of a field has one kind (nulls aside)', () => {
    const sample = records({ a: 1, b: 'x' }, { a: null, b: 'y' });
    expect(typeMismatchNotes(sample, fieldsOf(sample), emptyMapping())).toEqual([]);
  });
});

describe('the mapping step lists them before loading', () => {
  it('from a JSONL file: repeated ids, a repeated key (the last wins), a type change', async () => {
    const inspection = await inspectUserFile(
      jsonl('dup.jsonl', [
        '{"id": 1, "query": "where?", "query": "when?"}',
        '{"id": 2, "query": "who?"}',
        '{"id": 1, "query": "why?"}',
        '{"id": "four", "query": "how?"}',
      ]),
    );
    expect(inspection.repeats).toEqual([{ line: 1, path: '', key: 'query' }]);
    expect(inspection.sample[0].value.query).toBe('when?');
    expect(sampleNotes(inspection, inspection.mapping)).toEqual([
      'id: 1 value repeated across 2 records of the 4 read (the first, 1, on lines 1 and 3); all are loaded, so the same id names more than one row.',
      '1 key repeated within one object ("query" on line 1): only the last value of each is loaded, as JSON.parse does.',
      'id: number in 3 records, string in 1 (first on line 4); kept as they are in the fields column.',
    ]);
  });

  it('from a JSON document: the record and line of a repeated key', async () => {
    const text = '[\n {"text": "a"},\n {"text": "b",\n  "text": "c"}\n]\n';
    const inspection = await inspectUserFile(
      bytesSource('doc.json', new TextEncoder().encode(text)),
    );
    expect(inspection.repeats).toEqual([{ line: 4, path: '[1]', key: 'text' }]);
  });

  it('a CSV file has no repeats to report', async () => {
    const csv = bytesSource('a.csv', new TextEncoder().encode('id,text\n1,a\n2,b\n'));
    const inspection = await inspectUserFile(csv);
    expect(inspection.repeats).toEqual([]);
    expect(sampleNotes(inspection, inspection.mapping)).toEqual([]);
  });
});
