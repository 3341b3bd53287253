import { describe, expect, it } from 'vitest';
import { storageUsed } from '../../../src/lib/app/storage-estimate.ts';

describe('storage used, in words', () => {
  it('gives usage and quota as the browser estimates them', async () => {
    const storage = { estimate: () => Promise.resolve({ usage: 12_288, quota: 1024 ** 3 }) };
    expect(await storageUsed(storage)).toBe('12.0 KiB of 1.0 GiB');
    expect(await storageUsed({ estimate: () => Promise.resolve({ usage: 10 }) })).toBe('10 B');
  });

  it('is null without an estimate, or when the browser refuses one', async () => {
    expect(await storageUsed(undefined)).toBeNull();
    expect(await storageUsed({ estimate: () => Promise.resolve({}) })).toBeNull();
    expect(await storageUsed({ estimate: () => Promise.reject(new Error('no')) })).toBeNull();
  });
});
