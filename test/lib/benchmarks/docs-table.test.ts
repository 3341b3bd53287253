import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOCS_TABLE_HEADER,
  docsTable,
  docsTableRows,
} from '../../../src/lib/benchmarks/docs-table.ts';

const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');

/** The cells of the first Markdown table after `heading`, header and rule included. */
function tableUnder(markdown: string, heading: string): string[][] {
  const lines = markdown.slice(markdown.indexOf(heading)).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start, end === -1 ? undefined : end).map((l) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim()),
  );
}

describe('the benchmarks table of docs/architecture.md', () => {
  it('is the registry, row for row', () => {
    const [header, , ...rows] = tableUnder(doc, '## The benchmarks');
    expect(header).toEqual([...DOCS_TABLE_HEADER]);
    expect(rows).toEqual(docsTableRows());
  });

  it('renders as Markdown with the same cells', () => {
    const [header, , ...rows] = tableUnder(docsTable(), '');
    expect(header).toEqual([...DOCS_TABLE_HEADER]);
    expect(rows).toEqual(docsTableRows());
  });
});
