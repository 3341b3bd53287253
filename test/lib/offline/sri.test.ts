import { describe, expect, it } from 'vitest';
import { importMapText, withIntegrity } from '../../../src/lib/offline/sri.ts';

const HTML = `<head>
    <meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; script-src &#39;self&#39; &#39;wasm-unsafe-eval&#39;">
    <script type="module" crossorigin src="/m/assets/index-a.js"></script>
    <link rel="modulepreload" crossorigin href="/m/assets/b.js">
    <link rel="stylesheet" crossorigin href="/m/assets/index.css">
</head>`;

describe('withIntegrity', () => {
  const integrity = new Map([
    ['/m/assets/index-a.js', 'sha384-AAA'],
    ['/m/assets/b.js', 'sha384-BBB'],
    ['/m/assets/lazy.js', 'sha384-CCC'],
  ]);
  const out = withIntegrity(HTML, integrity, 'sha256-MAP');

  it('puts integrity on the entry and its preloads, not on styles', () => {
    expect(out).toContain(
      '<script type="module" crossorigin src="/m/assets/index-a.js" integrity="sha384-AAA">',
    );
    expect(out).toContain(
      '<link rel="modulepreload" crossorigin href="/m/assets/b.js" integrity="sha384-BBB">',
    );
    expect(out).toContain('<link rel="stylesheet" crossorigin href="/m/assets/index.css">');
  });

  it('lists every chunk in an import map placed before the first module, allowed by its hash', () => {
    const map = `<script type="importmap">${importMapText(integrity)}</script>`;
    expect(out.indexOf(map)).toBeGreaterThan(0);
    expect(out.indexOf(map)).toBeLessThan(out.indexOf('<script type="module"'));
    expect(JSON.parse(importMapText(integrity)).integrity['/m/assets/lazy.js']).toBe('sha384-CCC');
    expect(out).toContain(
      'script-src &#39;self&#39; &#39;sha256-MAP&#39; &#39;wasm-unsafe-eval&#39;',
    );
  });
});
