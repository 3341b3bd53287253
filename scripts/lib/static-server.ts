import { createServer, type Server } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

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

/** What a fault-injecting test server does instead of serving a file as it is. */
export type Fault =
  | { kind: 'truncate'; bytes: number }
  | { kind: 'html' }
  | { kind: 'status'; code: number }
  | { kind: 'flip'; offset: number }
  | { kind: 'replace'; from: string; to: string }
  /** Same-origin bytes that never end, as fast as the client reads them. */
  | { kind: 'endless' }
  /** Headers and the first `bytes` of the file, then nothing until the client goes away. */
  | { kind: 'stall'; bytes: number };

/** Chooses a fault for a path relative to the base (e.g. `data/locomo/locomo10.json`), or none. */
export type FaultRule = (rel: string) => Fault | null;

export interface StaticServer {
  origin: string;
  url: string;
  requests: string[];
  /** Changes the faults from the next request on; null serves every file as it is. */
  setFaults(rule: FaultRule | null): void;
  /** Serves another build from the next request on, at the same origin (a redeploy). */
  setRoot(root: string): void;
  close(): Promise<void>;
}

export interface ServeOptions {
  root: string;
  base: string;
  crossOriginIsolated?: boolean;
  /** Hashed `assets/` files get a year's `immutable` caching, as a CDN would serve them. */
  cacheAssets?: boolean;
  /** Text files gzipped for a client that accepts it, as GitHub Pages serves them. */
  gzip?: boolean;
  faults?: FaultRule;
  /** Folders served under a path prefix (e.g. `hub/` → a folder laid out like the Hub's resolve paths). */
  mounts?: Readonly<Record<string, string>>;
}

/** The folder a path is served from: a mount's where its prefix matches, else the build's. */
function rootOf(rel: string, root: string, mounts: ServeOptions['mounts']): [string, string] {
  const prefix = Object.keys(mounts ?? {}).find((p) => rel.startsWith(p));
  return prefix === undefined || !mounts ? [root, rel] : [mounts[prefix], rel.slice(prefix.length)];
}

/** What a static host compresses: text, scripts, JSON and WASM. */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|wasm|x-ndjson|manifest\+json))/;

const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Not here</title></head><body>404</body></html>\n';

function applyFault(bytes: Buffer, fault: Fault): Buffer {
  switch (fault.kind) {
    case 'truncate':
      return bytes.subarray(0, fault.bytes);
    case 'flip': {
      const out = Buffer.from(bytes);
      out[fault.offset] ^= 1;
      return out;
    }
    case 'replace':
      return Buffer.from(bytes.toString('utf8').replace(fault.from, fault.to));
    default:
      return bytes;
  }
}

/** Serves a built site under `base` on 127.0.0.1 (a secure context, as WebGPU requires). */
export async function serveStatic(opts: ServeOptions): Promise<StaticServer> {
  const requests: string[] = [];
  let faults: FaultRule | null = opts.faults ?? null;
  let root = opts.root;
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
    const [dir, inDir] = rootOf(rel, root, opts.mounts);
    const file = path.join(dir, inDir);
    if (!file.startsWith(path.resolve(dir))) {
      res.writeHead(403).end();
      return;
    }
    const fault = faults?.(rel) ?? null;
    if (fault?.kind === 'status') {
      res.writeHead(fault.code, { 'Cache-Control': 'no-store' }).end('fault');
      return;
    }
    if (fault?.kind === 'html') {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.end(HTML_PAGE);
      return;
    }
    if (fault?.kind === 'stall') {
      const bytes = await readFile(file).catch(() => Buffer.from('{"id": 1}\n'));
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
      res.write(bytes.subarray(0, fault.bytes));
      req.on('close', () => res.destroy());
      return;
    }
    if (fault?.kind === 'endless') {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
      const line = Buffer.from(`${JSON.stringify({ id: 1, text: 'x'.repeat(1000) })}\n`.repeat(64));
      const pump = () => {
        while (!res.destroyed && res.write(line));
        if (!res.destroyed) res.once('drain', pump);
      };
      req.on('close', () => res.destroy());
      pump();
      return;
    }
    if (fault) {
      try {
        const body = applyFault(await readFile(file), fault);
        res.writeHead(200, {
          'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream',
          'Content-Length': body.length,
          'Cache-Control': 'no-store',
        });
        res.end(body);
      } catch {
        res.writeHead(404).end('not found');
      }
      return;
    }
    const type = MIME[path.extname(file)] ?? 'application/octet-stream';
    if (
      opts.gzip &&
      COMPRESSIBLE.test(type) &&
      /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
    ) {
      try {
        const body = gzipSync(await readFile(file));
        res.writeHead(200, {
          'Content-Type': type,
          'Content-Encoding': 'gzip',
          'Content-Length': body.length,
          'Cache-Control': 'no-cache',
        });
        res.end(body);
      } catch {
        res.writeHead(404).end('not found');
      }
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
      // A file removed between stat and open (a test swapping builds) ends this response only.
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
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
    setFaults: (rule) => (faults = rule),
    setRoot: (next) => (root = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
