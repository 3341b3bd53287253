type Cell = string | number | boolean | null | undefined | object;

function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** RFC 4180 CSV with the union of the rows' keys as header, in first-seen order. */
export function rowsToCsv(rows: readonly Record<string, Cell>[]): string {
  const columns: string[] = [];
  for (const row of rows)
    for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return `${lines.join('\n')}\n`;
}

export function safeFileName(name: string): string {
  return (
    name
      .replace(/[^a-z0-9._-]+/gi, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'export'
  );
}
