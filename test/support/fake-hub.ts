// A 127.0.0.1 stand-in for the Hugging Face Hub's resolve endpoint, answering as the Hub does:
// `/<owner>/<name>/resolve/<revision>/<file>` gives small files 200 with `etag` and
// `x-repo-commit`; LFS files (`*.onnx`) 302 to a CDN path with `x-repo-commit`, `x-linked-etag`
// (the sha256) and `x-linked-size`, and the CDN serves the bytes. Faults are set per file.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export type Fault = 'flip' | 'truncate' | 'cut' | 'offsite' | 'wrong-commit';

export interface HubFile {
  repo: string;
  revision: string;
  path: string;
  bytes: Uint8Array;
  fault?: Fault;
}

export interface FakeHub {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const gitBlobSha1 = (b: Uint8Array) =>
  createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

function served(file: HubFile): Uint8Array {
  if (file.fault === 'flip') {
    const copy = Uint8Array.from(file.bytes);
    copy[copy.length >> 1] ^= 0x01;
    return copy;
  }
  if (file.fault === 'truncate') return file.bytes.subarray(0, file.bytes.length >> 1);
  return file.bytes;
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Hub is not listening');
  return address.port;
}

export async function startFakeHub(files: readonly HubFile[]): Promise<FakeHub> {
  const requests: string[] = [];
  const byResolve = new Map(files.map((f) => [`/${f.repo}/resolve/${f.revision}/${f.path}`, f]));
  const byCdn = new Map(files.map((f) => [`/cdn-lfs/${sha256(f.bytes)}`, f]));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}`);
    const hubFile = byResolve.get(url.pathname);
    const cdnFile = byCdn.get(url.pathname);
    if (hubFile) {
      const commit = hubFile.fault === 'wrong-commit' ? 'f'.repeat(40) : hubFile.revision;
      const headers = { 'x-repo-commit': commit, 'access-control-allow-origin': '*' };
      if (hubFile.path.endsWith('.onnx')) {
        const port = portOf(server);
        const host = hubFile.fault === 'offsite' ? '127.0.0.2' : '127.0.0.1';
        const location = `http://${host}:${port}/cdn-lfs/${sha256(hubFile.bytes)}?X-Amz-Expires=3600`;
        res.writeHead(302, {
          ...headers,
          location,
          etag: `"${sha256(hubFile.bytes)}"`,
          'x-linked-etag': `"${sha256(hubFile.bytes)}"`,
          'x-linked-size': String(hubFile.bytes.length),
          'content-type': 'text/plain; charset=utf-8',
        });
        res.end(`Found. Redirecting to ${location}`);
        return;
      }
      return send(res, hubFile, { ...headers, etag: `"${gitBlobSha1(hubFile.bytes)}"` });
    }
    if (cdnFile) return send(res, cdnFile, { etag: `"${sha256(cdnFile.bytes)}"` });
    res.writeHead(404, { 'content-type': 'text/plain', 'x-error-code': 'EntryNotFound' });
    res.end('Entry not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${portOf(server)}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function send(
  res: import('node:http').ServerResponse,
  file: HubFile,
  headers: Record<string, string>,
): void {
  const body = served(file);
  const length = file.fault === 'cut' ? file.bytes.length : body.length;
  res.writeHead(200, {
    ...headers,
    'content-type': 'application/octet-stream',
    'content-length': String(length),
  });
  if (file.fault === 'cut') {
    res.write(body.subarray(0, body.length >> 1));
    res.destroy();
    return;
  }
  res.end(body);
}
