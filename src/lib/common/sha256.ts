// The one SHA-256: WebCrypto, so the same code runs in pages, workers, the service worker and Node.

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  if (!globalThis.crypto?.subtle) {
    throw new Error(
      'crypto.subtle is unavailable: hashing needs a secure context (https or localhost)',
    );
  }
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : ownBuffer(data);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** WebCrypto refuses views of a SharedArrayBuffer; those are copied. */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes);
}
