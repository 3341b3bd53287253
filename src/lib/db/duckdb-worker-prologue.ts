// What runs in DuckDB's worker before DuckDB's own script (both in one checked blob: URL).

/** A sha256 in hex as the `integrity` value fetch checks: "sha256-<base64>". */
export function sriOfSha256Hex(hex: string): string {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`not a sha256: ${hex.slice(0, 80)}`);
  const bytes = hex.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? [];
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * DuckDB's worker fetches its wasm by URL and compiles it with `instantiateStreaming`, but only
 * once its instantiate message arrives, and a dedicated worker's first messages are handed over
 * by the page's main thread, which is busy drawing the first chart then (0.3–0.5 s measured).
 * The prologue starts that fetch and its compile as the worker starts instead: fetch carries the
 * build's digest as `integrity` (the browser refuses other bytes), DuckDB's own fetch of the wasm
 * gets that response, and its `instantiateStreaming` of it instantiates the module compiled
 * from it. Any other fetch, a later fetch of the wasm, and any other response go through as
 * they are; a failed fetch or compile fails DuckDB's instantiate as it did before, and is thrown
 * in the worker's global scope too, so the page's `error` listener hears of it at once. A browser
 * without streaming compilation gets only the digest on DuckDB's own fetch.
 * `TransformStream` is hidden so that DuckDB hands over fetch's own response, not a copy.
 */
export function duckdbWorkerPrologue(wasmHref: string, integrity: string): string {
  return `(() => {
  const wasm = ${JSON.stringify(wasmHref)};
  const integrity = ${JSON.stringify(integrity)};
  const fetchOwn = self.fetch.bind(self);
  const wa = self.WebAssembly;
  const urlOf = (input) =>
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  // Where the browser cannot compile a stream, DuckDB reads the wasm another way: no early fetch.
  const streams =
    typeof wa?.compileStreaming === 'function' && typeof wa.instantiateStreaming === 'function';
  let early = streams ? fetchOwn(wasm, { credentials: 'same-origin', integrity }) : null;
  const compiled = early?.then((res) => ({ res, module: wa.compileStreaming(res) }));
  // DuckDB's worker hangs on a wasm it cannot instantiate: the page hears of it at once instead.
  compiled
    ?.then(({ module }) => module)
    .catch((err) =>
      self.setTimeout(() => {
        throw new Error(wasm + ' could not be fetched and compiled: ' + (err?.message ?? err));
      }, 0),
    );
  self.fetch = (input, init) => {
    if (urlOf(input) !== wasm) return fetchOwn(input, init);
    const first = early;
    early = null;
    return first ?? fetchOwn(input, { ...init, integrity });
  };
  if (compiled) {
    const instantiateStreaming = wa.instantiateStreaming.bind(wa);
    wa.instantiateStreaming = async (source, imports) => {
      const res = await source;
      const own = await compiled.catch(() => null);
      if (own === null || own.res !== res) return instantiateStreaming(res, imports);
      const module = await own.module;
      return { module, instance: await wa.instantiate(module, imports) };
    };
  }
  self.TransformStream = undefined;
})();
`;
}
