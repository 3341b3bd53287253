import { describe, expect, it } from 'vitest';
import { describeRepeats, repeatedKeys } from '../../../src/lib/userdata/repeated-keys.ts';

describe('repeatedKeys', () => {
  it('finds a key an object repeats, where JSON.parse keeps the last value silently', () => {
    const text = '{"id": 1, "query": "first", "query": "second"}';
    expect(JSON.parse(text).query).toBe('second');
    expect(repeatedKeys(text, 7)).toEqual([{ line: 7, path: '', key: 'query' }]);
  });

  it('tells nested objects and arrays apart, and reads escaped keys', () => {
    const text = '{"a":{"x":1,"y":2,"x":3},"b":[{"k":1},{"k":2,"k":3}],"\\u0071":1,"q":2}';
    expect(repeatedKeys(text)).toEqual([
      { line: 1, path: 'a', key: 'x' },
      { line: 1, path: 'b[1]', key: 'k' },
      { line: 1, path: '', key: 'q' },
    ]);
  });

  it('is not fooled by braces, commas and quotes inside strings, or by equal keys in sibling objects', () => {
    const text = '{"s":"{\\"s\\":1, \\"s\\":2}","t":{"s":1},"u":{"s":2}}';
    expect(repeatedKeys(text)).toEqual([]);
  });

  it('names a JSON document record by its index, with the line of the repeat', () => {
    const text = '[\n  {"id": 1},\n  {"id": 2,\n   "meta": {"n": 1, "n": 2},\n   "id": 3}\n]';
    expect(repeatedKeys(text, 1, true)).toEqual([
      { line: 4, path: '[1].meta', key: 'n' },
      { line: 5, path: '[1]', key: 'id' },
    ]);
  });

  it('says what is loaded', () => {
    expect(describeRepeats([])).toBeNull();
    expect(describeRepeats([{ line: 3, path: '', key: 'query' }])).toBe(
      '1 key repeated within one object ("query" on line 3): only the last value of each is loaded, as JSON.parse does.',
    );
  });
});
