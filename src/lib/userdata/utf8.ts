/** Offset of the first byte that breaks UTF-8 (overlongs and surrogates included), or -1. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    const extra = sequenceLength(lead) - 1;
    if (extra < 1 || i + extra >= bytes.length) return i;
    const second = bytes[i + 1];
    if (
      (lead === 0xe0 && second < 0xa0) ||
      (lead === 0xed && second >= 0xa0) ||
      (lead === 0xf0 && second < 0x90) ||
      (lead === 0xf4 && second >= 0x90)
    ) {
      return i;
    }
    for (let k = 1; k <= extra; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += extra + 1;
  }
  return -1;
}

function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

export function hexByte(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}
