import { createServer, type Server } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.csv': 'text/csv; charset=utf-8',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticServer {
  origin: string;
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export interface ServeOptions {
  root: string;
  base: string;
  crossOriginIsolated?: boolean;
  /** Hashed `assets/` files get a year's `immutable` caching, as a CDN would serve them. */
  cacheAssets?: boolean;
}

/** Serves a built site under `base` on 127.0.0.1 (a secure context, as WebGPU requires). */
export async function serveStatic(opts: ServeOptions): Promise<StaticServer> {
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    if (opts.crossOriginIsolated) {
      res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
      res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    }
    if (!url.pathname.startsWith(opts.base)) {
      res.writeHead(404).end('outside base');
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(opts.base.length));
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.join(opts.root, rel);
    if (!file.startsWith(path.resolve(opts.root))) {
      res.writeHead(403).end();
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      res.writeHead(200, {
        'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': info.size,
        'Cache-Control':
          opts.cacheAssets && rel.startsWith('assets/')
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no port');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    url: `${origin}${opts.base}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
