import { readHead, type ByteSource } from './byte-source.ts';
import { summarizeFields, type FieldInfo } from './fields.ts';
import { detectFormat } from './format.ts';
import { looksLikeSubmission, SubmissionChecker } from './inmind-submission.ts';
import { documentTooLarge, MAX_JSON_DOCUMENT_BYTES } from './json-document.ts';
import { suggestMapping, type Mapping } from './mapping.ts';
import type { FileFormat, UserRecord } from './record.ts';
import { readRecords, type RecordOptions } from './records.ts';
import { userTableName } from './table-name.ts';
import type { KeyRepeat } from './repeated-keys.ts';

export type DataKind = 'records' | 'inmind-submission';

/** What the mapping step shows: the detected format and kind, the fields and a suggested mapping. */
export interface Inspection {
  file: string;
  size: number | null;
  format: FileFormat;
  kind: DataKind;
  sample: UserRecord[];
  fields: FieldInfo[];
  /** Fields beyond the listed ones: loaded into the `fields` JSON column, not listed. */
  folded: number;
  /** Their paths as JSON: the mapping step's search finds them too. */
  foldedIds: string[];
  /** Keys with a dot shown quoted because a nested field has the same dotted name. */
  clashes: string[];
  /** Keys an object of the sample repeats (JSON files): only the last value is loaded. */
  repeats: KeyRepeat[];
  mapping: Mapping;
  table: string;
}

export interface InspectOptions extends RecordOptions {
  sampleSize?: number;
}

const HEAD_BYTES = 64 * 1024;
const SAMPLE_SIZE = 200;

/** Reads only the head of the file; the whole file is read (and checked) when it is loaded. */
export async function inspectUserFile(
  source: ByteSource,
  options: InspectOptions = {},
): Promise<Inspection> {
  const head = await readHead(source, HEAD_BYTES);
  const format = detectFormat(source.name, head);
  if (format === 'json' && source.size !== null && source.size > MAX_JSON_DOCUMENT_BYTES) {
    throw documentTooLarge(source.name, source.size);
  }
  const sample: UserRecord[] = [];
  const repeats: KeyRepeat[] = [];
  const reading = { ...options, onRepeatedKeys: (found: KeyRepeat[]) => repeats.push(...found) };
  for await (const record of readRecords(source, format, reading)) {
    sample.push(record);
    if (sample.length >= (options.sampleSize ?? SAMPLE_SIZE)) break;
  }
  const kind: DataKind = looksLikeSubmission(sample[0].value) ? 'inmind-submission' : 'records';
  if (kind === 'inmind-submission') {
    const checker = new SubmissionChecker(source.name, null);
    for (const record of sample) checker.check(record);
  }
  const { fields, folded, foldedIds, clashes } = summarizeFields(sample.map((r) => r.value));
  return {
    file: source.name,
    size: source.size,
    format,
    kind,
    sample,
    fields,
    folded,
    foldedIds,
    clashes,
    repeats,
    mapping: suggestMapping(fields),
    table: userTableName(source.name),
  };
}
