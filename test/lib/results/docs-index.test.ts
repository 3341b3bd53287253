import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import { parseResultsCsv } from '../../../src/lib/results/results-csv';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import { PAPER_CHARTS, PAPER_INFO } from '../../../src/lib/benchmarks/papers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const index = readFileSync(join(ROOT, 'docs/results.md'), 'utf8');

/** The paper's section of docs/results.md: from its `## Label` heading to the next one. */
function section(label: string): string {
  const start = index.indexOf(`\n## ${label}\n`);
  expect(start, label).toBeGreaterThan(0);
  const end = index.indexOf('\n## ', start + 1);
  return index.slice(start, end < 0 ? undefined : end);
}

describe('docs/results.md', () => {
  it.each(PAPERS.map((p) => ({ paper: p })))(
    'lists every table and figure of $paper with its rows',
    ({ paper }) => {
      const csv = `data/results/${paper}.csv`;
      const rows = parseResultsCsv(readFileSync(join(ROOT, csv), 'utf8'), csv);
      const text = section(PAPER_INFO[paper].label).replace(/\s+/g, ' ');
      const counts = new Map<string, number>();
      for (const r of rows)
        if (/^(Table|Figure) \d+$/.test(r.table))
          counts.set(r.table, (counts.get(r.table) ?? 0) + 1);
      for (const [table, n] of counts) {
        const [kind, number] = table.split(' ');
        expect(text, `${table} (${n})`).toMatch(
          new RegExp(`${kind}s? [^.;]*?\\b${number} \\(${n}\\b`),
        );
      }
      expect(index, `${paper} total`).toMatch(
        new RegExp(`\\| ${PAPER_INFO[paper].label} +\\|[^\\n]*\\| +${rows.length} \\|`),
      );
    },
  );

  it('names every chart with its SQL', () => {
    for (const def of [OVERVIEW_CHART, ...PAPERS.flatMap((p) => PAPER_CHARTS[p])]) {
      expect(index, def.id).toContain(`\`${def.id}\``);
    }
  });
});
