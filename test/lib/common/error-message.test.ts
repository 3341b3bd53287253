import { describe, expect, it } from 'vitest';
import { errorMessage, FileError } from '../../../src/lib/common/error-message.ts';

describe('errorMessage', () => {
  it("takes an Error's message, without its name", () => {
    expect(errorMessage(new TypeError('bad input'))).toBe('bad input');
    expect(errorMessage(new DOMException('gone', 'AbortError'))).toBe('gone');
  });

  it('turns anything else thrown into text', () => {
    expect(errorMessage('plain string')).toBe('plain string');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});

describe('FileError', () => {
  it('names the file first and keeps it, whatever the subclass calls itself', () => {
    class SomeFileError extends FileError {
      override name = 'SomeFileError';
    }
    const err = new SomeFileError('data/a.jsonl', 'line 3: bad JSON');
    expect(err.message).toBe('data/a.jsonl: line 3: bad JSON');
    expect(err.file).toBe('data/a.jsonl');
    expect(err.name).toBe('SomeFileError');
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toBe('SomeFileError: data/a.jsonl: line 3: bad JSON');
  });
});
