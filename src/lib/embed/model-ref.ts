// The one reference to a model that every caller passes on unchanged: the picker, the URL and the
// CLI give a string, `parseModelRef` looks the model up in the registry (once) and checks the rest;
// the embedder hub, the worker, the vector-cache key, the packs and the published rows read it.
import { DEVICE_CHOICES, type DeviceChoice } from './backend-choice.ts';
import {
  listModelSpecs,
  MODEL_DTYPES,
  modelRevision,
  type ModelDtype,
  type ModelSpec,
} from './model-registry.ts';

/** Where the model runs: a browser device choice, or onnxruntime-node in the CLI. */
export type ModelBackend = DeviceChoice | 'node';
export const MODEL_BACKENDS: readonly ModelBackend[] = [...DEVICE_CHOICES, 'node'];

/**
 * Where the weights may come from: the site's (or the machine's) copy only, or also the Hugging
 * Face Hub's pinned commit when that copy is missing. Off unless the user opts in.
 */
export type ModelRefSource = 'site' | 'hub';

export interface ModelRef {
  readonly id: string;
  readonly source: ModelRefSource;
  /** The weights the registry pins: `sha256:<hex>` of the served file, else `<repo>@<commit>`. */
  readonly revision: string;
  readonly dtype: ModelDtype;
  readonly backend: ModelBackend;
  /** The registry entry, looked up once by the parser (structured-clonable, for the worker). */
  readonly spec: ModelSpec;
}

/** What the string leaves out: the model's first dtype, `auto`, the site's copy. */
export interface ModelRefDefaults {
  dtype?: ModelDtype;
  backend?: ModelBackend;
  source?: ModelRefSource;
}

/** Bad input, named: where it came from, the text, and what is wrong with it. */
export class ModelRefError extends Error {
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
    this.name = 'ModelRefError';
  }
}

/** `id[:dtype][@backend][+hub]`, e.g. `minilm`, `bge-small:q8@wasm`, `minilm:fp32@auto+hub`. */
const GRAMMAR = /^([A-Za-z0-9][\w.-]*)(?::([^@+]*))?(?:@([^+]*))?(\+hub)?$/;
const FORM = 'id[:dtype][@backend][+hub]';

function pick<T extends string>(value: string, allowed: readonly T[]): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/** The reference for a registry entry the caller already holds (a picker's list). */
export function refOfSpec(spec: ModelSpec, defaults: ModelRefDefaults = {}): ModelRef {
  const dtype = defaults.dtype ?? spec.dtypes[0];
  if (!spec.dtypes.includes(dtype)) {
    throw new Error(`Model "${spec.id}" has no ${dtype} weights (has: ${spec.dtypes.join(', ')})`);
  }
  return {
    id: spec.id,
    source: defaults.source ?? 'site',
    revision: modelRevision(spec, dtype),
    dtype,
    backend: defaults.backend ?? 'auto',
    spec,
  };
}

/** The registry entry for `id`, or an error that names the known ones. */
function specOf(id: string, where: string, specs: readonly ModelSpec[]): ModelSpec {
  const spec = specs.find((candidate) => candidate.id === id);
  if (spec) return spec;
  const known = specs.map((s) => s.id).join(', ');
  throw new ModelRefError(where, `Unknown model "${id}" (known: ${known})`);
}

function checkDtype(spec: ModelSpec, dtype: ModelDtype | undefined, where: string): void {
  if (dtype !== undefined && !spec.dtypes.includes(dtype)) {
    throw new ModelRefError(
      where,
      `${spec.id} has no ${dtype} weights (has: ${spec.dtypes.join(', ')})`,
    );
  }
}

/**
 * The reference for a model id already read (a retriever reference's): the registry lookup and
 * the dtype check of `parseModelRef`, with the same errors, and no text to parse again.
 */
export function resolveModelRef(id: string, defaults: ModelRefDefaults, where: string): ModelRef {
  const spec = specOf(id, where, listModelSpecs());
  checkDtype(spec, defaults.dtype, where);
  return refOfSpec(spec, defaults);
}

/**
 * Parses untrusted text (a URL parameter, a picker's value, a CLI flag); `where` names it in the
 * error. Parts the text gives win over `defaults`.
 */
export function parseModelRef(
  text: string,
  defaults: ModelRefDefaults = {},
  where = 'model',
  specs: readonly ModelSpec[] = listModelSpecs(),
): ModelRef {
  const match = GRAMMAR.exec(text.trim());
  const quoted = JSON.stringify(text);
  if (!match) throw new ModelRefError(where, `${quoted} is not a model reference (${FORM})`);
  const [, id, dtypeText, backendText, hub] = match;
  const spec = specOf(id, where, specs);
  const dtype = dtypeText === undefined ? defaults.dtype : pick(dtypeText, MODEL_DTYPES);
  if (dtypeText !== undefined && dtype === undefined) {
    throw new ModelRefError(where, `${quoted}: dtype must be one of ${MODEL_DTYPES.join(', ')}`);
  }
  checkDtype(spec, dtype, where);
  const backend = backendText === undefined ? defaults.backend : pick(backendText, MODEL_BACKENDS);
  if (backend === undefined && backendText !== undefined) {
    throw new ModelRefError(
      where,
      `${quoted}: backend must be one of ${MODEL_BACKENDS.join(', ')}`,
    );
  }
  const source = hub ? 'hub' : defaults.source;
  return refOfSpec(spec, { dtype, backend, source });
}

/** The full string form; `parseModelRef(formatModelRef(ref))` gives `ref` back. */
export function formatModelRef(ref: ModelRef): string {
  return `${ref.id}:${ref.dtype}@${ref.backend}${ref.source === 'hub' ? '+hub' : ''}`;
}

/** The device a browser load asks for; a Node reference is refused by name. */
export function browserDevice(ref: ModelRef): DeviceChoice {
  if (ref.backend === 'node') throw new Error(`${formatModelRef(ref)} runs in Node, not in a page`);
  return ref.backend;
}
