import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';

describe('sha256Hex', () => {
  it('hashes a string as its UTF-8 (known vectors)', async () => {
    expect(await sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await sha256Hex('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    const text = 'naïve café ☕';
    expect(await sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('hashes only the bytes a view covers, not the whole buffer under it', async () => {
    const whole = new TextEncoder().encode('xxabcxx');
    expect(await sha256Hex(whole.subarray(2, 5))).toBe(await sha256Hex('abc'));
  });

  it('hashes a view of a SharedArrayBuffer (which WebCrypto refuses) by copying it', async () => {
    const shared = new Uint8Array(new SharedArrayBuffer(3));
    shared.set([0x61, 0x62, 0x63]);
    expect(await sha256Hex(shared)).toBe(await sha256Hex('abc'));
  });
});
