import { describe, expect, it } from 'vitest';
import { plural } from '../../../src/lib/common/plural.ts';

describe('plural', () => {
  it('puts the noun in the number of the count', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(1069, 'cluster')).toBe('1,069 clusters');
    expect(plural(2, 'query', 'queries')).toBe('2 queries');
  });
});
