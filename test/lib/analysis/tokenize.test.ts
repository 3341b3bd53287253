import { describe, expect, it } from 'vitest';
import { asciiWordTokens } from '../../../src/lib/analysis/tokenize.ts';

describe('asciiWordTokens', () => {
  it('lowercases and keeps ASCII [a-z0-9]+ runs', () => {
    expect(asciiWordTokens("Hello, World! It's 2023_ok")).toEqual([
      'hello',
      'world',
      'it',
      's',
      '2023',
      'ok',
    ]);
  });

  it('splits on non-ASCII letters and lowercases before matching', () => {
    // 'é' is not in [a-z0-9]; the Kelvin sign U+212A lowercases to ASCII 'k' first.
    expect(asciiWordTokens('Café naïve \u212Aelvin')).toEqual(['caf', 'na', 've', 'kelvin']);
    expect(asciiWordTokens('  ...  ')).toEqual([]);
  });
});
