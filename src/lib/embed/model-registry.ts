// Typed access to data/models.json, the single list of embedding models MemLens knows.
import registryJson from '../../../data/models.json';

export const MODEL_DTYPES = ['fp32', 'fp16', 'q8', 'q4'] as const;
export type ModelDtype = (typeof MODEL_DTYPES)[number];
export type Pooling = 'mean' | 'cls';
export type TextKind = 'query' | 'document';

export interface HubSource {
  kind: 'hub';
  repo: string;
  revision: string;
  revisionNote?: string;
}

export interface LocalSource {
  kind: 'local';
  /** Repository-relative directory holding the model files. */
  path: string;
}

export interface ModelFile {
  /** Relative to the model directory, '/'-separated. */
  path: string;
  /** Present on ONNX weights: the dtype this file serves. Absent: needed for every dtype. */
  dtype?: ModelDtype;
  sha256?: string;
}

export interface ModelSpec {
  id: string;
  label: string;
  source: HubSource | LocalSource;
  dims: number;
  pooling: Pooling;
  normalize: boolean;
  maxTokens: number;
  queryPrefix: string;
  documentPrefix: string;
  dtypes: ModelDtype[];
  files: ModelFile[];
}

type Fields = Record<string, unknown>;

class RegistryError extends Error {
  constructor(where: string, message: string) {
    super(`data/models.json ${where}: ${message}`);
    this.name = 'RegistryError';
  }
}

function asObject(value: unknown, where: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RegistryError(where, 'expected an object');
  }
  return value as Fields;
}

function str(obj: Fields, key: string, where: string): string {
  const value = obj[key];
  if (typeof value !== 'string') throw new RegistryError(where, `"${key}" must be a string`);
  return value;
}

function optionalStr(obj: Fields, key: string, where: string): string | undefined {
  return obj[key] === undefined ? undefined : str(obj, key, where);
}

function bool(obj: Fields, key: string, where: string): boolean {
  const value = obj[key];
  if (typeof value !== 'boolean') throw new RegistryError(where, `"${key}" must be a boolean`);
  return value;
}

function positiveInt(obj: Fields, key: string, where: string): number {
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new RegistryError(where, `"${key}" must be a positive integer`);
  }
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) {
    throw new RegistryError(where, `${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  }
  return match;
}

function parseSource(value: unknown, where: string): HubSource | LocalSource {
  const obj = asObject(value, where);
  const kind = oneOf(obj.kind, ['hub', 'local'] as const, `${where}.kind`);
  if (kind === 'local') return { kind, path: str(obj, 'path', where) };
  const source: HubSource = {
    kind,
    repo: str(obj, 'repo', where),
    revision: str(obj, 'revision', where),
  };
  const note = optionalStr(obj, 'revisionNote', where);
  return note === undefined ? source : { ...source, revisionNote: note };
}

function parseFile(value: unknown, where: string): ModelFile {
  const obj = asObject(value, where);
  const file: ModelFile = { path: str(obj, 'path', where) };
  if (obj.dtype !== undefined) file.dtype = oneOf(obj.dtype, MODEL_DTYPES, `${where}.dtype`);
  const sha256 = optionalStr(obj, 'sha256', where);
  if (sha256 !== undefined) {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new RegistryError(where, 'bad sha256');
    file.sha256 = sha256;
  }
  return file;
}

function list(obj: Fields, key: string, where: string): unknown[] {
  const value = obj[key];
  if (!Array.isArray(value) || value.length === 0) {
    throw new RegistryError(where, `"${key}" must be a non-empty array`);
  }
  return value;
}

function checkDtypeFiles(spec: ModelSpec, where: string): void {
  for (const dtype of spec.dtypes) {
    if (!spec.files.some((file) => file.dtype === dtype)) {
      throw new RegistryError(where, `no file for dtype ${dtype}`);
    }
  }
}

export function parseModelSpec(value: unknown, where = 'model'): ModelSpec {
  const obj = asObject(value, where);
  const spec: ModelSpec = {
    id: str(obj, 'id', where),
    label: str(obj, 'label', where),
    source: parseSource(obj.source, `${where}.source`),
    dims: positiveInt(obj, 'dims', where),
    pooling: oneOf(obj.pooling, ['mean', 'cls'] as const, `${where}.pooling`),
    normalize: bool(obj, 'normalize', where),
    maxTokens: positiveInt(obj, 'maxTokens', where),
    queryPrefix: str(obj, 'queryPrefix', where),
    documentPrefix: str(obj, 'documentPrefix', where),
    dtypes: list(obj, 'dtypes', where).map((d, i) =>
      oneOf(d, MODEL_DTYPES, `${where}.dtypes[${i}]`),
    ),
    files: list(obj, 'files', where).map((f, i) => parseFile(f, `${where}.files[${i}]`)),
  };
  checkDtypeFiles(spec, where);
  return spec;
}

export function parseRegistry(value: unknown): ModelSpec[] {
  const root = asObject(value, 'root');
  if (root.schemaVersion !== 1) throw new RegistryError('root', 'unsupported schemaVersion');
  const specs = list(root, 'models', 'root').map((m, i) => parseModelSpec(m, `models[${i}]`));
  const ids = new Set<string>();
  for (const spec of specs) {
    if (ids.has(spec.id)) throw new RegistryError('root', `duplicate model id "${spec.id}"`);
    ids.add(spec.id);
  }
  return specs;
}

let cached: ModelSpec[] | undefined;

export function listModelSpecs(): ModelSpec[] {
  cached ??= parseRegistry(registryJson);
  return cached;
}

export function getModelSpec(id: string): ModelSpec {
  const spec = listModelSpecs().find((candidate) => candidate.id === id);
  if (!spec) {
    const known = listModelSpecs().map((s) => s.id);
    throw new Error(`Unknown model "${id}" (known: ${known.join(', ')})`);
  }
  return spec;
}

/** The files a loader needs for one dtype: the shared files plus that dtype's weights. */
export function filesForDtype(spec: ModelSpec, dtype: ModelDtype): ModelFile[] {
  if (!spec.dtypes.includes(dtype)) {
    throw new Error(`Model "${spec.id}" has no ${dtype} weights (has: ${spec.dtypes.join(', ')})`);
  }
  return spec.files.filter((file) => file.dtype === undefined || file.dtype === dtype);
}

/**
 * The id transformers.js resolves against `env.localModelPath`: the hub repo for hub models
 * (files laid out as `<root>/<owner>/<name>/…`), the directory name for local models.
 */
export function modelLoadId(spec: ModelSpec): string {
  if (spec.source.kind === 'hub') return spec.source.repo;
  const parts = spec.source.path.split('/').filter(Boolean);
  return parts[parts.length - 1];
}

/** For local models: the repository-relative directory that contains the model directory. */
export function localModelRoot(spec: ModelSpec): string | undefined {
  if (spec.source.kind !== 'local') return undefined;
  return spec.source.path.split('/').filter(Boolean).slice(0, -1).join('/');
}
