// Where the browser loads a model from: the site's own `models/<id>/` first, the Hugging Face Hub
// only when the user allowed it. Decided up front so a missing file is named, not guessed at.
import { filesForDtype, type ModelDtype, type ModelSpec } from './model-registry.ts';

export type ModelLocation =
  | {
      kind: 'site';
      /** The id transformers.js loads: `<localModelPath>/<loadId>/<file>`. */
      loadId: string;
      /**
       * A URL path, not an absolute URL: transformers.js 4.3 skips its local existence check
       * (and so the tokenizer) for http(s) paths, and a relative one would resolve against the
       * worker script.
       */
      localModelPath: string;
    }
  | { kind: 'hub'; loadId: string; revision: string }
  /**
   * A folder the reader picked in the page: its files travel to the worker as blobs and are
   * answered there under a made-up site path, each still checked against its sha256.
   */
  | {
      kind: 'picked';
      loadId: string;
      localModelPath: string;
      /** Where messages say the files are (`onnx:my-model`). */
      where: string;
      /** Path in the folder → its bytes. */
      files: Record<string, Blob>;
    };

export class MissingModelFilesError extends Error {
  constructor(
    readonly modelId: string,
    readonly missing: string[],
    readonly where: string,
    hint: string,
  ) {
    super(`Model "${modelId}" is missing ${missing.join(', ')} in ${where}. ${hint}`);
    this.name = 'MissingModelFilesError';
  }
}

/** A served model this device has not saved, asked for while the page is offline. */
export class OfflineModelError extends Error {
  constructor(
    readonly modelId: string,
    label: string,
  ) {
    super(
      `${label} is not saved on this device, and this page is offline. Go back online: it then ` +
        'loads here (and is kept). To have it offline next time, choose "Save for offline, ' +
        'models included" under the offline status at the top of the page.',
    );
    this.name = 'OfflineModelError';
  }
}

export function siteModelsUrl(siteBase: string): URL {
  return new URL('models/', siteBase);
}

/** Whether the site serves a file: 'html' when it answers with an HTML page instead. */
async function presence(url: URL, fetchImpl: typeof fetch): Promise<'present' | 'absent' | 'html'> {
  try {
    const res = await fetchImpl(url, { method: 'HEAD', cache: 'no-store' });
    if (!res.ok) return 'absent';
    // A dev server's SPA fallback (or a host's 404 page) answers unknown paths with index.html.
    return (res.headers.get('content-type') ?? '').startsWith('text/html') ? 'html' : 'present';
  } catch {
    return 'absent';
  }
}

/** The files of `dtype` that the site does not serve under `models/<id>/`; HTML answers say so. */
export async function missingSiteFiles(
  spec: ModelSpec,
  dtype: ModelDtype,
  siteBase: string,
  fetchImpl: typeof fetch = fetch,
): Promise<string[]> {
  const dir = new URL(`${encodeURIComponent(spec.id)}/`, siteModelsUrl(siteBase));
  const files = filesForDtype(spec, dtype);
  const found = await Promise.all(files.map((f) => presence(new URL(f.path, dir), fetchImpl)));
  return files.flatMap((f, i) => {
    if (found[i] === 'present') return [];
    return [found[i] === 'html' ? `${f.path} (the server answered with an HTML page)` : f.path];
  });
}

export async function locateModel(
  spec: ModelSpec,
  dtype: ModelDtype,
  options: {
    siteBase: string;
    allowRemote: boolean;
    fetchImpl?: typeof fetch;
    /** The page is offline: a missing file means "not saved here", not "not built". */
    offline?: boolean;
  },
): Promise<ModelLocation> {
  const missing = await missingSiteFiles(spec, dtype, options.siteBase, options.fetchImpl);
  if (missing.length > 0 && options.offline) {
    throw new OfflineModelError(spec.id, `${spec.label} (${dtype})`);
  }
  const modelsUrl = siteModelsUrl(options.siteBase);
  if (missing.length === 0) {
    return { kind: 'site', loadId: spec.id, localModelPath: modelsUrl.pathname };
  }
  if (spec.hub && options.allowRemote) {
    return { kind: 'hub', loadId: spec.hub.repo, revision: spec.hub.revision };
  }
  const hint = spec.hub
    ? 'Run `npm run models` before building, or allow downloads from the Hugging Face Hub.'
    : 'Run `npm run models` before building (this model is not on the Hugging Face Hub).';
  throw new MissingModelFilesError(spec.id, missing, `${modelsUrl.href}${spec.id}/`, hint);
}
