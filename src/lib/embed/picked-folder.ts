// A transformers.js feature-extraction export the reader picks in the page (`<input type=file
// webkitdirectory>`): read and digested exactly as the CLI's `onnx:PATH` (brought-model.ts), its
// files kept as blobs that the embed worker answers from, each checked against its sha256 there.
// A page cannot reopen a folder, so a picked model lives until the tab closes.
import { loadBroughtModel, type ModelFolder } from './brought-model.ts';
import type { DeviceChoice } from './backend-choice.ts';
import type { ModelRef } from './model-ref.ts';
import { rememberPicked, type PickedModel } from './picked-files.ts';

/** One file of the picked folder: its path inside the folder and its bytes. */
export interface PickedFile {
  path: string;
  blob: Blob;
}

/** `my-model/onnx/model.onnx` (a webkitRelativePath) → the folder's name and `onnx/model.onnx`. */
export function splitRelative(relative: string): { folder: string; path: string } {
  const parts = relative.split('/').filter((p) => p !== '');
  if (parts.length < 2) throw new Error(`${relative}: not inside a picked folder`);
  return { folder: parts[0], path: parts.slice(1).join('/') };
}

/** Reads and digests a picked folder; the model is then found by its reference. */
export async function pickFolder(
  folderName: string,
  files: readonly PickedFile[],
): Promise<PickedModel> {
  if (!/^[\w.-]{1,120}$/.test(folderName)) {
    throw new Error(`"${folderName.slice(0, 120)}": use a folder name of letters, digits, . _ -`);
  }
  const id = `onnx:${folderName}`;
  const byPath = new Map(files.map((f) => [f.path, f.blob]));
  const folder: ModelFolder = {
    where: id,
    has: async (p) => byPath.has(p),
    read: async (p) => {
      const blob = byPath.get(p);
      return blob ? new Uint8Array(await blob.arrayBuffer()) : null;
    },
  };
  const model = await loadBroughtModel(
    { text: id, id, label: `${folderName} (ONNX folder)`, folder: folderName, dtype: null },
    folder,
  );
  const read = Object.fromEntries(
    model.files.flatMap((f) => {
      const blob = byPath.get(f.path);
      return blob ? [[f.path, blob] as const] : [];
    }),
  );
  const entry = { id, model, files: read };
  rememberPicked(entry);
  return entry;
}

/** The picked model's reference, run on the page's device. */
export function pickedModelRef(entry: PickedModel, device: DeviceChoice): ModelRef {
  return { ...entry.model.ref, backend: device };
}
