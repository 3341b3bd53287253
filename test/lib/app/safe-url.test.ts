import { describe, expect, it } from 'vitest';
import { safeHttpUrl } from '../../../src/lib/app/safe-url.ts';

describe('safeHttpUrl', () => {
  it('keeps http and https links, normalised', () => {
    expect(safeHttpUrl('https://github.com/snap-research/locomo')).toBe(
      'https://github.com/snap-research/locomo',
    );
    expect(safeHttpUrl('HTTP://Example.org')).toBe('http://example.org/');
  });

  it('refuses scripts, data URLs, relative paths and text', () => {
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(safeHttpUrl('/relative/path')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
  });
});
