import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  allowedRedirect,
  downloadHubFile,
  hubFileUrl,
  HubNotFound,
  HubRefused,
  HubUnreachable,
} from '../../scripts/lib/hub-download.ts';
import { startFakeHub, type FakeHub } from '../support/fake-hub.ts';

const REV = 'c'.repeat(40);
const bytes = new TextEncoder().encode('weights '.repeat(1000));
const small = new TextEncoder().encode('{"a":1}');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
let hub: FakeHub;

beforeAll(async () => {
  hub = await startFakeHub([
    { repo: 'o/m', revision: REV, path: 'onnx/model.onnx', bytes },
    { repo: 'o/m', revision: REV, path: 'config.json', bytes: small },
    { repo: 'o/moved', revision: REV, path: 'config.json', bytes: small, fault: 'wrong-commit' },
  ]);
});
afterAll(() => hub.close());

const req = (path: string, sha256: string | null, repo = 'o/m') => ({
  hub: hub.url,
  repo,
  revision: REV,
  path,
  label: `m/${path}`,
  sha256,
});

describe('one file from the Hub at a pinned commit', () => {
  it('takes a file whose digest is not known yet (a first download), still checking the commit', async () => {
    const got = await downloadHubFile(req('onnx/model.onnx', null));
    expect(sha(got.bytes)).toBe(sha(bytes));
    await expect(downloadHubFile(req('config.json', null, 'o/moved'))).rejects.toThrow(
      `resolved ${REV} to commit ${'f'.repeat(40)}`,
    );
    const pinned = { ...req('config.json', 'e'.repeat(64)), pinnedBy: 'the first download' };
    await expect(downloadHubFile(pinned)).rejects.toThrow('the first download says eeee');
  });

  it('follows the 302 of an LFS file to the CDN path and returns the pinned bytes', async () => {
    const got = await downloadHubFile({
      ...req('onnx/model.onnx', sha(bytes)),
      bytes: bytes.length,
    });
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(got.url).toContain('/cdn-lfs/');
    expect(hub.requests).toContain(`GET /o/m/resolve/${REV}/onnx/model.onnx`);
  });

  it('refuses before the body when x-linked-etag announces another sha256', async () => {
    const before = hub.requests.length;
    const err = await downloadHubFile(req('onnx/model.onnx', 'd'.repeat(64))).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HubRefused);
    expect(String(err)).toContain(`m/onnx/model.onnx: sha256 ${sha(bytes)} announced by`);
    expect(String(err)).toContain(`data/models.json says ${'d'.repeat(64)}`);
    expect(hub.requests.slice(before).some((r) => r.includes('/cdn-lfs/'))).toBe(false);
  });

  it('refuses a small file with other bytes, and a revision that resolved to another commit', async () => {
    await expect(downloadHubFile(req('config.json', 'e'.repeat(64)))).rejects.toThrow(
      `m/config.json: sha256 ${sha(small)} from ${hubFileUrl(hub.url, 'o/m', REV, 'config.json')}`,
    );
    await expect(downloadHubFile(req('config.json', sha(small), 'o/moved'))).rejects.toThrow(
      `resolved ${REV} to commit ${'f'.repeat(40)}`,
    );
  });

  it('calls a 404 a refusal (of its own kind) and a closed port unreachable', async () => {
    await expect(downloadHubFile(req('nope.json', sha(small)))).rejects.toBeInstanceOf(HubRefused);
    await expect(downloadHubFile(req('nope.json', null))).rejects.toBeInstanceOf(HubNotFound);
    const closed = await startFakeHub([]);
    await closed.close();
    const err = await downloadHubFile({ ...req('config.json', sha(small)), hub: closed.url }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HubUnreachable);
  });

  it("redirects only to the Hub's own host, or on the real Hub to its CDNs over https", () => {
    expect(allowedRedirect('http://127.0.0.1:5000', new URL('http://127.0.0.1:5000/x'))).toBe(true);
    expect(allowedRedirect('http://127.0.0.1:5000', new URL('http://127.0.0.2:5000/x'))).toBe(
      false,
    );
    const real = 'https://huggingface.co';
    expect(allowedRedirect(real, new URL('https://cas-bridge.xethub.hf.co/x'))).toBe(true);
    expect(allowedRedirect(real, new URL('https://cdn-lfs.huggingface.co/x'))).toBe(true);
    expect(allowedRedirect(real, new URL('http://cdn-lfs.hf.co/x'))).toBe(false);
    expect(allowedRedirect(real, new URL('https://evil.example/x.hf.co'))).toBe(false);
  });
});
