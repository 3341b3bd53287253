import { describe, expect, it } from 'vitest';
import { parseJsonLine } from '../../../src/lib/userdata/json-line.ts';
import { DatasetFormatError } from '../../../src/lib/datasets/validate.ts';

function formatError(fn: () => unknown): DatasetFormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DatasetFormatError) return e;
    throw e;
  }
  throw new Error('expected a DatasetFormatError');
}

describe('parseJsonLine', () => {
  it('parses one object', () => {
    expect(parseJsonLine({ line: 3, text: '{"id": 1, "text": "<b>x</b>"}' }, 'a.jsonl')).toEqual({
      id: 1,
      text: '<b>x</b>',
    });
  });

  it('names the file, line and column of a syntax error', () => {
    const err = formatError(() => parseJsonLine({ line: 7, text: '{"id": 1,, }' }, 'a.jsonl'));
    expect([err.file, err.line, err.expected]).toEqual(['a.jsonl', 7, 'valid JSON']);
    expect(err.column).toBeGreaterThan(1);
    expect(err.message).toContain('a.jsonl');
  });

  it('refuses a line that is JSON but not an object', () => {
    const err = formatError(() => parseJsonLine({ line: 2, text: '[1, 2]' }, 'b.jsonl'));
    expect([err.line, err.expected]).toEqual([2, 'a JSON object (one record per line)']);
  });
});
