import { describe, expect, it } from 'vitest';
import {
  connectAllowed,
  connectSources,
  contentSecurityPolicy,
  describeSources,
  upstreamOrigins,
} from '../../../src/lib/offline/csp.ts';

describe('contentSecurityPolicy', () => {
  it('allows scripts from the site and wasm, never eval, and connects only where it must', () => {
    const policy = contentSecurityPolicy(['https://raw.githubusercontent.com']);
    const directive = (name: string) =>
      policy
        .split('; ')
        .find((d) => d.startsWith(`${name} `))
        ?.slice(name.length + 1);
    expect(directive('default-src')).toBe("'self'");
    expect(directive('script-src')).toBe("'self' 'wasm-unsafe-eval'");
    expect(policy).not.toContain("'unsafe-eval'");
    expect(directive('connect-src')).toBe(
      "'self' blob: https://huggingface.co https://*.huggingface.co https://*.hf.co https://raw.githubusercontent.com",
    );
    expect(directive('object-src')).toBe("'none'");
  });

  it('lists each upstream origin once', () => {
    expect(
      upstreamOrigins([
        'https://raw.githubusercontent.com/a/b',
        null,
        'https://raw.githubusercontent.com/c',
      ]),
    ).toEqual(['https://raw.githubusercontent.com']);
  });
});

describe('what connect-src allows', () => {
  const sources = connectSources(contentSecurityPolicy(['https://raw.githubusercontent.com']));
  const self = 'http://127.0.0.1:4173';

  it('reads connect-src, else default-src', () => {
    expect(sources).toContain("'self'");
    expect(connectSources("default-src 'self'")).toEqual(["'self'"]);
    expect(connectSources('img-src data:')).toBeNull();
  });

  it('tells the site, the Hub and pinned hosts from any other origin', () => {
    const allowed = (href: string) => connectAllowed(sources ?? [], href, self);
    expect(allowed(`${self}/memlens/data/x.json`)).toBe(true);
    expect(allowed('https://cdn-lfs.hf.co/x')).toBe(true);
    expect(allowed('https://raw.githubusercontent.com/a/b')).toBe(true);
    expect(allowed('http://127.0.0.1:4358/leak')).toBe(false);
    expect(allowed('https://evilhf.co/x')).toBe(false);
    expect(describeSources(["'self'", "'unsafe-inline'", 'https://hf.co'], self)).toBe(
      `${self} (this site), https://hf.co`,
    );
  });
});
