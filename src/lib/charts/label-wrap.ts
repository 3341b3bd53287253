// Axis labels that never end in "…": a long category name is shown shortened (its citation left
// out, "text-embedding-3-large" as "emb3-large") and broken into lines, while the field keeps the
// full name for the tooltip and the marks' accessible descriptions.

/** Characters per line of a wrapped axis label: about 90 px at Vega's label size. */
export const LABEL_CHARS = 14;

/** A trailing citation, "(Wang et al., 2020)" or "(OpenAI, 2024a)". */
const CITATION = /\s*\([^()]*\b\d{4}[a-z]?\)$/;

/** The name as an axis shows it: without its trailing citation, the long embedding name shortened. */
export function shortLabel(text: string): string {
  const short = text.replace(CITATION, '').replaceAll('text-embedding-3-large', 'emb3-large');
  return short || text;
}

/** Words in lines of at most `max` characters; a longer word gets a line of its own. */
export function wrapLines(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A Vega `labelExpr` showing each of `labels` as its short form in lines of at most `max`
 * characters (a label already short and on one line is shown as it is).
 */
export function wrappedLabelExpr(labels: readonly string[], max: number): string {
  const shown: Record<string, string[]> = {};
  for (const label of labels) {
    const lines = wrapLines(shortLabel(label), max);
    if (lines.length !== 1 || lines[0] !== label) shown[label] = lines;
  }
  if (Object.keys(shown).length === 0) return 'datum.label';
  return `${JSON.stringify(shown)}[datum.label] || datum.label`;
}
