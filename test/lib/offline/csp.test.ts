import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, upstreamOrigins } from '../../../src/lib/offline/csp.ts';

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
      "'self' https://huggingface.co https://*.huggingface.co https://*.hf.co https://raw.githubusercontent.com",
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
