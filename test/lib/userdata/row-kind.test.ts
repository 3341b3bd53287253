import { describe, expect, it } from 'vitest';
import { KIND_WORDS, kindKey, rowKindOf } from '../../../src/lib/userdata/row-kind.ts';

describe('row kinds', () => {
  it('reads memory / memories / query / queries in any case', () => {
    expect(['memory', ' Memories ', 'QUERY', 'queries', 'memo', 3, null].map(rowKindOf)).toEqual([
      'memory',
      'memory',
      'query',
      'query',
      null,
      null,
      null,
    ]);
    expect(KIND_WORDS).toEqual(['memory', 'memories', 'query', 'queries']);
  });

  it('splits by type before kind, and only when some row names a kind', () => {
    expect(kindKey([{ type: 'memory' }, { type: 'query' }])).toBe('type');
    expect(kindKey([{ type: 'pets', kind: 'memory' }, { kind: 'query' }])).toBe('kind');
    expect(kindKey([{ type: 'pets' }, {}])).toBeNull();
    expect(kindKey([])).toBeNull();
  });
});
