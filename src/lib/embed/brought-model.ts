// A model the reader brings: a Hub repository at a commit, a local ONNX folder (a transformers.js
// feature-extraction export), or a vector pack. The references are untrusted text, parsed here
// only; a model's pooling, normalisation, length and prefixes are read from its
// sentence-transformers files, never guessed, and its reference carries the digest of its files.
import { parseJsonFile, tokenizerProblem } from './brought-checks.ts';
import { MODEL_DTYPES, type ModelDtype, type ModelFile, type ModelSpec } from './model-registry.ts';
import type { ModelRef } from './model-ref.ts';
import { sha256Hex } from '../common/sha256.ts';

export type BroughtRef =
  | { kind: 'hub'; repo: string; revision: string; dtype: ModelDtype | null }
  | { kind: 'onnx'; path: string; dtype: ModelDtype | null }
  | { kind: 'pack'; path: string };

export const BROUGHT_FORMS = 'hub:OWNER/NAME@COMMIT[:DTYPE], onnx:PATH[:DTYPE] or pack:FILE';

export class BroughtRefError extends Error {
  override name = 'BroughtRefError';
}

const HUB_REPO = /^([A-Za-z0-9][\w.-]{0,95})\/([A-Za-z0-9][\w.-]{0,95})$/;
const COMMIT = /^[0-9a-f]{40}$/;
const DTYPE_SUFFIX = new RegExp(`:(${MODEL_DTYPES.join('|')})$`);

function dtypeSuffix(text: string): { rest: string; dtype: ModelDtype | null } {
  const match = DTYPE_SUFFIX.exec(text);
  const dtype = MODEL_DTYPES.find((d) => d === match?.[1]);
  return dtype === undefined
    ? { rest: text, dtype: null }
    : { rest: text.slice(0, -dtype.length - 1), dtype };
}

function checkPath(text: string, quoted: string): string {
  if (text === '') throw new BroughtRefError(`${quoted}: the path is empty`);
  if (text.length > 1000) throw new BroughtRefError(`${quoted}: the path is over 1000 characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) {
    throw new BroughtRefError(`${quoted}: the path has control characters`);
  }
  return text;
}

function checkRevision(revision: string, quoted: string): string {
  if (COMMIT.test(revision)) return revision;
  if (/^[0-9a-fA-F]{7,39}$/.test(revision)) {
    throw new BroughtRefError(
      `${quoted}: "${revision}" is a short hash: give the full 40-hex commit, which cannot move`,
    );
  }
  if (/^[0-9A-F]{40}$/i.test(revision)) {
    throw new BroughtRefError(`${quoted}: write the commit "${revision}" in lower case`);
  }
  throw new BroughtRefError(
    `${quoted}: "${revision}" is a branch or tag, not a commit: give the full 40-hex commit (the repository's history lists it), so the weights cannot move`,
  );
}

function parseHub(body: string, quoted: string): BroughtRef {
  const { rest, dtype } = dtypeSuffix(body);
  const at = rest.lastIndexOf('@');
  if (at < 0) {
    throw new BroughtRefError(`${quoted}: expected hub:OWNER/NAME@COMMIT (a 40-hex commit)`);
  }
  const repo = rest.slice(0, at);
  if (!HUB_REPO.test(repo) || repo.includes('..')) {
    throw new BroughtRefError(`${quoted}: "${repo}" is not a Hub repository (OWNER/NAME)`);
  }
  return { kind: 'hub', repo, revision: checkRevision(rest.slice(at + 1), quoted), dtype };
}

/** Null when `text` names no brought model (`bm25`, a registry id); else the reference, checked. */
export function parseBroughtRef(text: string): BroughtRef | null {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const scheme = colon < 0 ? '' : trimmed.slice(0, colon);
  const body = trimmed.slice(colon + 1);
  const quoted = JSON.stringify(trimmed.slice(0, 200));
  if (scheme === 'hub') return parseHub(body, quoted);
  if (scheme === 'onnx') {
    const { rest, dtype } = dtypeSuffix(body);
    return { kind: 'onnx', path: checkPath(rest, quoted), dtype };
  }
  if (scheme === 'pack') return { kind: 'pack', path: checkPath(body, quoted) };
  return null;
}

/** The text form; `parseBroughtRef(formatBroughtRef(ref))` gives `ref` back. */
export function formatBroughtRef(ref: BroughtRef): string {
  if (ref.kind === 'pack') return `pack:${ref.path}`;
  const dtype = ref.dtype === null ? '' : `:${ref.dtype}`;
  if (ref.kind === 'hub') return `hub:${ref.repo}@${ref.revision}${dtype}`;
  return `onnx:${ref.path}${dtype}`;
}

/** Without the dtype: the reference a model's files are found by. */
export function broughtBase(ref: BroughtRef): string {
  return formatBroughtRef(ref.kind === 'pack' ? ref : { ...ref, dtype: null });
}

/** The weights file transformers.js reads for each dtype (its `model{suffix}.onnx` naming). */
export const ONNX_WEIGHTS: Readonly<Record<ModelDtype, string>> = {
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
  q4: 'onnx/model_q4.onnx',
};

/** What transformers.js needs besides the weights, and what sentence-transformers says. */
export const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
export const ST_MODULES = 'modules.json';
export const ST_OPTIONAL = [
  'sentence_bert_config.json',
  'config_sentence_transformers.json',
] as const;

/** How sentence-transformers embeds with this model, and which file said each part. */
export interface SentenceTransformersConfig {
  pooling: 'mean' | 'cls';
  normalize: boolean;
  maxTokens: number;
  queryPrefix: string;
  documentPrefix: string;
  dims: number;
  /** Every file read, relative to the model folder. */
  files: string[];
  /** One line per setting: its value and the file and field it came from. */
  sources: string[];
}

type Json = Record<string, unknown>;
/** A file's text, or null where the folder has none. */
export type ReadText = (path: string) => string | null;

function jsonObject(read: ReadText, file: string, required: boolean): Json | null {
  const text = read(file);
  if (text === null) {
    if (required) throw new Error(`${file} is missing: a sentence-transformers export has it`);
    return null;
  }
  const value = parseJsonFile(text, file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${file}: expected a JSON object`);
  }
  return value as Json;
}

function modulesOf(read: ReadText): { type: string; path: string }[] {
  const text = read(ST_MODULES);
  if (text === null) {
    throw new Error(
      `${ST_MODULES} is missing: MemLens reads pooling and normalisation from the sentence-transformers files, it does not guess them`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `${ST_MODULES}: not JSON (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  if (!Array.isArray(value)) throw new Error(`${ST_MODULES}: expected a list of modules`);
  return value.map((m: unknown, i) => {
    const obj = typeof m === 'object' && m !== null ? (m as Json) : {};
    if (typeof obj.type !== 'string' || typeof obj.path !== 'string') {
      throw new Error(`${ST_MODULES}[${i}]: "type" and "path" must be strings`);
    }
    if (obj.path.split('/').includes('..') || obj.path.startsWith('/')) {
      throw new Error(`${ST_MODULES}[${i}]: path "${obj.path}" leaves the model folder`);
    }
    return { type: obj.type, path: obj.path };
  });
}

const kindOf = (type: string) => type.split('.').pop() ?? type;

function poolingOf(config: Json, file: string): 'mean' | 'cls' {
  const on = Object.entries(config)
    .filter(([key, value]) => key.startsWith('pooling_mode_') && value === true)
    .map(([key]) => key);
  const known: Record<string, 'mean' | 'cls'> = {
    pooling_mode_mean_tokens: 'mean',
    pooling_mode_cls_token: 'cls',
  };
  if (on.length !== 1 || known[on[0]] === undefined) {
    throw new Error(
      `${file}: ${on.length === 0 ? 'no pooling mode is on' : `${on.join(' + ')} on`}; MemLens pools by pooling_mode_mean_tokens or pooling_mode_cls_token, one of them`,
    );
  }
  return known[on[0]];
}

function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function prompt(prompts: Json, names: readonly string[]): { name: string; text: string } | null {
  for (const name of names) {
    const text = prompts[name];
    if (typeof text === 'string') return { name, text };
  }
  return null;
}

function prefixesOf(config: Json | null, file: string, sources: string[]): [string, string] {
  const raw = config?.prompts;
  const prompts =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Json) : {};
  const fallback =
    typeof config?.default_prompt_name === 'string' ? [config.default_prompt_name] : [];
  // sentence-transformers' encode_query / encode_document look these names up in this order.
  const query = prompt(prompts, ['query', ...fallback]);
  const document = prompt(prompts, ['document', 'passage', 'corpus', ...fallback]);
  const where = (p: { name: string } | null) =>
    p ? `${file} prompts.${p.name}` : config ? `${file} has no such prompt` : `no ${file}`;
  sources.push(`query prefix ${JSON.stringify(query?.text ?? '')} (${where(query)})`);
  sources.push(`document prefix ${JSON.stringify(document?.text ?? '')} (${where(document)})`);
  return [query?.text ?? '', document?.text ?? ''];
}

/** Reads modules.json, its Pooling folder's config.json, sentence_bert_config.json and config_sentence_transformers.json. */
export function sentenceTransformersConfig(read: ReadText): SentenceTransformersConfig {
  const modules = modulesOf(read);
  const kinds = modules.map((m) => kindOf(m.type));
  const extra = kinds.filter((k) => !['Transformer', 'Pooling', 'Normalize'].includes(k));
  if (kinds[0] !== 'Transformer' || kinds[1] !== 'Pooling' || extra.length > 0) {
    throw new Error(
      `${ST_MODULES}: modules ${kinds.join(' → ')}; MemLens runs Transformer → Pooling [→ Normalize] (a Dense or other layer is not in a transformers.js export)`,
    );
  }
  const sources: string[] = [];
  const poolingFile = `${modules[1].path.replace(/\/+$/, '')}/config.json`.replace(/^\//, '');
  const poolingConfig = jsonObject(read, poolingFile, true) ?? {};
  const pooling = poolingOf(poolingConfig, poolingFile);
  sources.push(`pooling ${pooling} (${poolingFile})`);
  const normalize = kinds.includes('Normalize');
  sources.push(
    `${normalize ? 'normalised' : 'not normalised'} (${ST_MODULES}: ${normalize ? 'a' : 'no'} Normalize module)`,
  );
  const model = jsonObject(read, 'config.json', true) ?? {};
  const dims =
    positiveInt(poolingConfig.word_embedding_dimension) ?? positiveInt(model.hidden_size);
  if (dims === null) {
    throw new Error(
      `${poolingFile}: word_embedding_dimension (or config.json hidden_size) is not a positive integer`,
    );
  }
  const bert = jsonObject(read, 'sentence_bert_config.json', false);
  const seq = positiveInt(bert?.max_seq_length);
  const positions = positiveInt(model.max_position_embeddings);
  if (seq !== null && positions !== null && seq > positions) {
    throw new Error(
      `sentence_bert_config.json max_seq_length ${seq} is over the model's position limit of ${positions} (config.json max_position_embeddings): set it to ${positions} or less`,
    );
  }
  const maxTokens = seq ?? positions;
  if (maxTokens === null) {
    throw new Error(
      'sentence_bert_config.json max_seq_length (or config.json max_position_embeddings) is missing',
    );
  }
  sources.push(
    `at most ${maxTokens} tokens (${seq !== null ? 'sentence_bert_config.json max_seq_length' : 'no sentence_bert_config.json: config.json max_position_embeddings'})`,
  );
  const stFile = 'config_sentence_transformers.json';
  const [queryPrefix, documentPrefix] = prefixesOf(
    jsonObject(read, stFile, false),
    stFile,
    sources,
  );
  const files = [
    ST_MODULES,
    poolingFile,
    'config.json',
    ...ST_OPTIONAL.filter((f) => read(f) !== null),
  ];
  return { pooling, normalize, maxTokens, queryPrefix, documentPrefix, dims, files, sources };
}

/** One file of a brought model, with the digest recorded for it. */
export interface BroughtFile {
  path: string;
  sha256: string;
  bytes: number;
}

/** A brought model's files, settings and reference, as the CLI or the page loaded it. */
export interface BroughtModel {
  /** The reference as the reader wrote it (its dtype included): the name in every row. */
  text: string;
  ref: ModelRef;
  config: SentenceTransformersConfig;
  files: BroughtFile[];
}

/** The dtypes a folder has weights for, in the order one is picked when none is named. */
export function dtypesPresent(has: (path: string) => boolean): ModelDtype[] {
  return MODEL_DTYPES.filter((d) => has(ONNX_WEIGHTS[d]));
}

/** The dtype to load: the one named, else fp32, else the first the folder has. */
export function pickDtype(
  present: readonly ModelDtype[],
  named: ModelDtype | null,
  where: string,
): ModelDtype {
  const dtype = named ?? present[0];
  if (dtype === undefined) {
    throw new Error(
      `${where}: no ONNX weights (${MODEL_DTYPES.map((d) => ONNX_WEIGHTS[d]).join(', ')})`,
    );
  }
  if (!present.includes(dtype)) {
    throw new Error(
      `${where}: no ${dtype} weights (${ONNX_WEIGHTS[dtype]}); has ${present.join(', ') || 'none'}`,
    );
  }
  return dtype;
}

/** One digest over every file: any byte that changes changes the vectors' cache key. */
export async function filesRevision(files: readonly BroughtFile[]): Promise<string> {
  const lines = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map((f) => `${f.sha256}  ${f.path}`);
  return `files:${await sha256Hex(lines.join('\n'))}`;
}

/** The registry-shaped entry the embedders read: settings from the folder, files with their digests. */
export function broughtSpec(opts: {
  id: string;
  label: string;
  /** The folder's path, as node-embedder resolves a local model (parent = root, last part = its id). */
  folder: string;
  dtype: ModelDtype;
  config: SentenceTransformersConfig;
  files: readonly BroughtFile[];
  upstream?: string;
}): ModelSpec {
  const { config, dtype } = opts;
  const files: ModelFile[] = opts.files.map((f) => ({
    path: f.path,
    sha256: f.sha256,
    bytes: f.bytes,
    ...(f.path === ONNX_WEIGHTS[dtype] ? { dtype } : {}),
  }));
  return {
    id: opts.id,
    label: opts.label,
    ...(opts.upstream ? { upstream: opts.upstream } : {}),
    source: { kind: 'local', path: opts.folder },
    dims: config.dims,
    pooling: config.pooling,
    normalize: config.normalize,
    maxTokens: config.maxTokens,
    queryPrefix: config.queryPrefix,
    documentPrefix: config.documentPrefix,
    dtypes: [dtype],
    files,
  };
}

/** The reference the embedders, the cache key and the rows read; it runs in Node. */
export function broughtModelRef(spec: ModelSpec, revision: string): ModelRef {
  return { id: spec.id, source: 'site', revision, dtype: spec.dtypes[0], backend: 'node', spec };
}

/** The lines the CLI prints for a brought model: its settings with their sources, each file's sha256. */
export function broughtLines(model: BroughtModel): string[] {
  return [
    `${model.text}: ${model.ref.spec.label}, ${model.ref.dtype}, ${model.ref.spec.dims} dims, revision ${model.ref.revision}`,
    ...model.config.sources.map((s) => `  ${s}`),
    ...model.files.map((f) => `  sha256 ${f.sha256}  ${f.path} (${f.bytes} bytes)`),
  ];
}

/** How a brought model's files are read: a folder on disk, a picked directory, a Hub cache. */
export interface ModelFolder {
  /** Where messages say the files are (a path, a repository at its commit). */
  where: string;
  has(path: string): Promise<boolean>;
  /** The file's bytes, or null where there is none. */
  read(path: string): Promise<Uint8Array | null>;
}

/** The Pooling module's config, as modules.json places it. */
export function poolingConfigPath(read: ReadText): string {
  const pooling = modulesOf(read).find((m) => kindOf(m.type) === 'Pooling');
  if (!pooling) throw new Error(`${ST_MODULES}: no Pooling module`);
  return `${pooling.path.replace(/\/+$/, '')}/config.json`.replace(/^\//, '');
}

/** What the model's files are named by in messages and where they are read from. */
export interface BroughtIdentity {
  text: string;
  id: string;
  label: string;
  folder: string;
  dtype: ModelDtype | null;
  upstream?: string;
}

/**
 * Reads a brought model's files (transformers.js's and sentence-transformers'), records each
 * file's sha256 and builds its reference. A file missing or malformed is named with `where`.
 */
export async function loadBroughtModel(
  identity: BroughtIdentity,
  folder: ModelFolder,
): Promise<BroughtModel> {
  const bytes = new Map<string, Uint8Array>();
  const decoder = new TextDecoder();
  const readText: ReadText = (p) => {
    const b = bytes.get(p);
    return b === undefined ? null : decoder.decode(b);
  };
  const take = async (p: string) => {
    const b = await folder.read(p);
    if (b !== null) bytes.set(p, b);
  };
  for (const p of [...MODEL_FILES, ST_MODULES, ...ST_OPTIONAL]) await take(p);
  const missing = MODEL_FILES.filter((p) => !bytes.has(p));
  if (missing.length > 0) {
    throw new Error(
      `${folder.where}: ${missing.join(', ')} missing (a transformers.js export has them)`,
    );
  }
  let config: SentenceTransformersConfig;
  try {
    await take(poolingConfigPath(readText));
    config = sentenceTransformersConfig(readText);
    const problem = tokenizerProblem(
      jsonObject(readText, 'tokenizer.json', true) ?? {},
      jsonObject(readText, 'config.json', true) ?? {},
    );
    if (problem) throw new Error(problem);
  } catch (err) {
    throw new Error(`${folder.where}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const present: ModelDtype[] = [];
  for (const d of MODEL_DTYPES) if (await folder.has(ONNX_WEIGHTS[d])) present.push(d);
  const dtype = pickDtype(present, identity.dtype, folder.where);
  await take(ONNX_WEIGHTS[dtype]);
  const files: BroughtFile[] = [];
  for (const [p, b] of [...bytes].sort(([a], [c]) => (a < c ? -1 : 1))) {
    files.push({ path: p, sha256: await sha256Hex(b), bytes: b.length });
  }
  const spec = broughtSpec({ ...identity, dtype, config, files });
  return {
    text: identity.text,
    ref: broughtModelRef(spec, await filesRevision(files)),
    config,
    files,
  };
}
