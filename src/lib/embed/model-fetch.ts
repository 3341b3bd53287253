// The fetch transformers.js uses inside the embed worker (`env.fetch`): each model file's body is
// passed through as it arrives, for the progress bar, but ends in an error unless the whole file
// matches its pin (model-integrity.ts), so nothing unchecked reaches ONNX Runtime or the tokenizer.
// A file that fails is evicted from every cache that may hold it and fetched with `reload` next.
import { checkModelFile, type CheckedModelFile, type ModelFilePin } from './model-integrity.ts';
import { joinBytes } from '../common/bytes.ts';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** CacheStorage as far as this module uses it (the worker's `caches`). */
export interface CacheStore {
  keys(): Promise<string[]>;
  open(name: string): Promise<{ delete(request: string): Promise<boolean> }>;
}

/** Caches that may hold a model file: the service worker's and transformers.js's own. */
const MODEL_CACHE = /^(memlens-|transformers-cache$)/;

function isRangeRequest(init: RequestInit | undefined): boolean {
  return init?.headers !== undefined && new Headers(init.headers).has('range');
}

export class ModelFileGuard {
  /** The files read whole and checked, by path. */
  readonly checked = new Map<string, CheckedModelFile>();
  /** The first file that failed its check in this load. */
  failure: Error | null = null;
  private readonly byUrl: Map<string, ModelFilePin>;

  constructor(
    /** Absolute URL of the model directory, ending in `/`. */
    private readonly baseUrl: string,
    pins: readonly ModelFilePin[],
    private readonly realFetch: FetchLike,
    private readonly caches: CacheStore | null,
    /** What relative request paths resolve against (the worker's location). */
    private readonly origin: string,
    /** URLs that failed a check, in this or an earlier load: fetched with `reload` from then on. */
    private readonly failedUrls = new Set<string>(),
  ) {
    this.byUrl = new Map(pins.map((pin) => [new URL(pin.path, baseUrl).href, pin]));
  }

  /** A second try: forget the last one's results, keep fetching failed files with `reload`. */
  reset(): void {
    this.checked.clear();
    this.failure = null;
  }

  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(String(input), this.origin).href;
    // Range requests only read a file's size; no byte of them reaches the model.
    if (!url.startsWith(this.baseUrl) || isRangeRequest(init)) return this.realFetch(input, init);
    const pin = this.byUrl.get(url);
    if (!pin) {
      return new Response(`${url} is not listed in data/models.json`, {
        status: 404,
        statusText: 'Not a listed model file',
      });
    }
    const cache = this.failedUrls.has(url) ? 'reload' : init?.cache;
    const res = await this.realFetch(url, { ...init, cache });
    return this.verifying(url, res);
  };

  /** The answer, unchanged but for a body that only ends once the whole file is checked. */
  verifying(url: string, res: Response): Response {
    const pin = this.byUrl.get(new URL(url, this.origin).href);
    if (!pin || !res.ok || !res.body) return res;
    const chunks: Uint8Array[] = [];
    let length = 0;
    const contentType = res.headers.get('content-type');
    const check = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        chunks.push(chunk);
        length += chunk.length;
        controller.enqueue(chunk);
      },
      flush: async () => {
        try {
          const file = await checkModelFile(pin, joinBytes(chunks, length), contentType);
          this.checked.set(file.path, file);
        } catch (error) {
          await this.fail(url, error);
          throw error;
        } finally {
          chunks.length = 0;
        }
      },
    });
    return new Response(res.body.pipeThrough(check), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }

  private async fail(url: string, error: unknown): Promise<void> {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
    this.failedUrls.add(url);
    await this.evict(url);
  }

  private async evict(url: string): Promise<void> {
    if (!this.caches) return;
    for (const name of await this.caches.keys()) {
      if (!MODEL_CACHE.test(name)) continue;
      const cache = await this.caches.open(name);
      await cache.delete(url);
    }
  }
}
