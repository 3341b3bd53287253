import { describe, expect, it } from 'vitest';
import {
  jsonSyntaxErrorOffset,
  parseJsonDocument,
  parseJsonl,
  parseJsonlObjects,
} from '../../../src/lib/datasets/jsonl.ts';
import { DatasetFormatError } from '../../../src/lib/datasets/validate.ts';

function caught(fn: () => unknown): DatasetFormatError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DatasetFormatError) return error;
    throw error;
  }
  throw new Error('expected a DatasetFormatError');
}

describe('parseJsonl', () => {
  it('returns values with 1-based line numbers, skipping blank lines', () => {
    const text = '{"a":1}\n\n  \n[2]\r\n"x"\n';
    expect(parseJsonl(text, 'f.jsonl')).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: [2] },
      { line: 5, value: 'x' },
    ]);
  });

  it('accepts a BOM at the start', () => {
    expect(parseJsonl('\uFEFF{"a":1}\n{"b":2}', 'f.jsonl')).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { b: 2 } },
    ]);
  });

  it('names the file, line and the parser message for a malformed line', () => {
    const error = caught(() => parseJsonl('{"a":1}\n\n{"b": }\n', 'data/x.jsonl'));
    expect(error.file).toBe('data/x.jsonl');
    expect(error.line).toBe(3);
    expect(error.column).toBe(7);
    expect(error.message).toMatch(
      /^data\/x\.jsonl:3:7: expected valid JSON, found a syntax error \(.+\)$/,
    );
  });

  it('rejects non-object lines where objects are expected', () => {
    const error = caught(() => parseJsonlObjects('{"a":1}\n[1,2]\n', 'y.jsonl'));
    expect(error.line).toBe(2);
    expect(error.message).toContain('y.jsonl:2');
    expect(error.message).toContain('expected a JSON object');
  });
});

describe('parseJsonDocument', () => {
  it('parses, accepting a BOM', () => {
    expect(parseJsonDocument('\uFEFF{"a":[1,2]}', 'd.json')).toEqual({ a: [1, 2] });
  });

  it('reports line and column of a syntax error', () => {
    const error = caught(() => parseJsonDocument('{\n  "a": 1,\n  "b": }\n', 'd.json'));
    expect([error.line, error.column]).toEqual([3, 8]);
    expect(error.message).toMatch(/^d\.json:3:8: expected valid JSON/);
  });

  it('reports the end of an unterminated document', () => {
    const error = caught(() => parseJsonDocument('[1,\n2', 'd.json'));
    expect([error.line, error.column]).toEqual([2, 2]);
  });
});

describe('jsonSyntaxErrorOffset', () => {
  it('is -1 for valid JSON', () => {
    for (const text of ['0', ' {"a": [1, -2.5e3, true, null, "\\u00e9\\n"]} ', '[]', '{}']) {
      expect(jsonSyntaxErrorOffset(text)).toBe(-1);
    }
  });

  it('finds the offending offset', () => {
    expect(jsonSyntaxErrorOffset('{"a":}')).toBe(5);
    expect(jsonSyntaxErrorOffset('[1,2')).toBe(4);
    expect(jsonSyntaxErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonSyntaxErrorOffset('{"a":1}x')).toBe(7);
    expect(jsonSyntaxErrorOffset('"a\tb"')).toBe(2);
    expect(jsonSyntaxErrorOffset('[01]')).toBe(2);
    expect(jsonSyntaxErrorOffset('"\\x"')).toBe(1);
    expect(jsonSyntaxErrorOffset('')).toBe(0);
  });
});
