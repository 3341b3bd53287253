// The CLI side of a model the reader brings: a local ONNX folder read from disk, or a vector pack
// made by `npm run embed:pack -- --benchmark`. Each becomes a ModelRef (and, for a pack, the
// embedder that answers from it) that a comparison runs like any other retriever.
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { readInputFile } from './input-file.ts';
import path from 'node:path';
import {
  broughtBase,
  broughtLines,
  formatBroughtRef,
  loadBroughtModel,
  MODEL_FILES,
  ONNX_WEIGHTS,
  poolingConfigPath,
  ST_MODULES,
  ST_OPTIONAL,
  type BroughtRef,
  type ModelFolder,
} from '../../src/lib/embed/brought-model.ts';
import type { Embedder } from '../../src/lib/embed/embedder.ts';
import { listModelSpecs, type ModelDtype } from '../../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../../src/lib/embed/model-ref.ts';
import { errorMessage } from '../../src/lib/common/error-message.ts';
import { isHubDigests, type HubDigests } from '../../src/lib/embed/hub-model.ts';
import { readVectorPack } from '../../src/lib/vectors/pack.ts';
import { packModel } from '../../src/lib/vectors/pack-model.ts';
import { sha256Hex } from '../../src/lib/common/sha256.ts';
import { DEFAULT_HUB, downloadHubFile, HubNotFound } from './hub-download.ts';
import { cacheRoot } from './pypi-model.ts';

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
    bytes = await readInputFile(ref.path, 'pack: (a vector pack, .parquet)');
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

/** Where `hub:` references are fetched from, and where their files and digests are kept. */
export interface HubPlace {
  /** The Hub's base URL (`--hub`, MEMLENS_HUB_URL, else https://huggingface.co). */
  hub: string;
  /** Holds `<owner>/<name>/<commit>/…` and `<owner>/<name>/<commit>.sha256.json`. */
  dir: string;
}

export const defaultHubPlace = (): HubPlace => ({
  hub: process.env.MEMLENS_HUB_URL ?? DEFAULT_HUB,
  dir: path.join(cacheRoot(), 'hub'),
});

/** Opens a brought reference; `dtype` is `--dtype`, for a model whose reference names none. */
export async function openBrought(
  ref: BroughtRef,
  dtype: ModelDtype | null,
  hub: HubPlace = defaultHubPlace(),
): Promise<OpenedBrought> {
  if (ref.kind === 'onnx') return openOnnx(ref, dtype);
  if (ref.kind === 'pack') return openPack(ref);
  return openHub(ref, dtype, hub);
}

type HubRef = Extract<BroughtRef, { kind: 'hub' }>;

async function readRecord(file: string): Promise<HubDigests> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  const value: unknown = JSON.parse(text);
  if (!isHubDigests(value)) throw new Error(`${file}: not a record of sha256 digests`);
  return value;
}

async function writeAtomic(file: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.partial`, bytes);
  await rename(`${file}.partial`, file);
}

/**
 * One file of a Hub model: from the local copy, else the Hub. The first download records its
 * sha256 (trust on first use); later, a copy or a download with other bytes is refused by name.
 */
async function hubFile(
  ref: HubRef,
  file: string,
  place: HubPlace,
  record: HubDigests,
  recordFile: string,
): Promise<Uint8Array | null> {
  const local = path.join(place.dir, ref.repo, ref.revision, ...file.split('/'));
  const label = `${broughtBase(ref)} ${file}`;
  const want = record[file];
  const kept = await readFile(local).catch(() => null);
  if (kept) {
    const got = await sha256Hex(kept);
    if (want && got !== want.sha256) {
      throw new Error(
        `${label}: the copy in ${local} has sha256 ${got}, the first download recorded ${want.sha256} (${recordFile}); refused`,
      );
    }
    if (want) return new Uint8Array(kept);
  }
  let bytes: Uint8Array;
  try {
    const request = {
      hub: place.hub,
      repo: ref.repo,
      revision: ref.revision,
      path: file,
      label,
      sha256: want?.sha256 ?? null,
      bytes: want?.bytes,
      pinnedBy: `the first download (${recordFile})`,
    };
    ({ bytes } = await downloadHubFile(request));
  } catch (err) {
    if (err instanceof HubNotFound) return null;
    throw err;
  }
  await writeAtomic(local, bytes);
  record[file] = { sha256: await sha256Hex(bytes), bytes: bytes.length };
  return bytes;
}

/** Downloads (or finds) a Hub model's files at its commit, then reads them as a folder. */
async function openHub(
  ref: HubRef,
  dtype: ModelDtype | null,
  place: HubPlace,
): Promise<OpenedBrought> {
  const base = broughtBase(ref);
  const recordFile = path.join(place.dir, ref.repo, `${ref.revision}.sha256.json`);
  const record = await readRecord(recordFile);
  const firstSeen = new Set(Object.keys(record));
  const fetched = new Map<string, Uint8Array>();
  const take = async (file: string) => {
    const bytes = await hubFile(ref, file, place, record, recordFile);
    if (bytes) fetched.set(file, bytes);
  };
  try {
    for (const file of [...MODEL_FILES, ST_MODULES, ...ST_OPTIONAL]) await take(file);
    const modules = fetched.get(ST_MODULES);
    if (modules) {
      await take(
        poolingConfigPath((p) => (p === ST_MODULES ? new TextDecoder().decode(modules) : null)),
      );
    }
    await take(ONNX_WEIGHTS[ref.dtype ?? dtype ?? 'fp32']);
  } finally {
    if (Object.keys(record).length > firstSeen.size) {
      await writeAtomic(recordFile, `${JSON.stringify(record, null, 2)}\n`);
    }
  }
  const folder: ModelFolder = {
    where: `${base} (${place.hub})`,
    has: async (p) => fetched.has(p),
    read: async (p) => fetched.get(p) ?? null,
  };
  const model = await loadBroughtModel(
    {
      text: formatBroughtRef(ref),
      id: base,
      label: `${ref.repo} @${ref.revision.slice(0, 12)}`,
      folder: path.join(place.dir, ref.repo, ref.revision),
      dtype: ref.dtype ?? dtype,
      upstream: ref.repo,
    },
    folder,
  );
  const fresh = model.files.filter((f) => !firstSeen.has(f.path)).length;
  const where = path.relative(process.cwd(), recordFile);
  const trust =
    fresh === model.files.length
      ? `  digests recorded on first download in ${where}: a later load with other bytes is refused`
      : `  ${model.files.length - fresh} files checked against the digests recorded in ${where}${fresh ? `, ${fresh} recorded now` : ''}`;
  return { ref: model.ref, embedder: null, lines: [...broughtLines(model), trust] };
}
