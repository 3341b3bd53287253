type Cell = string | number | boolean | null | undefined | object;

/** Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first); plain numbers are data. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

function csvCell(v: Cell, onNeutralised: () => void): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (typeof v !== 'number' && isFormulaLike(s)) {
    s = `'${s}`;
    onNeutralised();
  }
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export interface CsvExport {
  text: string;
  /** Cells that began like a formula and were prefixed with `'` so a spreadsheet shows them as text. */
  neutralised: number;
}

/** RFC 4180 CSV with the union of the rows' keys as header, in first-seen order. */
export function csvExport(rows: readonly Record<string, Cell>[]): CsvExport {
  const columns: string[] = [];
  for (const row of rows)
    for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  let neutralised = 0;
  const count = () => neutralised++;
  const lines = [columns.map((c) => csvCell(c, count)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c], count)).join(','));
  return { text: `${lines.join('\n')}\n`, neutralised };
}

export function rowsToCsv(rows: readonly Record<string, Cell>[]): string {
  return csvExport(rows).text;
}

export function safeFileName(name: string): string {
  return (
    name
      .replace(/[^a-z0-9._-]+/gi, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'export'
  );
}
