// The CLI side of a model the reader brings: a local ONNX folder read from disk, or a vector pack
// made by `npm run embed:pack -- --benchmark`. Each becomes a ModelRef (and, for a pack, the
// embedder that answers from it) that a comparison runs like any other retriever.
import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  broughtBase,
  broughtLines,
  formatBroughtRef,
  loadBroughtModel,
  type BroughtRef,
  type ModelFolder,
} from '../../src/lib/embed/brought-model.ts';
import type { Embedder } from '../../src/lib/embed/embedder.ts';
import { listModelSpecs, type ModelDtype } from '../../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../../src/lib/embed/model-ref.ts';
import { errorMessage } from '../../src/lib/common/error-message.ts';
import { readVectorPack } from '../../src/lib/vectors/pack.ts';
import { packModel } from '../../src/lib/vectors/pack-model.ts';

/** A brought retriever, opened: its reference, the embedder a pack answers with, what to print. */
export interface OpenedBrought {
  ref: ModelRef;
  /** A pack's vectors; null: the model runs on onnxruntime-node. */
  embedder: Embedder | null;
  lines: string[];
}

/** A folder on disk as a brought model's files; a missing file reads as null. */
export function diskFolder(dir: string): ModelFolder {
  const full = (p: string) => path.join(dir, ...p.split('/'));
  return {
    where: dir,
    has: async (p) => (await stat(full(p)).catch(() => null))?.isFile() ?? false,
    read: async (p) => {
      try {
        return new Uint8Array(await readFile(full(p)));
      } catch (err) {
        if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}

async function openOnnx(
  ref: Extract<BroughtRef, { kind: 'onnx' }>,
  dtype: ModelDtype | null,
): Promise<OpenedBrought> {
  const dir = path.resolve(ref.path);
  if (!(await stat(dir).catch(() => null))?.isDirectory()) {
    throw new Error(`${formatBroughtRef(ref)}: ${dir} is not a folder`);
  }
  const model = await loadBroughtModel(
    {
      text: formatBroughtRef(ref),
      id: broughtBase(ref),
      label: `${path.basename(dir)} (ONNX folder)`,
      folder: dir,
      dtype: ref.dtype ?? dtype,
    },
    diskFolder(dir),
  );
  return { ref: model.ref, embedder: null, lines: broughtLines(model) };
}

async function openPack(ref: Extract<BroughtRef, { kind: 'pack' }>): Promise<OpenedBrought> {
  const name = formatBroughtRef(ref);
  let bytes: Buffer;
  try {
    bytes = await readFile(path.resolve(ref.path));
  } catch (err) {
    throw new Error(`${name}: ${errorMessage(err)}`);
  }
  let rows;
  try {
    rows = await readVectorPack(new Uint8Array(bytes).buffer);
  } catch (err) {
    throw new Error(`${name}: ${errorMessage(err)}`);
  }
  const pack = packModel(rows, name, listModelSpecs());
  const kinds = Object.entries(pack.scopes).map(
    ([k, s]) => `${k} prefix ${JSON.stringify(s.prefix)}`,
  );
  return {
    ref: pack.ref,
    embedder: pack.embedder,
    lines: [
      `${name}: ${pack.rows} vectors of ${pack.ref.spec.label}, ${pack.ref.spec.dims} dims, revision ${pack.ref.revision}, ${kinds.join(', ')}`,
    ],
  };
}

/** Opens a brought reference; `dtype` is `--dtype`, for a model whose reference names none. */
export async function openBrought(
  ref: BroughtRef,
  dtype: ModelDtype | null,
): Promise<OpenedBrought> {
  if (ref.kind === 'onnx') return openOnnx(ref, dtype);
  if (ref.kind === 'pack') return openPack(ref);
  throw new Error(`${formatBroughtRef(ref)}: Hub models are not supported by this command yet`);
}
