import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseResultsCsv, type ResultRow } from '../../../src/lib/results/results-csv';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The papers' text lives outside the repository; line-level provenance checks skip where it is absent. */
const PAPERS_DIR = process.env.MEMLENS_PAPERS_DIR ?? join(ROOT, '../shared/papers');

type Selector = Partial<Pick<ResultRow, 'system' | 'variant' | 'metric'>>;
/** [table, row, column, value exactly as printed, optional facet selector, optional delta] */
type Spot = [string, string, string, string, Selector?, string?];

interface PaperCase {
  id: 'locomo-conv' | 'memuse';
  csv: string;
  paper: string;
  /** Rows per `table`, as documented in docs/results/<id>.md. */
  counts: Record<string, number>;
  spots: Spot[];
}

function load(csv: string): ResultRow[] {
  return parseResultsCsv(readFileSync(join(ROOT, csv), 'utf8'), csv);
}

/**
 * The .txt extractions keep markdown escapes (`\.533`), LaTeX sign/brace markup (`$-$ .001`,
 * `{+}.008`, `2{,}212`), Unicode minus and thousands separators; the CSV keeps the number as it
 * reads. Normalise the line so that the printed value can be found in it.
 */
function normaliseLine(s: string): string {
  return s
    .replace(/\{,\}/g, ',')
    .replace(/\$([+\-\u2212])\$\s*/g, '$1')
    .replace(/\{([+-])\}/g, '$1')
    .replace(/\\(?=[^a-zA-Z])/g, '')
    .replace(/\u2212/g, '-')
    .replace(/\$/g, '')
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The value as a whole number on the line: no digit after it, no digit or '.' before a leading digit. */
function lineHasValue(line: string, value: string): boolean {
  const left = /^\d/.test(value) ? '(?<![\\d.])' : '';
  return new RegExp(`${left}${escapeRe(value)}(?!\\d)`).test(normaliseLine(line));
}

function cell(rows: ResultRow[], table: string, row: string, column: string, extra: Selector = {}) {
  const hits = rows.filter(
    (r) =>
      r.table === table &&
      r.row === row &&
      r.column === column &&
      Object.entries(extra).every(([k, v]) => r[k as keyof ResultRow] === v),
  );
  expect(hits, `${table} / ${row} / ${column} ${JSON.stringify(extra)}`).toHaveLength(1);
  return hits[0];
}

const LOCOMO: PaperCase = {
  id: 'locomo-conv',
  csv: 'data/results/locomo-conv.csv',
  paper: 'locomo-conv.txt',
  counts: {
    'Text §3': 3,
    'Text §3.2': 3,
    'Text §5': 4,
    'Table 4': 108,
    'Text §6.1': 8,
    'Text §7.2': 5,
    'Text §7.3': 5,
    'Text §7.4': 3,
    'Text §7.5': 16,
    'Text App. B': 2,
    'Text App. F': 10,
    'Text App. G': 16,
    'Text App. H': 6,
  },
  spots: [
    ['Text §3', 'Rewrite validation (footnote 2)', 'items per style', '40'],
    ['Text §3', 'Rewrite validation (footnote 2)', 'naturalness (range min)', '4.6'],
    ['Text §3', 'Rewrite validation (footnote 2)', 'naturalness (range max)', '4.8'],
    ['Text §3.2', 'Composed clusters', 'total', '1069'],
    ['Text §3.2', 'Composed clusters', 'per conversation (range min)', '36'],
    ['Text §3.2', 'Composed clusters', 'per conversation (range max)', '198'],
    ['Text §5', 'AnchorMem (footnote 4)', 'turns retrieved on average at top-K=10', '12.8'],
    ['Text §5', 'Judge-validation subset', 'items', '1488'],
    [
      'Text §5',
      'Memora (footnote 3)',
      'queries with empty retrieval at default threshold (range max)',
      '71',
    ],
    ['Table 4', 'No Memory', 'Response Quality / Cf', '.251', { system: 'No Memory' }],
    ['Table 4', 'Oracle', 'Response Quality / Comp.', '.597', { system: 'Oracle' }],
    ['Table 4', 'Naive RAG', 'Retrieval Recall@10 / Dialog', '.533', { system: 'Naive RAG' }],
    [
      'Table 4',
      'A-MEM Xu et al. (2025)',
      'Response Quality / Implicit',
      '.326',
      { system: 'A-MEM' },
    ],
    [
      'Table 4',
      '+ Query Rewriting',
      'Retrieval Recall@10 / Comp.',
      '.432',
      { system: 'AnchorMem' },
      '+.153',
    ],
    [
      'Table 4',
      '+ Query Rewriting',
      'Retrieval Recall@10 / Dialog',
      '.479',
      { system: 'mem0' },
      '-.068',
    ],
    [
      'Table 4',
      '+ Query Rewriting',
      'Response Quality / Cf',
      '.608',
      { system: 'Naive RAG' },
      '+.000',
    ],
    ['Table 4', 'w/ Response CoT', 'Response Quality / Cf', '.462', { system: 'Memora' }, '-.155'],
    [
      'Table 4',
      'Memora Xia et al. (2026)',
      'Retrieval Recall@10 / Comp.',
      '.387',
      { system: 'Memora' },
    ],
    ['Text §6.1', 'AnchorMem', 'recall@10 / dialog', '0.659'],
    ['Text §6.1', 'mem0', 'recall@10 / implicit', '0.456'],
    ['Text §6.1', 'AnchorMem', 'recall@10 / composed', '0.279'],
    ['Text §7.2', 'AnchorMem', '+ Query Rewriting recall gain / dialog', '+9.5'],
    ['Text §7.2', 'AnchorMem', '+ Query Rewriting recall gain / composed', '+14.7'],
    ['Text §7.2', 'Memora', '+ Query Rewriting change, any style (max abs)', '0.02'],
    ['Text §7.3', 'Silent-grounding set', 'implicit cases where oracle fact_used = 0.0', '332'],
    ['Text §7.3', 'Oracle vs. no-mem', 'faithfulness margin', '+55.1'],
    ['Text §7.3', 'Oracle vs. no-mem', 'engagement margin', '+31.0'],
    ['Text §7.4', 'CoT vs. Oracle', 'engagement margin (range min)', '+31'],
    ['Text §7.4', 'CoT vs. Oracle', 'engagement margin (range max)', '+40'],
    ['Text §7.4', 'CoT vs. Oracle', 'faithfulness and relevance margins (max abs)', '7'],
    ['Text §7.5', 'mem0', 'fact_used / dialog', '0.366'],
    ['Text §7.5', 'Memora', 'coverage / composed', '0.333'],
    ['Text §7.5', 'mem0', '+ Query Rewriting recall change (range min)', '-0.07'],
    ['Text App. B', 'Dialog and implicit', 'QA pool items', '1986'],
    ['Text App. B', 'Counterfactual', 'excluded cat-5 adversarial items', '446'],
    [
      'Text App. F',
      'Reasoning effect (+reasoning − top-K)',
      'correction score drop, every system (range max)',
      '0.19',
    ],
    ['Text App. F', 'Unaware share', 'plain prompt', '27'],
    ['Text App. F', 'Flips corrected → unaware (non-temporal counterfactuals)', 'total', '1112'],
    ['Text App. G', 'Correction accuracy', 'clearly implausible premises', '52.6'],
    [
      'Text App. G',
      'Judge validation (human vs. judge agreement)',
      'composed coverage, per fact',
      '0.79',
    ],
    ['Text App. G', 'Winner reversals (human vs. judge)', 'oracle vs. random', '7.3'],
    ['Text App. G', 'CoT vs. oracle (human vs. judge)', 'overall reversal rate', '2.7'],
    ['Text App. H', 'All standard deviations', 'max', '0.011'],
    ['Text App. H', 'A-MEM vs. mem0', 'implicit fact_used difference', '0.001'],
    ['Text App. H', 'Answer sampling (5 seeds)', 'composed clusters scored', '300'],
  ],
};

const MEMUSE: PaperCase = {
  id: 'memuse',
  csv: 'data/results/memuse.csv',
  paper: 'memuse.txt',
  counts: {
    'Text Abstract': 9,
    'Table 1': 21,
    'Table 2': 26,
    'Table 6': 16,
    'Table 7': 19,
    'Table 8': 25,
    'Table 9': 15,
    'Table 11': 8,
    'Table 12': 20,
    'Table 13': 32,
    'Table 14': 24,
    'Table 15': 15,
    'Table 16': 26,
    'Figure 8': 4,
    'Figure 9': 3,
    'Table 17': 13,
    'Table 18': 19,
    'Figure 1': 10,
    'Table 19': 14,
    'Figure 10': 5,
    'Table 20': 17,
    'Table 21': 30,
    'Table 22': 32,
    'Table 23': 10,
    'Table 24': 25,
    'Table 25': 35,
    'Table 26': 28,
    'Figure 11': 2,
    'Figure 12': 4,
    'Figure 13': 3,
    'Figure 14': 3,
    'Table 27': 15,
    'Table 28': 26,
  },
  spots: [
    ['Text Abstract', 'Deployment', 'sessions', '1872'],
    ['Text Abstract', 'Same system (LC-100, GPT-4.1-mini)', 'MemUse Direct QA', '78.8'],
    ['Text Abstract', 'Same system (LC-100, GPT-4.1-mini)', 'Direct QA − Reference gap', '71'],
    ['Table 1', 'MemoryBank Zhong et al. (2024)', 'Turns/u.', '37.7'],
    ['Table 1', 'LoCoMo Maharana et al. (2024)', 'Date span', '2'],
    ['Table 1', 'LongMemEval Wu et al. (2025)', 'Mem. % †', '0.4'],
    ['Table 1', 'LUFY Sumida et al. (2025)', 'Users', '17'],
    ['Table 2', 'LC-50', 'vs Sum.', '11.9'],
    ['Table 2', 'LC-100', 'Mean Lat.', '3.27'],
    ['Table 2', 'RAG-50', 'Mean TTFT', '1.09'],
    ['Table 6', 'Enrolled', 'Sessions', '1872'],
    ['Table 6', '− Adversarial users', 'Users', '38'],
    ['Table 6', '− Low-variance raters', 'Sessions', '1270'],
    ['Table 7', 'MemUse Natural Integration (Table 13 , column NI )', 'N', '504'],
    [
      'Table 7',
      'MemUse Direct QA (column Direct QA in Table 13 )',
      'N (question judgments)',
      '2212',
    ],
    ['Table 7', '(caption)', 'memory-moment subset questions', '207'],
    ['Table 8', 'Summary', 'Nov', '61'],
    ['Table 8', 'LC-100', 'Feb', '64'],
    ['Table 8', 'RAG-10', 'Jan', '56'],
    ['Table 9', 'User memory probe', 'Prec.', '91.7'],
    ['Table 9', 'System proactive recall', 'Ver.', '66'],
    ['Table 9', 'Total', 'Det.', '154'],
    [
      'Table 11',
      'Natural Integration',
      'Lenient',
      '76.1',
      { variant: 'GPT-4.1-mini generation / GPT-5.4 judge' },
    ],
    [
      'Table 11',
      'Direct QA',
      'Strict',
      '11.8',
      { variant: 'GPT-5.4 generation / GPT-5.4-nano judge' },
    ],
    [
      'Table 11',
      'Natural Integration',
      'Strict',
      '49.5',
      { variant: 'GPT-5.4 generation / GPT-5.4-nano judge' },
    ],
    ['Table 12', 'LLM judge (GPT-5.4-nano)', 'NI', '51.8'],
    ['Table 12', 'Human Annotator 2', 'Direct QA', '8.9'],
    ['Table 12', 'LLM–Human 2', 'NI', '0.21'],
    ['Table 12', '(caption)', 'human–human κ, Natural Integration', '0.57'],
    ['Table 13', 'Summary', 'Existing QA Acc (%)', '19.7'],
    ['Table 13', 'LC-10', 'Direct QA (%)', '53.0'],
    ['Table 13', 'LC-100', 'Sat. (Z ± SE)', '-.04'],
    ['Table 13', 'LC-100', 'Sat. (Z ± SE) / SE', '.07'],
    ['Table 13', '(caption)', 'per-session ρ, Natural Integration vs. Sat', '+.008'],
    ['Table 14', 'Summary', 'RealTalk', '9.8'],
    ['Table 14', 'LC-50', 'LUFY', '83.1'],
    ['Table 14', 'RAG-50', 'Avg.', '61.0'],
    ['Table 15', 'All 40 users', 'N_s', '1713'],
    ['Table 15', 'No adversarial', 'ME β', '-.001'],
    ['Table 15', 'Original filter', 'ME p', '.47'],
    ['Table 16', 'Any-success (default)', '#NI=1', '11'],
    ['Table 16', 'Any-success (default)', 'ρ', '+.289'],
    ['Table 16', 'Mean-NI (0–1)', 'β_NI', '+.563'],
    ['Figure 8', '(caption)', 'ρ, Original (full history)', '.68'],
    ['Figure 8', '(caption)', 'ρ, Fixed-window (last 10 sessions)', '.27'],
    ['Figure 8', '(caption)', 'ρ, Normalized by history size', '-.14'],
    ['Figure 9', '(caption)', 'users with positive preference for memory conditions', '11'],
    ['Figure 9', '(caption)', 'users', '29'],
    ['Figure 9', '(caption)', 'random slope variance', '0.042'],
    ['Table 17', 'Generic (ignores context)', 'N', '28'],
    ['Table 17', 'Hallucinated recall', '%', '23.6'],
    ['Table 17', 'Honest admission', '%', '2.8'],
    ['Table 18', 'GPT-4.1-mini / LC-100', 'Direct (%)', '78.8'],
    ['Table 18', 'GPT-4.1-mini / LC-10', 'Ref. (%)', '5.6'],
    ['Table 18', 'GPT-4.1-mini / RAG-10', 'NI (%)', '27.8'],
    ['Figure 1', 'GPT-4.1-mini / Summary', 'Direct QA', '44.9'],
    ['Figure 1', 'GPT-4.1-mini / LC-50', 'Natural Integration', '25.0'],
    ['Figure 1', 'GPT-4.1-mini / RAG-10', 'Direct QA', '49.2'],
    ['Table 19', 'Mem0', 'NI', '58.3'],
    ['Table 19', 'Letta (MemGPT)', 'Direct QA', '61.4'],
    [
      'Table 19',
      'Summary/LC/RAG (7 cond., range)',
      'Ref.',
      '8.0',
      { variant: 'GPT-4.1-mini / range max' },
    ],
    ['Figure 10', '(caption)', 'integration variant span (max)', '21.9'],
    ['Figure 10', '(caption)', 'V0 deployed pipeline span (min)', '6.8'],
    ['Figure 10', '(caption)', 'V0 deployed pipeline span (max)', '11.0'],
    ['Table 20', 'V0 (deployed)', 'GPT-5.5', '13.7'],
    ['Table 20', 'V2-CoT', 'GPT-4.1-mini', '20.5'],
    ['Table 20', 'V5', 'GPT-5.5', '21.9'],
    ['Table 21', 'Summary-only', 'V5', '41.1'],
    ['Table 21', 'LC-100%', 'Δ', '+11.0'],
    ['Table 21', 'RAG-10%', 'McNemar p', '.302'],
    ['Table 22', 'Summary-only', 'Δ NI', '+0.0'],
    ['Table 22', 'LC-100%', 'V6 NI', '27.4'],
    ['Table 22', 'RAG-50%', 'McN. p', '.09'],
    ['Table 23', 'Yes / Yes', 'Count', '11'],
    ['Table 23', 'Yes / No', 'Count', '37'],
    ['Table 23', 'No_relevant_context / —', 'Count', '2'],
    ['Table 24', 'LC-100%', 'Recall (%) / V0', '78.7'],
    ['Table 24', 'LC-100%', 'Recall (%) / V7', '67.3'],
    ['Table 24', 'RAG-10%', 'NI (%) / V7', '31.5'],
    ['Table 25', 'LC-100%', 'V2-CoT NI', '72.6'],
    ['Table 25', 'LC-100%', 'McN. p', '.0005'],
    ['Table 25', 'RAG-50%', 'Δ', '+17.8'],
    ['Table 26', 'V0 baseline', 'Overall', '23.6'],
    ['Table 26', 'V2-CoT', 'Probe', '70.0'],
    ['Table 26', 'V4 (few-shot)', 'Re-prov', '19.4'],
    ['Figure 11', '(caption)', 'sessions', '1270'],
    ['Figure 11', '(caption)', 'users', '29'],
    ['Figure 12', '(caption)', 'LOUO iterations significant (p<.05)', '15'],
    ['Figure 12', '(caption)', 'full-model memory × engagement β', '0.57'],
    ['Figure 12', '(caption)', 'LOUO iterations with positive effect', '16'],
    ['Figure 13', '(caption)', 'observations', '53'],
    ['Figure 13', '(caption)', 'memory × engagement β after removing 4 influential points', '0.35'],
    ['Figure 13', '(caption)', 'memory × engagement p after removing 4 influential points', '.018'],
    ['Figure 14', '(caption)', 'mean z, reactive events', '+0.09'],
    ['Figure 14', '(caption)', 'mean z, proactive system recalls', '-0.14'],
    ['Figure 14', '(caption)', 'p, reactive vs. proactive', '.086'],
    ['Table 27', 'N', 'Grounding / 2', '43'],
    ['Table 27', 'z̄', 'Appropriateness / 0', '-0.48'],
    ['Table 27', 'z̄', 'Grounding / 0', '+0.09'],
    ['Table 28', 'LC-10%', 'N', '21'],
    ['Table 28', 'RAG-10%', 'Approp.', '2.00'],
    ['Table 28', 'LC-10%', 'z̄', '-0.31'],
  ],
};

describe.each([LOCOMO, MEMUSE])('$csv', ({ id, csv, paper, counts, spots }) => {
  const rows = load(csv);
  const paperPath = join(PAPERS_DIR, paper);
  const hasPaper = existsSync(paperPath);
  const lines = hasPaper ? readFileSync(paperPath, 'utf8').split('\n') : [];

  it('parses with every row valid and belonging to the paper', () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.paper).toBe(id);
  });

  it('has the documented number of rows per table', () => {
    const got: Record<string, number> = {};
    for (const r of rows) got[r.table] = (got[r.table] ?? 0) + 1;
    expect(got).toEqual(counts);
  });

  it('gives every row complete provenance and facets', () => {
    for (const r of rows) {
      const where = `${r.table} / ${r.row} / ${r.column}`;
      expect(r.section.trim(), where).not.toBe('');
      expect(r.sourceLine, where).toBeGreaterThan(0);
      expect(r.metric.trim(), where).not.toBe('');
    }
  });

  it('has no duplicated cells', () => {
    const keys = rows.map((r) =>
      [r.table, r.row, r.column, r.system, r.variant, r.metric].join('\u0001'),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps rows in paper order within each table', () => {
    const last = new Map<string, number>();
    for (const r of rows) {
      expect(r.sourceLine, `${r.table} / ${r.row}`).toBeGreaterThanOrEqual(last.get(r.table) ?? 0);
      last.set(r.table, r.sourceLine);
    }
  });

  it.skipIf(!hasPaper)('prints each value on its source_line', () => {
    for (const r of rows) {
      const where = `${r.table} / ${r.row} / ${r.column} = ${r.valueText} @${r.sourceLine}`;
      expect(r.sourceLine, where).toBeLessThanOrEqual(lines.length);
      expect(lineHasValue(lines[r.sourceLine - 1], r.valueText), where).toBe(true);
    }
  });

  it.each(spots)('spot check %s / %s / %s = %s', (table, row, column, value, extra, delta) => {
    const r = cell(rows, table, row, column, extra ?? {});
    expect(r.valueText).toBe(value);
    expect(r.value).toBe(Number(value));
    if (delta !== undefined) expect(r.delta).toBe(delta);
  });
});

describe('locomo-conv Table 4', () => {
  const rows = load(LOCOMO.csv).filter((r) => r.table === 'Table 4');
  const systems = ['Naive RAG', 'A-MEM', 'AnchorMem', 'mem0', 'Memora'];

  it('covers No Memory, Oracle and every system with its two variant rows', () => {
    const bySystem = (s: string, row?: string) =>
      rows.filter((r) => r.system === s && (row === undefined || r.row === row)).length;
    expect(bySystem('No Memory')).toBe(4);
    expect(bySystem('Oracle')).toBe(4);
    for (const s of systems) {
      expect(bySystem(s), s).toBe(20);
      expect(bySystem(s, '+ Query Rewriting'), s).toBe(8);
      expect(bySystem(s, 'w/ Response CoT'), s).toBe(4);
    }
  });

  it('produces no rows for cells printed as —', () => {
    const dashed = rows.filter(
      (r) =>
        r.metric === 'recall@10' &&
        (r.row === 'No Memory' || r.row === 'Oracle' || r.row === 'w/ Response CoT'),
    );
    expect(dashed).toEqual([]);
  });

  it('keeps every printed delta in `delta`, consistent with the base row', () => {
    for (const r of rows) {
      const isVariant = r.row === '+ Query Rewriting' || r.row === 'w/ Response CoT';
      expect(r.delta !== '', `${r.system} ${r.row} ${r.column}`).toBe(isVariant);
      if (!isVariant) continue;
      expect(r.delta).toMatch(/^[+-]\.\d{3}$/);
      const base = rows.filter(
        (b) =>
          b.system === r.system &&
          b.column === r.column &&
          b.row !== '+ Query Rewriting' &&
          b.row !== 'w/ Response CoT',
      );
      expect(base).toHaveLength(1);
      expect(Math.abs(r.value - base[0].value - Number(r.delta))).toBeLessThan(1e-9);
    }
  });

  it.skipIf(!existsSync(join(PAPERS_DIR, LOCOMO.paper)))(
    'finds each delta with its printed arrow on the table line',
    () => {
      const line = normaliseLine(
        readFileSync(join(PAPERS_DIR, LOCOMO.paper), 'utf8').split('\n')[96],
      );
      for (const r of rows.filter((x) => x.delta !== '')) {
        const arrow = r.delta.startsWith('+') ? '↑\\uparrow' : '↓\\downarrow';
        expect(line, `${r.system} ${r.row} ${r.column}`).toContain(
          `${r.valueText}${arrow}${r.delta.slice(1)}`,
        );
      }
    },
  );
});
