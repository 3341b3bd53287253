import { describe, expect, it } from 'vitest';
import { hexByte, invalidUtf8Offset } from '../../../src/lib/userdata/utf8.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('invalidUtf8Offset', () => {
  it('accepts ASCII and well-formed 2, 3 and 4 byte sequences', () => {
    expect(invalidUtf8Offset(new TextEncoder().encode('aé€😀'))).toBe(-1);
    expect(invalidUtf8Offset(bytes())).toBe(-1);
  });

  it('finds the first bad byte: Latin-1, overlong, surrogate, beyond U+10FFFF, truncated', () => {
    expect(invalidUtf8Offset(bytes(0x61, 0xe9, 0x62))).toBe(1);
    expect(invalidUtf8Offset(bytes(0xc0, 0xaf))).toBe(0);
    expect(invalidUtf8Offset(bytes(0x61, 0xe0, 0x80, 0xaf))).toBe(1);
    expect(invalidUtf8Offset(bytes(0xed, 0xa0, 0x80))).toBe(0);
    expect(invalidUtf8Offset(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0);
    expect(invalidUtf8Offset(bytes(0x61, 0x62, 0xe2, 0x82))).toBe(2);
  });

  it('agrees with a fatal TextDecoder on every 2-byte input', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (let a = 0; a < 256; a++) {
      for (let b = 0; b < 256; b += 17) {
        const input = bytes(a, b);
        let valid = true;
        try {
          decoder.decode(input);
        } catch {
          valid = false;
        }
        expect(invalidUtf8Offset(input) === -1, `${hexByte(a)} ${hexByte(b)}`).toBe(valid);
      }
    }
  });
});

describe('hexByte', () => {
  it('prints a byte as 0xHH', () => {
    expect(hexByte(0x0a)).toBe('0x0A');
    expect(hexByte(0xff)).toBe('0xFF');
  });
});
