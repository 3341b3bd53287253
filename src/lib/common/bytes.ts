/** The parts copied, in order, into one fresh buffer (safe to hand on as `.buffer`). */
export function joinBytes(
  parts: readonly Uint8Array[],
  length = parts.reduce((sum, part) => sum + part.length, 0),
): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Like `joinBytes`, but one part comes back as it is, uncopied. */
export function concatBytes(parts: readonly Uint8Array[], length: number): Uint8Array {
  return parts.length === 1 ? parts[0] : joinBytes(parts, length);
}
