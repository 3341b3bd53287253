// Issue 37.6: the words for a full storage on pack import and for a part of the page whose code
// did not arrive.
import { describe, expect, it } from 'vitest';
import { importFailureMessage } from '../../../src/lib/app/import-failure.ts';
import { partLoadMessage } from '../../../src/lib/app/page-load-error.ts';

describe('a pack import that fails', () => {
  it('says storage is full, with the file size and the site’s use, when the error has no message', () => {
    const quota = new DOMException('', 'QuotaExceededError');
    expect(
      importFailureMessage('lme-tiny.parquet', quota, 65_536, { usage: 20_480, quota: 20_480 }),
    ).toBe(
      'Could not import lme-tiny.parquet: browser storage for this site is full, 20.0 KiB of 20.0 KiB used; the file holds 64.0 KiB. Free space (Clear cache on this page, or remove tables kept on Your data) or allow this site more storage, then import it again.',
    );
    expect(importFailureMessage('a.parquet', quota, null)).toMatch(
      /^Could not import a\.parquet: browser storage for this site is full\. Free space/,
    );
  });

  it('never ends at the colon: an error without a message gives its name', () => {
    expect(importFailureMessage('a.parquet', new Error('not a Parquet file'), 3)).toBe(
      'Could not import a.parquet: not a Parquet file',
    );
    const nameless = new Error('');
    nameless.name = 'AbortError';
    expect(importFailureMessage('a.parquet', nameless, 3)).toBe(
      'Could not import a.parquet: AbortError',
    );
  });
});

describe('a lazily loaded part that did not arrive', () => {
  it("turns the browser's words into which part, why and what to do", () => {
    const chromium = new TypeError(
      'Failed to fetch dynamically imported module: http://127.0.0.1/assets/ConsolePage-abc.js',
    );
    const firefox = new TypeError('error loading dynamically imported module: http://x/a.js');
    const safari = new TypeError('Importing a module script failed.');
    for (const err of [chromium, firefox, safari]) {
      expect(partLoadMessage('The Console page', err)).toBe(
        'The Console page could not be loaded: its code did not arrive intact. The site may have been updated since this tab opened, or the download was corrupted; reload to fetch it again.',
      );
    }
    expect(partLoadMessage('The Console page', new Error('boom'))).toBe(
      'The Console page could not be loaded: boom',
    );
  });
});
