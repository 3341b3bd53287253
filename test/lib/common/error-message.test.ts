import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src/lib/common/error-message.ts';

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
