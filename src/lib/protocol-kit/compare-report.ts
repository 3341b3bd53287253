/** The comparison as the CLI prints it and as CSV: the page shows the same cells. */
import { plural } from '../common/plural.ts';
import { isWholeSeries, levelOf } from './summary.ts';
import type { Comparison, PairRow, RetrieverCell, TieGroupsRow } from './compare.ts';

export function formatP(p: number | null): string {
  if (p === null) return '—';
  if (p === 0) return '0';
  return p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
}

/** "+12.0 [4.8, 19.2]": a difference of fractions in percentage points, or of AUCs. */
export function formatDelta(row: Pick<PairRow, 'metric' | 'delta' | 'lo' | 'hi'>): string {
  const [scale, digits] = row.metric === 'recall' ? [100, 1] : [1, 3];
  const f = (v: number | null) => {
    if (v === null) return '—';
    const x = Math.abs(v * scale) < 0.5 * 10 ** -digits ? 0 : v * scale;
    return x.toFixed(digits);
  };
  const sign = row.delta !== null && row.delta * scale >= 0.5 * 10 ** -digits ? '+' : '';
  return `${sign}${f(row.delta)} [${f(row.lo)}, ${f(row.hi)}]`;
}

export function formatCell(cell: RetrieverCell | undefined): string {
  if (!cell || cell.value === null) return '—';
  const [scale, digits, unit] = cell.metric === 'recall' ? [100, 1, '%'] : [1, 3, ''];
  const f = (v: number | null) => (v === null ? '—' : (v * scale).toFixed(digits));
  return `${f(cell.value)}${unit} [${f(cell.lo)}, ${f(cell.hi)}]`;
}

export function metricName(metric: PairRow['metric'], k: number | null): string {
  return metric === 'recall' ? `recall@${k}` : 'AUC';
}

/** What the tie chart's numbered brackets mean: one entry per bracket, as the chart numbers it. */
export function tieLegend(row: TieGroupsRow): { label: string; members: string }[] {
  return row.groups.map(([first, last], i) => ({
    label: String(i + 1),
    members: row.order.slice(first, last + 1).join(', '),
  }));
}

/** "{minilm, minilm:q8} · {bm25}": each tie group in braces, best first. */
export function formatTies(row: TieGroupsRow): string {
  return row.groups
    .map(([first, last]) => `{${row.order.slice(first, last + 1).join(', ')}}`)
    .join(' · ');
}

export function cellOf(
  c: Comparison,
  retriever: string,
  series: string,
  metric: PairRow['metric'],
  k: number | null,
  /** Null: the whole series. */
  group: string | null = null,
): RetrieverCell | undefined {
  return c.cells.find(
    (x) =>
      x.retriever === retriever &&
      x.series === series &&
      x.group === group &&
      x.metric === metric &&
      x.k === k,
  );
}

const pairName = (row: PairRow) => `${row.a} − ${row.b}`;

function pairLine(row: PairRow, width: number): string {
  const name = pairName(row).padEnd(width);
  if (row.metric === 'auc') {
    return `  ${name} ΔAUC       ${formatDelta(row)}${row.significant ? '  *' : ''}`;
  }
  const tests =
    `b ${String(row.onlyA).padStart(3)}  c ${String(row.onlyB).padStart(3)}  ` +
    `p ${formatP(row.p).padStart(7)}  Holm ${formatP(row.pHolm).padStart(7)}${row.significant ? ' *' : '  '}`;
  return `  ${name} ${`Δrecall@${row.k}`.padEnd(10)} ${tests}  ${formatDelta(row)}`;
}

/** The ΔAUC row beside a recall pair: same retrievers, series and group. */
export function aucPairOf(c: Comparison, row: PairRow): PairRow | undefined {
  return c.pairs.find(
    (p) =>
      p.metric === 'auc' &&
      p.a === row.a &&
      p.b === row.b &&
      p.series === row.series &&
      p.group === row.group,
  );
}

/** The per-group block of a series: recall@tieK's paired tests and ΔAUC, one line per pair. */
function groupLines(c: Comparison, series: string): string[] {
  const rows = c.pairs.filter(
    (p) => p.series === series && !isWholeSeries(p) && p.metric === 'recall' && p.k === c.tieK,
  );
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map((p) => (p.group ?? '').length), 5);
  const pairWidth = Math.max(24, ...rows.map((row) => pairName(row).length));
  const lines = [`  by group, recall@${c.tieK} (Holm within each group) and ΔAUC:`];
  for (const row of rows) {
    const auc = aucPairOf(c, row);
    const tail = auc ? `  ΔAUC ${formatDelta(auc)}${auc.significant ? ' *' : ''}` : '';
    lines.push(
      `  ${(row.group ?? '').padEnd(width)} n ${String(row.queries).padStart(4)}${pairLine(row, pairWidth).slice(1)}${tail}`,
    );
  }
  return lines;
}

/** The comparison's lines, per series: the table, the pairs, the tie groups, the groups. */
export function comparisonLines(c: Comparison): string[] {
  const lines = [
    `${c.benchmark} · ${c.retrievers.map((r) => `${r.ref} (${r.label}${r.runtime ? ` on ${r.runtime}` : ''})`).join(', ')} on the same queries`,
    `  paired: hit@k by the exact two-sided McNemar test (b = A hits, B misses; c = the reverse),`,
    `  Δrecall@k and ΔAUC by a paired bootstrap over queries (seed ${c.seed}; ${c.reps.recall} resamples, AUC ${c.reps.auc}),`,
    `  p adjusted by Holm over the pairs of each series and k; * = significant at α = ${c.alpha}`,
    ...c.retrievers.flatMap((r) => (r.note === undefined ? [] : [`  ${r.ref}: ${r.note}`])),
  ];
  for (const series of c.series) {
    const n = c.cells.find((x) => x.series === series && isWholeSeries(x))?.queries ?? 0;
    lines.push('', `${series} (${plural(n, 'query', 'queries')})`);
    const head = [...c.ks.map((k) => `recall@${k}`), 'AUC'];
    const width = Math.max(16, ...c.retrievers.map((r) => r.ref.length));
    lines.push(`  ${'retriever'.padEnd(width)} ${head.map((h) => h.padEnd(22)).join(' ')}`);
    for (const r of c.retrievers) {
      const cells = [
        ...c.ks.map((k) => formatCell(cellOf(c, r.ref, series, 'recall', k))),
        formatCell(cellOf(c, r.ref, series, 'auc', null)),
      ];
      lines.push(`  ${r.ref.padEnd(width)} ${cells.map((x) => x.padEnd(22)).join(' ')}`);
    }
    lines.push('  pairs (A − B):');
    const rows = c.pairs.filter(
      (p) =>
        p.series === series && isWholeSeries(p) && (p.metric === 'auc' || c.ks.includes(p.k ?? 0)),
    );
    const pairWidth = Math.max(24, ...rows.map((row) => pairName(row).length));
    for (const row of rows) lines.push(pairLine(row, pairWidth));
    const ties = c.ties.find((t) => t.series === series && isWholeSeries(t));
    if (ties) lines.push(`  tie groups at recall@${ties.k}: ${formatTies(ties)}`);
    lines.push(...groupLines(c, series));
  }
  return lines;
}

export type CsvValue = string | number | boolean | null;

/**
 * One row per pair × series × group (`level` series: the whole series) × metric × k, with b, c, p, Holm p, the interval, what pins
 * each side's weights, what each side is where it says (a submission's scope, a folder's files)
 * and what ran each side's model where that is known.
 */
export function comparisonCsvRows(c: Comparison): Record<string, CsvValue>[] {
  const revision = (ref: string) => c.retrievers.find((r) => r.ref === ref)?.revision ?? null;
  const note = (ref: string) => c.retrievers.find((r) => r.ref === ref)?.note ?? null;
  const runtime = (ref: string) => c.retrievers.find((r) => r.ref === ref)?.runtime ?? null;
  return c.pairs.map((p) => ({
    benchmark: c.benchmark,
    series: p.series,
    level: levelOf(p),
    group: p.group,
    retriever_a: p.a,
    retriever_b: p.b,
    metric: p.metric,
    k: p.k,
    value_a: p.valueA,
    value_b: p.valueB,
    delta: p.delta,
    delta_lo: p.lo,
    delta_hi: p.hi,
    b: p.onlyA,
    c: p.onlyB,
    p_mcnemar_exact: p.p,
    p_holm: p.pHolm,
    significant: p.significant,
    alpha: c.alpha,
    queries: p.queries,
    interval: p.metric === 'recall' ? 'paired bootstrap 95%' : 'paired bootstrap 95% (binned AUC)',
    bootstrap_seed: c.seed,
    bootstrap_reps: p.metric === 'recall' ? c.reps.recall : c.reps.auc,
    revision_a: revision(p.a),
    revision_b: revision(p.b),
    note_a: note(p.a),
    note_b: note(p.b),
    runtime_a: runtime(p.a),
    runtime_b: runtime(p.b),
  }));
}
