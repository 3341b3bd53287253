import { describe, expect, it } from 'vitest';
import {
  DECL_PARTS,
  decodeDecl,
  fieldProblem,
  partField,
  withPart,
  type UserBenchmarkDecl,
} from '../../../src/lib/userdata/benchmark-decl.ts';

const DECL: UserBenchmarkDecl = {
  version: 1,
  memory: { text: 'memory', id: 'fields.id', session: 'fields.session', date: null },
  query: { text: 'query', gold: 'gold', category: 'fields.category' },
};

describe('parts', () => {
  it('reads and replaces each part', () => {
    expect(DECL_PARTS.map((p) => partField(DECL, p))).toEqual([
      'memory',
      'fields.id',
      'fields.session',
      null,
      'query',
      'gold',
      'fields.category',
    ]);
    expect(partField(withPart(DECL, 'memory.date', 'fields.when'), 'memory.date')).toBe(
      'fields.when',
    );
    expect(fieldProblem('fields.a b')).toContain('is neither a column');
    expect(fieldProblem('speaker')).toBeNull();
  });
});

describe('decodeDecl', () => {
  it('reads back what JSON kept', () => {
    expect(decodeDecl(JSON.parse(JSON.stringify(DECL)), 'x')).toEqual(DECL);
  });

  it.each([
    [null, 'here: not a benchmark declaration'],
    [{ ...DECL, version: 2 }, 'here: declaration version 2, this MemLens reads 1'],
    [{ ...DECL, memory: { ...DECL.memory, id: 7 } }, 'here: memory.id: expected a field name'],
    [{ ...DECL, query: { ...DECL.query, gold: 'x y' } }, 'here: query.gold: "x y" is neither'],
  ])('refuses %j', (value, message) => {
    expect(() => decodeDecl(value, 'here')).toThrow(message);
  });
});
