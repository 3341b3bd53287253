// What runs in DuckDB's worker before DuckDB's own script (both in one checked blob: URL).

/** A sha256 in hex as the `integrity` value fetch checks: "sha256-<base64>". */
export function sriOfSha256Hex(hex: string): string {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`not a sha256: ${hex.slice(0, 80)}`);
  const bytes = hex.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? [];
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * DuckDB's worker fetches its wasm by URL and compiles it with `instantiateStreaming`. The
 * prologue makes that fetch carry the build's digest as `integrity`, so the browser refuses any
 * other bytes, and hides `TransformStream`: where it exists DuckDB wraps the response in a
 * progress stream, a synthetic Response, and Chromium keeps compiled wasm beside the HTTP cache
 * entry only for fetch's own response. With both, a warm start skips compiling the 34 MB wasm.
 */
export function duckdbWorkerPrologue(wasmHref: string, integrity: string): string {
  return `(() => {
  const wasm = ${JSON.stringify(wasmHref)};
  const integrity = ${JSON.stringify(integrity)};
  const fetchOwn = self.fetch.bind(self);
  self.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url === wasm ? fetchOwn(input, { ...init, integrity }) : fetchOwn(input, init);
  };
  self.TransformStream = undefined;
})();
`;
}
