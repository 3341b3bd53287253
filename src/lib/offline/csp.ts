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
    // blob: is DuckDB's checked wasm, handed to its worker (db/browser-engine.ts).
    ['connect-src', ["'self'", 'blob:', ...HUB_ORIGINS, ...upstream]],
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

/** The sources a policy's `connect-src` (else `default-src`) allows; null when it sets neither. */
export function connectSources(policy: string): string[] | null {
  const directives = new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map((d) => [d[0].toLowerCase(), d.slice(1)] as const),
  );
  return directives.get('connect-src') ?? directives.get('default-src') ?? null;
}

function sourceAllows(source: string, url: URL, self: string): boolean {
  if (source === "'self'") return url.origin === self;
  const m = /^(https?):\/\/(\*\.)?([^/:]+)(:\d+)?$/.exec(source);
  if (!m) return false;
  const [, scheme, wildcard, host, port] = m;
  if (url.protocol !== `${scheme}:` || (port ?? '') !== (url.port ? `:${url.port}` : '')) {
    return false;
  }
  return wildcard ? url.hostname.endsWith(`.${host}`) : url.hostname === host;
}

/** Whether `connect-src` lets the page fetch `href` (schemes like `blob:` aside). */
export function connectAllowed(sources: readonly string[], href: string, self: string): boolean {
  const url = new URL(href);
  return sources.some((s) => sourceAllows(s, url, self));
}

/** The origins a reader may fetch from, for a message: 'self' named as this site. */
export function describeSources(sources: readonly string[], self: string): string {
  return sources
    .filter((s) => s === "'self'" || /^https?:/.test(s))
    .map((s) => (s === "'self'" ? `${self} (this site)` : s))
    .join(', ');
}
