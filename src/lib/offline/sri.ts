// Subresource integrity for the built page, so a corrupted script never runs, first visit
// included: the entry script and its preloads get `integrity` attributes, and an import map's
// `integrity` table covers every chunk imported later (dynamic imports too). The import map is
// an inline script, so the CSP allows it by its hash. plugin.ts applies this to index.html.

/** `sha384-…` per script URL as the page asks for it (`/memlens/assets/x.js`). */
export type ScriptIntegrity = ReadonlyMap<string, string>;

const TAG = /<(script|link)\b([^>]*?)\s(src|href)="([^"]+)"([^>]*)>/g;

function withAttributes(html: string, integrity: ScriptIntegrity): string {
  return html.replace(
    TAG,
    (tag: string, name: string, before: string, attr: string, url: string, after: string) => {
      const sri = integrity.get(url);
      const isModule =
        /type="module"/.test(before + after) || /rel="modulepreload"/.test(before + after);
      if (!sri || !isModule || /\sintegrity=/.test(tag)) return tag;
      return `<${name}${before} ${attr}="${url}" integrity="${sri}"${after}>`;
    },
  );
}

/** The import map's text: exactly what its CSP hash is computed over. */
export function importMapText(integrity: ScriptIntegrity): string {
  return JSON.stringify({ integrity: Object.fromEntries([...integrity].sort()) });
}

/**
 * index.html with integrity on its module tags, the import map before the first of them, and
 * `script-src` allowing the map by `mapHash` (`sha256-…` of `importMapText`).
 */
export function withIntegrity(html: string, integrity: ScriptIntegrity, mapHash: string): string {
  let out = withAttributes(html, integrity);
  const first = out.search(/<script type="module"|<link rel="modulepreload"/);
  const map = `<script type="importmap">${importMapText(integrity)}</script>\n    `;
  if (first >= 0) out = out.slice(0, first) + map + out.slice(first);
  return out.replace(
    /(script-src (&#39;|')self(&#39;|'))/,
    (m, _all, q: string) => `${m} ${q}${mapHash}${q}`,
  );
}
