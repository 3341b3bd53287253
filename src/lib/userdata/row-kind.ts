// A `type` or `kind` field that says, row by row, whether a row of a declared benchmark is a memory
// or a query: the common shape of one file holding both ({"type": "memory", "text": …}), where the
// memory and the query share one text field and "a query row has query text" cannot tell them apart.

export type RowKind = 'memory' | 'query';

/** The `fields` keys read as a row's kind, in the order they are tried. */
export const KIND_KEYS = ['type', 'kind'] as const;

const WORDS: ReadonlyMap<string, RowKind> = new Map([
  ['memory', 'memory'],
  ['memories', 'memory'],
  ['query', 'query'],
  ['queries', 'query'],
]);

/** The words a kind field may hold (any case, spaces around ignored), for messages and docs. */
export const KIND_WORDS: readonly string[] = [...WORDS.keys()];

/** The kind a value names, or null when it names none. */
export function rowKindOf(value: unknown): RowKind | null {
  return typeof value === 'string' ? (WORDS.get(value.trim().toLowerCase()) ?? null) : null;
}

/**
 * The key among KIND_KEYS that splits these rows (each row's unmapped fields): the first that some
 * row gives a kind word. Every row must then give one; null when no row does.
 */
export function kindKey(
  rows: readonly Readonly<Record<string, unknown>>[],
): (typeof KIND_KEYS)[number] | null {
  return (
    KIND_KEYS.find((key) =>
      rows.some((r) => Object.hasOwn(r, key) && rowKindOf(r[key]) !== null),
    ) ?? null
  );
}
