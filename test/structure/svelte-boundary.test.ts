// Pages and components render and wire: they read DuckDB only through useQuery, never through
// src/lib/db or the Catalog (writes are the app layer's named commands), and no query row is cast
// to a type it was not checked against.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;

function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => path.join(e.parentPath, e.name));
}

const svelte = files(SRC, '.svelte');
const rel = (f: string) => path.relative(SRC, f);
/** `catalog`, `.catalog`, `Catalog` in any case; the query module `catalog-queries.ts` is allowed. */
const CATALOG = /\bcatalog\b(?!-queries\.ts)/i;

describe('the Svelte layer', () => {
  it('has Svelte files to check', () => {
    expect(svelte.length).toBeGreaterThan(20);
  });

  it('never imports src/lib/db', () => {
    const offenders = svelte.filter((f) => /from\s+'[^']*lib\/db\//.test(readFileSync(f, 'utf8')));
    expect(offenders.map(rel)).toEqual([]);
  });

  it('never calls .query( or .count( itself', () => {
    const offenders = svelte.filter((f) => /\.(query|count)\(/.test(readFileSync(f, 'utf8')));
    expect(offenders.map(rel)).toEqual([]);
  });

  it('never holds or calls the Catalog: no services.catalog, no Catalog type, no catalog variable', () => {
    const ui = [...svelte, ...files(path.join(SRC, 'pages'), '.ts')];
    const offenders = ui.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (CATALOG.test(line) ? [`${rel(f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it("makes no run, session or service itself: the app layer's composition roots do", () => {
    const made = /\bnew\s+(\w*(Run|Session|Services|Packs|Hub\w*|Store))\b/;
    // PickedPacks is a holder of the files the reader picked in this view, not a service.
    const offenders = svelte.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => {
          const hit = made.exec(line);
          return hit && hit[1] !== 'PickedPacks' ? [`${rel(f)}:${i + 1}: ${line.trim()}`] : [];
        }),
    );
    expect(offenders).toEqual([]);
  });

  it('never runs a query on the QueryClient itself (useQuery does)', () => {
    const offenders = svelte.filter((f) => /\bqueries\s*\.\s*run\(/.test(readFileSync(f, 'utf8')));
    expect(offenders.map(rel)).toEqual([]);
  });

  it('casts no query rows: no asData anywhere, no `as unknown as` where rows are read', () => {
    const ts = files(SRC, '.ts');
    const readsRows = (text: string) => /useQuery|defineQuery|rowSchema|SqlRow/.test(text);
    const offenders = [...svelte, ...ts].filter((f) => {
      const text = readFileSync(f, 'utf8');
      return /\basData\b/.test(text) || (readsRows(text) && /as unknown as/.test(text));
    });
    expect(offenders.map(rel)).toEqual([]);
  });
});
