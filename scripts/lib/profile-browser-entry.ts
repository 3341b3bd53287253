// Browser side of profile:embed. On the page it starts a module worker from this same file; in the
// worker (as the site's embed worker does) it runs onnxruntime-web on WASM with the site's thread
// count, the session optionally profiled: ORT prints its profiler events to the console, caught
// here. `onnxruntime-web/webgpu` stays external: the page serves ORT's own bundle beside this file.
import * as ort from 'onnxruntime-web/webgpu';
import { wasmThreadCount } from '../../src/lib/embed/wasm-threads.ts';
import { feedArrays } from './ort-profile.ts';

export interface PrepareRequest {
  modelUrl: string;
  wasmUrl: string;
  /** Token ids per batch (the plan's batches, in order); the first one also warms up. */
  batches: number[][][];
  padId: number;
  profiling: boolean;
  /** One thread instead of the site's count. */
  oneThread: boolean;
}

export interface Finished {
  crossOriginIsolated: boolean;
  /** env.wasm.numThreads once ORT has started. */
  numThreads: number;
  hardwareConcurrency: number;
  /** What ORT printed during the timed pass (the profiler's events among them). */
  lines: string[];
}

export type ProfileMessage =
  { kind: 'prepare'; req: PrepareRequest } | { kind: 'run' } | { kind: 'finish' };
type Answer = { ok: true; value: unknown } | { ok: false; message: string };

const captured: string[] = [];
let current: { session: ort.InferenceSession; req: PrepareRequest } | null = null;

/** ORT's glue binds console.log when it starts, so this must be in place before. */
function captureConsole(): void {
  console.log = (...args: unknown[]) => void captured.push(args.map(String).join(' '));
}

function feedsOf(rows: number[][], padId: number): Record<string, ort.Tensor> {
  const f = feedArrays(rows, padId);
  return {
    input_ids: new ort.Tensor('int64', f.inputIds, f.dims),
    attention_mask: new ort.Tensor('int64', f.attentionMask, f.dims),
    token_type_ids: new ort.Tensor('int64', f.tokenTypeIds, f.dims),
  };
}

/** A session on the model, one warm-up batch run. */
async function prepare(req: PrepareRequest): Promise<null> {
  captureConsole();
  ort.env.wasm.wasmPaths = { wasm: req.wasmUrl };
  ort.env.wasm.numThreads = req.oneThread ? 1 : wasmThreadCount();
  ort.env.wasm.proxy = false;
  const model = new Uint8Array(await (await fetch(req.modelUrl)).arrayBuffer());
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['wasm'],
    enableProfiling: req.profiling,
  });
  await session.run(feedsOf(req.batches[0], req.padId));
  current = { session, req };
  return null;
}

/** The timed pass over every batch: wall ms. */
async function run(): Promise<number> {
  if (!current) throw new Error('prepare first');
  const { session, req } = current;
  captured.length = 0;
  const start = performance.now();
  for (const rows of req.batches) await session.run(feedsOf(rows, req.padId));
  return performance.now() - start;
}

async function finish(): Promise<Finished> {
  if (!current) throw new Error('prepare first');
  const { session, req } = current;
  current = null;
  if (req.profiling) session.endProfiling();
  await session.release();
  return {
    crossOriginIsolated: globalThis.crossOriginIsolated,
    numThreads: ort.env.wasm.numThreads ?? 0,
    hardwareConcurrency: navigator.hardwareConcurrency,
    lines: captured.splice(0),
  };
}

function handle(message: ProfileMessage): Promise<unknown> {
  if (message.kind === 'prepare') return prepare(message.req);
  return message.kind === 'run' ? run() : finish();
}

function serveWorker(): void {
  self.onmessage = async (event: MessageEvent<ProfileMessage>) => {
    const answer: Answer = await handle(event.data).then(
      (value): Answer => ({ ok: true, value }),
      (error: unknown): Answer => ({ ok: false, message: String(error) }),
    );
    self.postMessage(answer);
  };
}

let worker: Worker | null = null;

function ask(message: ProfileMessage): Promise<unknown> {
  worker ??= new Worker(import.meta.url, { type: 'module', name: 'profile-embed' });
  const w = worker;
  return new Promise((resolve, reject) => {
    w.onerror = (e) => reject(new Error(`profile worker: ${e.message}`));
    w.onmessage = (event: MessageEvent<Answer>) => {
      if (event.data.ok) resolve(event.data.value);
      else reject(new Error(event.data.message));
    };
    w.postMessage(message);
  });
}

declare global {
  var memlensProfile: ((message: ProfileMessage) => Promise<unknown>) | undefined;
}

if (typeof document === 'undefined') serveWorker();
else globalThis.memlensProfile = ask;
