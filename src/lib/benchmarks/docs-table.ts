// The registry as the table docs/architecture.md prints ("The benchmarks"), one row per entry;
// test/lib/benchmarks/docs-table.test.ts holds the doc to it.
import type { BenchmarkDef } from './benchmark-def.ts';
import { BENCHMARK_DEFS } from './registry.ts';

export const DOCS_TABLE_HEADER = [
  'benchmark',
  'folder',
  'page',
  'files (data/sources.json)',
  'tables',
  'protocols (`--benchmark`)',
  'options (URL key, CLI flag)',
] as const;

const code = (names: readonly string[]) =>
  names.length === 0 ? '—' : names.map((n) => `\`${n}\``).join(', ');

export function docsTableRows(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): string[][] {
  return defs.map((d) => [
    d.label,
    `\`src/lib/benchmarks/${d.id}/\``,
    d.page ? d.page.navLabel : '—',
    code(d.dataset?.sourceIds ?? []),
    code(d.dataset?.tables ?? []),
    code(d.protocols.map((p) => p.id)),
    (d.options ?? []).map((o) => `\`${o.key}\` (\`--${o.flag}\`)`).join(', ') || '—',
  ]);
}

/** The rows as a Markdown table (Prettier aligns it in the doc; cells are what count). */
export function docsTable(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(DOCS_TABLE_HEADER),
    line(DOCS_TABLE_HEADER.map(() => '---')),
    ...docsTableRows(defs).map(line),
  ].join('\n');
}
