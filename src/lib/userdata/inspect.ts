import { readHead, type ByteSource } from './byte-source.ts';
import { FieldTally, type FieldInfo } from './fields.ts';
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
  /** Records the fields were tallied over. */
  records: number;
  /** Whether those are every record of the file (not for a submission, or past a bad record). */
  allRecords: boolean;
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

/**
 * Reads a sample from the head of the file, then every record for its fields, so a field that only
 * late records hold (queries after 10⁵ memories) is mapped too; values are checked when it is loaded.
 */
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
  const tally = new FieldTally();
  for (const record of sample) tally.add(record.value);
  const more = sample.length >= (options.sampleSize ?? SAMPLE_SIZE);
  const allRecords =
    !more ||
    (kind === 'records' && (await tallyRest(source, format, options, sample.length, tally)));
  const { fields, folded, foldedIds, clashes } = tally.summary();
  return {
    file: source.name,
    size: source.size,
    format,
    kind,
    sample,
    records: tally.records,
    allRecords,
    fields,
    folded,
    foldedIds,
    clashes,
    repeats,
    mapping: suggestMapping(fields),
    table: userTableName(source.name),
  };
}

/**
 * The records after the first `skip`, added to `tally` (a second pass: the sample read only the
 * head). A bad record stops the tally, not the inspection: loading reads it again and names it.
 */
async function tallyRest(
  source: ByteSource,
  format: FileFormat,
  options: RecordOptions,
  skip: number,
  tally: FieldTally,
): Promise<boolean> {
  let seen = 0;
  try {
    for await (const record of readRecords(source, format, {
      ...options,
      onRepeatedKeys: undefined,
    })) {
      if (++seen > skip) tally.add(record.value);
    }
    return true;
  } catch (err) {
    if (options.signal?.aborted) throw err;
    return false;
  }
}
