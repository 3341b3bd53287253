// What each model file must be before its bytes reach ONNX Runtime or the tokenizer: the size and
// sha256 data/models.json pins for where it comes from (the site's own copy, or the Hub's), and
// never an HTML page. A file with no pin is hashed and reported as unverified, not trusted.
import { integrityProblem } from '../data/integrity.ts';
import { sha256Hex } from '../common/sha256.ts';
import {
  filesForDtype,
  type ModelDtype,
  type ModelFile,
  type ModelSpec,
} from './model-registry.ts';
import type { ModelLocation } from './model-location.ts';

export interface ModelFilePin {
  /** Relative to the model directory, as data/models.json lists it. */
  path: string;
  /** How messages name the file: `models/<id>/<path>` on the site, `<repo>/<path>` on the Hub. */
  label: string;
  sha256?: string;
  bytes?: number;
  /** The Hub's digest, also accepted for the site's copy: `npm run models` may have taken it from there. */
  hubSha256?: string;
}

/** A file whose bytes were read whole and checked (or, without a pin, only hashed). */
export interface CheckedModelFile {
  path: string;
  sha256: string;
  bytes: number;
  /** True when data/models.json pinned the sha256 and the bytes matched it. */
  verified: boolean;
}

/** The Hub's bytes are pinned by `hubSha256`, or by `sha256` for a model that only the Hub serves. */
function hubPin(spec: ModelSpec, file: ModelFile): Pick<ModelFilePin, 'sha256' | 'bytes'> {
  if (file.hubSha256) return { sha256: file.hubSha256 };
  if (spec.source.kind === 'hub') return { sha256: file.sha256, bytes: file.bytes };
  return {};
}

/** Every file a load of `dtype` from `location` reads, with what its bytes must be. */
export function modelFilePins(
  spec: ModelSpec,
  dtype: ModelDtype,
  location: ModelLocation,
): ModelFilePin[] {
  return filesForDtype(spec, dtype).map((file) => {
    if (location.kind === 'hub') {
      return { path: file.path, label: `${location.loadId}/${file.path}`, ...hubPin(spec, file) };
    }
    return {
      path: file.path,
      label:
        location.kind === 'picked'
          ? `${location.where}/${file.path}`
          : `models/${spec.id}/${file.path}`,
      sha256: file.sha256,
      bytes: file.bytes,
      ...(file.hubSha256 && file.hubSha256 !== file.sha256 ? { hubSha256: file.hubSha256 } : {}),
    };
  });
}

/** The directory transformers.js reads the model's files from, as an absolute URL ending in `/`. */
export function modelBaseUrl(location: ModelLocation, origin: string): string {
  if (location.kind === 'hub') {
    return `https://huggingface.co/${location.loadId}/resolve/${encodeURIComponent(location.revision)}/`;
  }
  return new URL(`${location.localModelPath}${encodeURIComponent(location.loadId)}/`, origin).href;
}

/** Throws a ChecksumError or IntegrityError naming the file; returns what was read otherwise. */
export async function checkModelFile(
  pin: ModelFilePin,
  bytes: Uint8Array,
  contentType: string | null,
): Promise<CheckedModelFile> {
  if (pin.hubSha256 !== undefined && (await sha256Hex(bytes)) === pin.hubSha256) {
    return checkModelFile(
      { path: pin.path, label: pin.label, sha256: pin.hubSha256 },
      bytes,
      contentType,
    );
  }
  const problem = await integrityProblem(pin.label, pin, bytes, contentType);
  if (problem) throw problem;
  const sha256 = pin.sha256 ?? (await sha256Hex(bytes));
  return { path: pin.path, sha256, bytes: bytes.length, verified: pin.sha256 !== undefined };
}

/** One line for the device panel: every file verified, or which ones had no pin. */
export function describeChecked(files: readonly CheckedModelFile[]): string {
  if (files.length === 0) return 'not checked';
  const unverified = files.filter((f) => !f.verified);
  if (unverified.length === 0) {
    const n = files.length;
    return `${n} file${n === 1 ? '' : 's'} verified against data/models.json (size and sha256)`;
  }
  const listed = unverified.map((f) => `${f.path} (sha256 ${f.sha256.slice(0, 12)}…)`);
  return `unverified: data/models.json pins no sha256 for ${listed.join(', ')}; used as downloaded`;
}
