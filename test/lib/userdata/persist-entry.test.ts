import { describe, expect, it } from 'vitest';
import {
  STORED_TABLE_VERSION,
  StoredTableError,
  decodeStoredTable,
  planOf,
  storedTable,
} from '../../../src/lib/userdata/persist-entry.ts';
import { emptyMapping } from '../../../src/lib/userdata/mapping.ts';
import type { LoadPlan } from '../../../src/lib/userdata/load.ts';

const plan: LoadPlan = {
  table: 'user_notes',
  format: 'jsonl',
  kind: 'records',
  mapping: { ...emptyMapping(), memory: ['text'], gold: ['meta', 'ids'] },
};

function errorFor(value: unknown, key: string): string {
  try {
    decodeStoredTable(value, key);
  } catch (err) {
    if (err instanceof StoredTableError) return err.message;
    throw err;
  }
  throw new Error('expected a StoredTableError');
}

describe('stored table entries', () => {
  it('round-trips a plan and the file bytes', () => {
    const entry = storedTable(plan, 'notes.jsonl', new Blob(['{"text":"hi"}\n']));
    const back = decodeStoredTable(structuredClone(entry), 'user_notes');
    expect(back.version).toBe(STORED_TABLE_VERSION);
    expect(planOf(back)).toEqual(plan);
    expect(back.file).toBe('notes.jsonl');
    expect(back.bytes.size).toBe(14);
  });

  it('refuses a corrupt entry, naming the table and what is wrong', () => {
    const good = storedTable(plan, 'notes.jsonl', new Blob(['x']));
    expect(errorFor('garbage', 'user_a')).toBe(
      'user_a: the copy kept in this browser cannot be read (not an entry)',
    );
    expect(errorFor({ ...good, version: 7 }, 'user_notes')).toContain(
      'kept by another version of MemLens (7, this one reads 1)',
    );
    expect(errorFor({ ...good, bytes: 'x' }, 'user_notes')).toContain('the file bytes are missing');
    expect(errorFor({ ...good, format: 'xls' }, 'user_notes')).toContain('unknown format xls');
    expect(errorFor({ ...good, mapping: { memory: 3 } }, 'user_notes')).toContain(
      'the mapping of memory is not a field path',
    );
    expect(errorFor(good, 'user_other')).toContain('user_other: ');
  });
});
