export type Tokenizer = (text: string) => string[];

const ASCII_WORD = /[a-z0-9]+/g;

/**
 * Lowercases first, then keeps ASCII `[a-z0-9]+` runs, the same as the released scoring scripts
 * (`re.findall(r'[a-z0-9]+', text.lower())`). Lowercasing before matching matters: e.g. the
 * Kelvin sign U+212A lowercases to ASCII `k` in both Python and JavaScript.
 */
export function asciiWordTokens(text: string): string[] {
  return text.toLowerCase().match(ASCII_WORD) ?? [];
}
