// A stand-in Hub's tiny-bert with minimal sentence-transformers files, and an in-memory HubStore:
// the Hub model's core tests (hub-model, hub-session) share them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HubDigests, HubDownloadDeps, HubStore } from '../../../src/lib/embed/hub-model.ts';
import { startFakeHub, type FakeHub, type Fault } from '../../support/fake-hub.ts';

export const COMMIT = 'a'.repeat(40);
export const REPO = 'memlens/tiny-st';
export const NAME = `hub:${REPO}@${COMMIT}`;
const TINY = path.resolve(import.meta.dirname, '../../fixtures/models/tiny-bert');
const ST: Record<string, string> = {
  'modules.json': JSON.stringify([
    { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
    { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
    { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
  ]),
  '1_Pooling/config.json': JSON.stringify({
    word_embedding_dimension: 32,
    pooling_mode_cls_token: false,
    pooling_mode_mean_tokens: true,
  }),
  'sentence_bert_config.json': JSON.stringify({ max_seq_length: 128 }),
};
const MODEL = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];

export class MemoryHubStore implements HubStore {
  readonly digestsByBase = new Map<string, HubDigests>();
  readonly files = new Map<string, Blob>();
  async digests(base: string) {
    const d = this.digestsByBase.get(base);
    return d ? structuredClone(d) : null;
  }
  async saveDigests(base: string, digests: HubDigests) {
    this.digestsByBase.set(base, structuredClone(digests));
  }
  async file(base: string, p: string) {
    return this.files.get(`${base}\n${p}`) ?? null;
  }
  async putFile(base: string, p: string, blob: Blob) {
    this.files.set(`${base}\n${p}`, blob);
  }
  async deleteFiles(base: string) {
    for (const key of this.files.keys()) if (key.startsWith(`${base}\n`)) this.files.delete(key);
  }
}

export const hubs: FakeHub[] = [];

export async function startHub(fault?: { path: string; fault: Fault }, revision = COMMIT) {
  const files = [
    ...(await Promise.all(
      MODEL.map(async (p) => ({
        path: p,
        bytes: new Uint8Array(await readFile(path.join(TINY, p))),
      })),
    )),
    ...Object.entries(ST).map(([p, text]) => ({ path: p, bytes: new TextEncoder().encode(text) })),
  ].map((f) => ({
    repo: REPO,
    revision,
    ...f,
    ...(fault?.path === f.path ? { fault: fault.fault } : {}),
  }));
  const hub = await startFakeHub(files);
  hubs.push(hub);
  return { hub, files };
}

export const deps = (hub: string, store: HubStore, extra: Partial<HubDownloadDeps> = {}) => ({
  hub,
  store,
  fetch,
  origin: 'http://memlens.invalid',
  ...extra,
});
