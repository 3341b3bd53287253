import {
  DatasetFormatError,
  child,
  describeValue,
  isObject,
  type JsonObject,
  type Loc,
} from '../datasets/validate.ts';
import type { UserRecord } from './record.ts';

/** Top-level fields `submission.schema.json` requires. */
export const SUBMISSION_FIELDS = ['task_id', 'system', 'config', 'naive', 'query'] as const;
const TURN_FIELDS = ['context', 'answer'] as const;
const SCHEMA = 'InMind submission schema';

export interface SubmissionRow {
  line: number;
  task_id: number;
  system: string;
  /** The `config` object as JSON. */
  config: string;
  naive_context: string;
  naive_answer: string;
  query_context: string;
  query_answer: string;
}

/** Most required fields present, with `naive` or `query` an object: an InMind submission line. */
export function looksLikeSubmission(value: JsonObject): boolean {
  const present = SUBMISSION_FIELDS.filter((f) => Object.hasOwn(value, f)).length;
  return present >= 3 && (isObject(value.naive) || isObject(value.query));
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** An unknown key that is probably a misspelling of `wanted`. */
function typoOf(obj: JsonObject, wanted: string, known: readonly string[]): string | null {
  const unknown = Object.keys(obj).filter((k) => !known.includes(k));
  return (
    unknown.find((k) => k.toLowerCase() === wanted || editDistance(k.toLowerCase(), wanted) <= 2) ??
    null
  );
}

function failField(loc: Loc, expected: string, value: unknown, typo: string | null = null): never {
  const found =
    typo === null
      ? describeValue(value)
      : `nothing (missing), but an unknown field "${typo}" (a typo?)`;
  throw new DatasetFormatError(loc.file, loc.path, `${expected} (${SCHEMA})`, {
    line: loc.line,
    found,
  });
}

function field<T>(
  obj: JsonObject,
  key: string,
  loc: Loc,
  known: readonly string[],
  expected: string,
  ok: (v: unknown) => v is T,
): T {
  const value = obj[key];
  if (ok(value)) return value;
  failField(child(loc, key), expected, value, value === undefined ? typoOf(obj, key, known) : null);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isInteger = (v: unknown): v is number => Number.isSafeInteger(v);

function turn(
  obj: JsonObject,
  key: 'naive' | 'query',
  loc: Loc,
): { context: string; answer: string } {
  const value = field(
    obj,
    key,
    loc,
    SUBMISSION_FIELDS,
    'an object with context and answer',
    isObject,
  );
  const at = child(loc, key);
  const context = field(value, 'context', at, TURN_FIELDS, 'a string', isString);
  const answer = field(value, 'answer', at, TURN_FIELDS, 'a string', isString);
  return { context, answer };
}

/**
 * Checks each line against the submission schema, plus what the schema cannot say: each task at
 * most once per system, and (when the task list is loaded) only known task ids.
 */
export class SubmissionChecker {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly file: string,
    private readonly taskIds: ReadonlySet<number> | null,
  ) {}

  check(record: UserRecord): SubmissionRow {
    const loc: Loc = { file: this.file, path: record.path, line: record.line };
    const obj = record.value;
    const taskId = field(obj, 'task_id', loc, SUBMISSION_FIELDS, 'an integer', isInteger);
    const system = field(
      obj,
      'system',
      loc,
      SUBMISSION_FIELDS,
      'a non-empty string',
      isNonEmptyString,
    );
    const config = field(obj, 'config', loc, SUBMISSION_FIELDS, 'an object', isObject);
    const naive = turn(obj, 'naive', loc);
    const query = turn(obj, 'query', loc);
    this.checkTask(taskId, system, loc);
    return {
      line: record.line,
      task_id: taskId,
      system,
      config: JSON.stringify(config),
      naive_context: naive.context,
      naive_answer: naive.answer,
      query_context: query.context,
      query_answer: query.answer,
    };
  }

  private checkTask(taskId: number, system: string, loc: Loc): void {
    const at = child(loc, 'task_id');
    if (this.taskIds !== null && !this.taskIds.has(taskId)) {
      const ids = [...this.taskIds];
      throw new DatasetFormatError(
        at.file,
        at.path,
        `an InMind task id (${this.taskIds.size} tasks, ${Math.min(...ids)}–${Math.max(...ids)})`,
        {
          line: at.line,
          found: `${taskId}, which is not one`,
        },
      );
    }
    const key = `${system}\u0000${taskId}`;
    const first = this.seen.get(key);
    if (first !== undefined) {
      throw new DatasetFormatError(at.file, at.path, `each task at most once per system`, {
        line: at.line,
        found: `task ${taskId} for "${system}" again (first on line ${first})`,
      });
    }
    this.seen.set(key, loc.line ?? 0);
  }
}
