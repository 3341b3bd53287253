import { describe, expect, it } from 'vitest';
import { isQuotaError, storageMessage } from '../../../src/lib/common/storage-error.ts';

describe('storage errors in words', () => {
  it('recognises quota errors by name or message', () => {
    expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError(new Error('Quota exceeded for this origin'))).toBe(true);
    expect(isQuotaError(new Error('disk on fire'))).toBe(false);
    expect(isQuotaError('QuotaExceededError')).toBe(false);
  });

  it("tells the reader what to do when storage is full, else passes the error's message on", () => {
    expect(storageMessage(new DOMException('x', 'QuotaExceededError'), 'vectors')).toBe(
      'browser storage full: vectors could not be saved (free space or allow this site more storage)',
    );
    expect(storageMessage(new Error('IDB closed'), 'vectors')).toBe(
      'vectors could not be saved: IDB closed',
    );
    expect(storageMessage(new DOMException('', 'InvalidStateError'), 'vectors')).toBe(
      'vectors could not be saved: InvalidStateError',
    );
  });
});
