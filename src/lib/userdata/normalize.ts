/**
 * Normalisation for "does the recorded context contain the target message": lowercase, remove
 * punctuation and symbols (Unicode P* and S*), turn each run of whitespace or separators into one
 * space, trim. `normalizedSql` in query/user-tables.ts is the same rule in DuckDB; a test keeps them equal.
 */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, '')
    .replace(/[\t\n\v\f\r\p{Z}]+/gu, ' ')
    .trim();
}

export function containsNormalized(haystack: string, needle: string): boolean {
  return normalizeForMatch(haystack).includes(normalizeForMatch(needle));
}
