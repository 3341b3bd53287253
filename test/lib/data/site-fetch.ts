import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SITE = 'http://memlens.test/';

/** Serves the repo's `public/` folder (and `data/results`) the way the static site would. */
export function siteFetch(overrides: Record<string, (bytes: Buffer) => Buffer> = {}): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    );
    if (url.origin !== new URL(SITE).origin) return new Response('offline', { status: 599 });
    const rel = url.pathname.replace(/^\//, '');
    const file =
      rel.startsWith('data/results/') || rel.startsWith('data/reproduced/')
        ? path.join(repoRoot, rel)
        : path.join(repoRoot, 'public', rel);
    try {
      const bytes = await readFile(file);
      const patch = overrides[rel];
      return new Response(new Uint8Array(patch ? patch(bytes) : bytes), { status: 200 });
    } catch {
      return new Response('not found', { status: 404 });
    }
  }) as typeof fetch;
}
