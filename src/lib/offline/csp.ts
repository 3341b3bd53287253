// The built site's Content-Security-Policy, one string for the meta tag and the preview server.
// Scripts come only from the site ('wasm-unsafe-eval' lets DuckDB and ONNX Runtime compile their
// wasm; no 'unsafe-eval': Vega runs its expressions through vega-interpreter). Connections go
// to the site, the Hugging Face Hub (used only once the reader allows remote models) and, in a
// build that leaves files upstream, the hosts of their pinned URLs.

/** The Hub and the CDNs its downloads redirect to. */
export const HUB_ORIGINS = [
  'https://huggingface.co',
  'https://*.huggingface.co',
  'https://*.hf.co',
];

export function upstreamOrigins(urls: readonly (string | null)[]): string[] {
  const origins = urls.flatMap((u) => (u ? [new URL(u).origin] : []));
  return [...new Set(origins)].sort();
}

export function contentSecurityPolicy(upstream: readonly string[]): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", "'wasm-unsafe-eval'"]],
    ['worker-src', ["'self'", 'blob:']],
    ['connect-src', ["'self'", ...HUB_ORIGINS, ...upstream]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    // Svelte and Vega set style attributes; no script can come in through them.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['font-src', ["'self'", 'data:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}
