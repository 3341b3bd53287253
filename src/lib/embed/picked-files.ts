// The folders picked in this page (picked-folder.ts reads them), as the embed worker's loads find
// them: kept apart from the reading code so the page's first chunk carries only this lookup.
import type { BroughtModel } from './brought-model.ts';

export interface PickedModel {
  /** `onnx:<folder name>`: the reference in the URL and every row. */
  id: string;
  model: BroughtModel;
  /** The files the model reads, by path: what the worker is given. */
  files: Record<string, Blob>;
}

const picked = new Map<string, PickedModel>();

export function rememberPicked(entry: PickedModel): void {
  picked.set(entry.id, entry);
}

export function pickedModel(id: string): PickedModel | undefined {
  return picked.get(id);
}

/** Every folder picked in this tab, in the order picked. */
export function pickedModels(): PickedModel[] {
  return [...picked.values()];
}

/** Where the worker answers a picked model's files: a path under the site no file is served at. */
export function pickedLoadId(entry: Pick<PickedModel, 'model'>): string {
  return `picked-${entry.model.ref.revision.replace(/^files:/, '').slice(0, 24)}`;
}

/** A picked folder's files answered from their blobs; every other URL goes to `realFetch`. */
export function pickedFetch(
  base: string,
  files: Readonly<Record<string, Blob>>,
  realFetch: typeof fetch,
): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.startsWith(base)) return realFetch(input, init);
    const blob = files[decodeURIComponent(url.slice(base.length))];
    if (!blob) return new Response('not in the picked folder', { status: 404 });
    const headers = { 'content-type': 'application/octet-stream' };
    const range = /^bytes=(\d+)-(\d*)$/.exec(new Headers(init?.headers).get('range') ?? '');
    if (!range)
      return new Response(blob, { headers: { ...headers, 'content-length': String(blob.size) } });
    const start = Number(range[1]);
    const end = range[2] === '' ? blob.size - 1 : Math.min(Number(range[2]), blob.size - 1);
    return new Response(blob.slice(start, end + 1), {
      status: 206,
      headers: { ...headers, 'content-range': `bytes ${start}-${end}/${blob.size}` },
    });
  };
}
