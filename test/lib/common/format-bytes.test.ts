import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../src/lib/common/format-bytes.ts';

describe('formatBytes', () => {
  it('counts in binary units and says so', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KiB');
    expect(formatBytes(2048)).toBe('2.0 KiB');
    expect(formatBytes(64 * 1024 * 1024)).toBe('64.0 MiB');
    expect(formatBytes(69_014_137)).toBe('65.8 MiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  });
});
