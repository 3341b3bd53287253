import { extensionOf } from './format.ts';

export const USER_TABLE_PREFIX = 'user_';
const VALID = /^user_[a-z0-9_]{1,48}$/;

/** `My Results (v2).jsonl` → `user_my_results_v2`. */
export function userTableName(fileName: string): string {
  const base = (fileName.split(/[/\\]/).pop() ?? fileName).replace(/\?.*$/, '');
  const extension = extensionOf(base);
  const stem = extension ? base.slice(0, -(extension.length + 1)) : base;
  const slug = stem
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  return `${USER_TABLE_PREFIX}${slug || 'data'}`;
}

/** Why `name` cannot be a user table, or null. */
export function tableNameProblem(name: string): string | null {
  return VALID.test(name)
    ? null
    : 'Table names start with "user_" and use only a–z, 0–9 and "_" (at most 53 characters).';
}

/** `name`, or the first `name_2`, `name_3`… not in `taken`, kept within the length limit. */
export function freeTableName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = `${name.slice(0, 53 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The name this page suggested for a file, and the file's own name it came from. */
export interface TableSuggestion {
  readonly base: string;
  readonly table: string;
}

/**
 * The suggestion again for a newer table list, or null while `shown` is the reader's own name:
 * a table loaded a moment ago may reach the list after the mapping showed its name as free.
 */
export function renewedSuggestion(
  suggestion: TableSuggestion,
  shown: string,
  taken: ReadonlySet<string>,
): string | null {
  return shown === suggestion.table ? freeTableName(suggestion.base, taken) : null;
}
