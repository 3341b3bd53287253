import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseResultsCsv, type ResultRow } from '../../../src/lib/results/results-csv';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The papers' text lives outside the repository; provenance checks skip where it is absent. */
const PAPERS_DIR = process.env.MEMLENS_PAPERS_DIR ?? join(ROOT, '../shared/papers');

interface PaperCase {
  id: 'inmind' | 'utilmem';
  csv: string;
  paper: string;
}

const CASES: PaperCase[] = [
  { id: 'inmind', csv: 'data/results/inmind.csv', paper: 'inmind.txt' },
  { id: 'utilmem', csv: 'data/results/utilmem.csv', paper: 'utilmem-summary.txt' },
];

function load(csv: string): ResultRow[] {
  return parseResultsCsv(readFileSync(join(ROOT, csv), 'utf8'), csv);
}

const inmind = load('data/results/inmind.csv');
const utilmem = load('data/results/utilmem.csv');

/** Exactly one cell matching the selector; fails loudly otherwise. */
function cell(
  rows: ResultRow[],
  table: string,
  row: string,
  column: string,
  extra: Partial<Pick<ResultRow, 'variant' | 'metric' | 'system'>> = {},
): ResultRow {
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

function printedForms(row: ResultRow): string[] {
  return [...row.note.matchAll(/printed "([^"]+)"/g)].map((m) => m[1]);
}

describe.each(CASES)('$csv', ({ id, csv, paper }) => {
  const rows = load(csv);
  const paperPath = join(PAPERS_DIR, paper);
  const hasPaper = existsSync(paperPath);

  it('parses with every row valid and belonging to the paper', () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.paper).toBe(id);
  });

  it('gives every row complete provenance', () => {
    for (const r of rows) {
      expect(r.section.trim(), `${r.table} ${r.row}`).not.toBe('');
      expect(r.sourceLine).toBeGreaterThan(0);
      expect(r.metric.trim(), `${r.table} ${r.row} ${r.column}`).not.toBe('');
      expect(r.delta).toBe('');
    }
  });

  it('has no duplicated cells', () => {
    const keys = rows.map((r) =>
      [r.table, r.row, r.column, r.variant, r.metric, r.note, r.sourceLine].join('\u0001'),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps printed-form notes consistent with the value', () => {
    for (const r of rows) {
      for (const p of printedForms(r)) {
        expect(p.replace(/(\d),(\d{3})/g, '$1$2'), `${r.table} ${r.row} ${r.column}`).toContain(
          r.valueText.replace(/^\+/, ''),
        );
      }
    }
  });

  describe.skipIf(!hasPaper)('against the paper text', () => {
    const lines = hasPaper ? readFileSync(paperPath, 'utf8').split('\n') : [];

    it('prints each value on its source_line', () => {
      for (const r of rows) {
        expect(r.sourceLine, `${r.table} ${r.row}`).toBeLessThanOrEqual(lines.length);
        const line = lines[r.sourceLine - 1];
        const forms = printedForms(r);
        const expected = forms.length > 0 ? forms : [r.valueText];
        for (const f of expected) {
          expect(line, `${r.table} / ${r.row} / ${r.column} @${r.sourceLine}`).toContain(f);
        }
      }
    });

    it('names a section printed at or before source_line', () => {
      for (const r of rows) {
        const before = lines.slice(0, r.sourceLine);
        expect(
          before.some((l) => l.includes(r.section)),
          `${r.table} ${r.row}: section "${r.section}"`,
        ).toBe(true);
      }
    });

    it('uses the table title printed in the paper for Table N rows', () => {
      for (const t of new Set(rows.map((r) => r.table).filter((t) => /^Table \d+$/.test(t)))) {
        expect(
          lines.some((l) => l.startsWith(`${t}:`)),
          t,
        ).toBe(true);
      }
    });
  });
});

describe('InMind Table 1', () => {
  const t1 = inmind.filter((r) => r.table === 'Table 1');
  const systemRows = new Set(t1.map((r) => `${r.row} | ${r.variant}`));

  it('has 16 system rows (backbone + 3 Naive RAG + 6 systems × 2 embeddings) and 93 cells', () => {
    expect(systemRows.size).toBe(16);
    // 16 rows × 6 columns, less the three cells printed as "–" in the backbone row.
    expect(t1).toHaveLength(16 * 6 - 3);
    const groups = new Map<string, number>();
    for (const r of t1)
      groups.set(r.note.split(';')[0], (groups.get(r.note.split(';')[0]) ?? 0) + 1);
    expect(Object.fromEntries(groups)).toEqual({
      'group: Backbone Control': 3,
      'group: Naive RAG': 18,
      'group: MiniLM': 36,
      'group: text-embedding-3-large': 36,
    });
  });

  it('omits the backbone cells printed as "–"', () => {
    const backbone = t1.filter((r) => r.system === 'Backbone').map((r) => r.metric);
    expect(backbone).toEqual(['target_recall', 'application', 'delta_app_recall']);
  });

  it('matches literal cells read from the paper', () => {
    expect(cell(t1, 'Table 1', 'BM25 (Robertson and Zaragoza, 2009)', 'Naive').valueText).toBe(
      '53.6',
    );
    expect(cell(t1, 'Table 1', 'Backbone (GPT-5-mini)', 'Application').valueText).toBe('84.0');
    expect(cell(t1, 'Table 1', 'Backbone (GPT-5-mini)', 'Target Recall').valueText).toBe('100.0');
    expect(
      cell(t1, 'Table 1', 'Backbone (GPT-5-mini)', '$\\Delta_{\\text{App.--Recall}}$').valueText,
    ).toBe('-16.0');
    const mos = cell(t1, 'Table 1', 'MemoryOS (Kang et al., 2025)', 'Application', {
      variant: 'text-embedding-3-large',
    });
    expect(mos.valueText).toBe('14.4');
    expect(mos.system).toBe('MemoryOS');
    expect(mos.sourceLine).toBe(141);
    expect(
      cell(t1, 'Table 1', 'Dense (MiniLM) (Wang et al., 2020)', '$\\Delta_{\\text{App.--Recall}}$')
        .valueText,
    ).toBe('+8.8');
    expect(
      cell(t1, 'Table 1', 'xMemory (Hu et al., 2026)', '$\\Delta_{\\text{App.--Recall}}$', {
        variant: 'text-embedding-3-large',
      }).valueText,
    ).toBe('0.0');
    expect(
      cell(t1, 'Table 1', 'A-Mem (Xu et al., 2025)', 'Naive', { variant: 'text-embedding-3-large' })
        .valueText,
    ).toBe('100.0');
    expect(
      cell(
        t1,
        'Table 1',
        'HippoRAG 2 (Gutierrez et al., 2025)',
        '$\\Delta_{\\text{Recall--Naive}}$',
        {
          variant: 'MiniLM',
        },
      ).value,
    ).toBe(-92.8);
    expect(cell(t1, 'Table 1', 'Dense (emb3-large) (OpenAI, 2024a)', 'Application').value).toBe(16);
  });

  it('uses % for scores and pp for the Δ columns', () => {
    for (const r of t1) expect(r.unit).toBe(r.metric.startsWith('delta_') ? 'pp' : '%');
  });

  it('has Δ columns equal to the differences of the printed scores', () => {
    const byRow = new Map<string, Map<string, number>>();
    for (const r of t1) {
      const k = `${r.row} | ${r.variant}`;
      if (!byRow.has(k)) byRow.set(k, new Map());
      byRow.get(k)!.set(r.metric, r.value);
    }
    for (const [k, m] of byRow) {
      const check = (d: string, a: string, b: string) => {
        if (m.has(d) && m.has(a) && m.has(b)) {
          expect(m.get(d)!, `${k} ${d}`).toBeCloseTo(m.get(a)! - m.get(b)!, 5);
        }
      };
      check('delta_recall_naive', 'target_recall', 'naive');
      check('delta_app_recall', 'application', 'target_recall');
      check('delta_app_naive', 'application', 'naive');
    }
  });
});

describe('InMind Table 2', () => {
  const t2 = inmind.filter((r) => r.table === 'Table 2');
  const D = '$\\Delta_{\\text{Indirect--Backbone}}$';

  it('has 8 cells (backbone Naive printed as "–")', () => {
    expect(t2).toHaveLength(8);
  });

  it('matches literal cells read from the paper', () => {
    expect(cell(t2, 'Table 2', 'Backbone (GPT-5-mini)', 'Indirect').valueText).toBe('84.0');
    expect(cell(t2, 'Table 2', 'Backbone (GPT-5-mini)', D).valueText).toBe('0.0');
    expect(cell(t2, 'Table 2', 'Best retrieval configuration', 'Naive').valueText).toBe('97.6');
    expect(cell(t2, 'Table 2', 'Best retrieval configuration', D).valueText).toBe('-68.0');
    expect(cell(t2, 'Table 2', 'Always-in-state (GPT-5-mini)', 'Naive').valueText).toBe('98.4');
    expect(cell(t2, 'Table 2', 'Always-in-state (GPT-5-mini)', 'Indirect').valueText).toBe('68.8');
    expect(cell(t2, 'Table 2', 'Always-in-state (GPT-5-mini)', D).valueText).toBe('-15.2');
  });

  it('has Δ equal to Indirect minus the backbone', () => {
    const backbone = cell(t2, 'Table 2', 'Backbone (GPT-5-mini)', 'Indirect').value;
    for (const r of t2.filter((x) => x.column === D)) {
      const indirect = cell(t2, 'Table 2', r.row, 'Indirect').value;
      expect(r.value).toBeCloseTo(indirect - backbone, 5);
    }
  });
});

describe('InMind Table 4', () => {
  const t4 = inmind.filter((r) => r.table === 'Table 4');

  it('has 16 configurations × (correct, total, accuracy)', () => {
    expect(new Set(t4.map((r) => r.row)).size).toBe(16);
    expect(t4).toHaveLength(48);
    for (const r of t4.filter((x) => x.metric === 'answer_only_total')) expect(r.value).toBe(125);
  });

  it('matches literal cells read from the paper', () => {
    const m = { metric: 'answer_only_correct' };
    expect(cell(t4, 'Table 4', 'Backbone (GPT-5-mini)', 'Correct', m).value).toBe(107);
    expect(cell(t4, 'Table 4', 'Backbone (GPT-5-mini)', 'Accuracy (%)').valueText).toBe('85.6');
    expect(cell(t4, 'Table 4', 'A-RAG, emb3-large', 'Correct', m).value).toBe(37);
    expect(cell(t4, 'Table 4', 'A-RAG, emb3-large', 'Accuracy (%)').valueText).toBe('29.6');
    expect(cell(t4, 'Table 4', 'Naive RAG, BM25', 'Accuracy (%)').valueText).toBe('18.4');
    expect(cell(t4, 'Table 4', 'MemoryOS, emb3-large', 'Accuracy (%)').valueText).toBe('26.4');
  });

  it('has accuracy = correct / 125', () => {
    for (const r of t4.filter((x) => x.metric === 'answer_only_accuracy')) {
      const n = cell(t4, 'Table 4', r.row, 'Correct', { metric: 'answer_only_correct' }).value;
      expect(r.value).toBeCloseTo((100 * n) / 125, 1);
    }
  });
});

describe('InMind Table 5', () => {
  const t5 = inmind.filter((r) => r.table === 'Table 5');

  it('has 4 judges × 5 numbers', () => {
    expect(t5).toHaveLength(20);
  });

  it('matches literal cells read from the paper', () => {
    expect(cell(t5, 'Table 5', 'Naive', 'Gold agreement', { metric: 'gold_agreement' }).value).toBe(
      84,
    );
    expect(
      cell(t5, 'Table 5', 'Naive', 'Gold agreement', { metric: 'audited_judgments' }).value,
    ).toBe(93);
    expect(cell(t5, 'Table 5', 'Naive', 'Accuracy (%)').valueText).toBe('90.3');
    expect(cell(t5, 'Table 5', 'Target Recall', 'Accuracy (%)').valueText).toBe('97.0');
    expect(cell(t5, 'Table 5', 'Original Application', 'False positive').value).toBe(15);
    expect(cell(t5, 'Table 5', 'Answer-only', 'False negative').value).toBe(1);
    expect(cell(t5, 'Table 5', 'Answer-only', 'False positive').value).toBe(8);
  });

  it('has disagreements = false negatives + false positives', () => {
    for (const judge of ['Naive', 'Target Recall', 'Original Application', 'Answer-only']) {
      const get = (column: string, metric?: string) =>
        cell(t5, 'Table 5', judge, column, metric ? { metric } : {}).value;
      const errors =
        get('Gold agreement', 'audited_judgments') - get('Gold agreement', 'gold_agreement');
      expect(get('False negative') + get('False positive'), judge).toBe(errors);
    }
  });
});

describe('InMind configuration tables', () => {
  const v = (table: string, metric: string, variant?: string) =>
    inmind.filter(
      (r) =>
        r.table === table &&
        r.metric === metric &&
        (variant === undefined || r.variant === variant),
    );
  const one = (table: string, metric: string, variant?: string) => {
    const hits = v(table, metric, variant);
    expect(hits, `${table} ${metric}`).toHaveLength(1);
    return hits[0];
  };

  it('transcribes no numbers from Tables 3, 7 and 16 (none are printed)', () => {
    for (const t of ['Table 3', 'Table 7', 'Table 16']) {
      expect(inmind.filter((r) => r.table === t)).toHaveLength(0);
    }
  });

  it('Table 6 (shared)', () => {
    expect(one('Table 6', 'task_count').value).toBe(125);
    expect(one('Table 6', 'answer_max_completion_tokens').value).toBe(16384);
    expect(one('Table 6', 'judge_max_completion_tokens').value).toBe(4096);
    expect(one('Table 6', 'background_sessions').value).toBe(47);
    expect(one('Table 6', 'graph_construction_workers').system).toBe('HippoRAG 2');
  });

  it('Table 8 (Naive RAG)', () => {
    expect(one('Table 8', 'corpus_chunks').value).toBe(486);
    expect(one('Table 8', 'target_chunk_index').value).toBe(487);
    expect(one('Table 8', 'top_k').value).toBe(5);
  });

  it('Table 9 (A-RAG)', () => {
    expect(one('Table 9', 'bank_sentence_units').value).toBe(4994);
    expect(one('Table 9', 'max_agent_loops').value).toBe(15);
    expect(one('Table 9', 'total_agent_token_budget')).toMatchObject({
      value: 128,
      unit: 'K tokens',
    });
    expect(one('Table 9', 'agent_temperature').value).toBe(0);
  });

  it('Table 10 (xMemory)', () => {
    expect(one('Table 10', 'buffer_size_min').value).toBe(2);
    expect(one('Table 10', 'buffer_size_max').value).toBe(25);
    expect(one('Table 10', 'top_k_episodic').value).toBe(3);
    expect(one('Table 10', 'top_k_semantic').value).toBe(5);
  });

  it('Table 11 (Mem0)', () => {
    expect(one('Table 11', 'updates_per_task').value).toBe(206);
    expect(one('Table 11', 'injection_after_user_turn').value).toBe(40);
    expect(one('Table 11', 'embedding_dimensions', 'text-embedding-3-large').value).toBe(3072);
    expect(one('Table 11', 'top_k').value).toBe(10);
    expect(one('Table 11', 'internal_temperature').valueText).toBe('0.1');
  });

  it('Table 12 (A-Mem)', () => {
    expect(one('Table 12', 'bank_notes').value).toBe(486);
    expect(one('Table 12', 'top_k').value).toBe(10);
    expect(one('Table 12', 'similarity_threshold').valueText).toBe('0.1');
  });

  it('Table 13 (HippoRAG 2)', () => {
    expect(one('Table 13', 'internal_temperature').value).toBe(0);
    expect(one('Table 13', 'top_k').value).toBe(5);
    expect(one('Table 13', 'answer_judge_workers').value).toBe(20);
  });

  it('Table 14 (MemoryOS)', () => {
    expect(one('Table 14', 'heat_threshold').valueText).toBe('5.0');
    expect(one('Table 14', 'similarity_threshold').valueText).toBe('0.6');
    expect(one('Table 14', 'mid_term_capacity').value).toBe(2000);
    expect(one('Table 14', 'short_term_capacity').value).toBe(10);
  });

  it('Table 15 (always-in-state)', () => {
    expect(one('Table 15', 'updater_max_output_tokens').value).toBe(8192);
    expect(one('Table 15', 'state_max_lines').value).toBe(200);
    expect(one('Table 15', 'state_max_bytes').value).toBe(25000);
    expect(one('Table 15', 'judge_max_output_tokens').value).toBe(4096);
  });
});

describe('InMind prose numbers', () => {
  it('§4.3 Wilson intervals and the backbone count', () => {
    const t = 'Text §4.3';
    expect(cell(inmind, t, 'Backbone (GPT-5-mini)', '95% Wilson interval (lower)').valueText).toBe(
      '76.6',
    );
    expect(cell(inmind, t, 'Backbone (GPT-5-mini)', '95% Wilson interval (upper)').valueText).toBe(
      '89.4',
    );
    expect(
      cell(inmind, t, 'Best retrieval configuration', '95% Wilson interval (lower)').valueText,
    ).toBe('10.6');
    expect(
      cell(inmind, t, 'Best retrieval configuration', '95% Wilson interval (upper)').valueText,
    ).toBe('23.4');
    expect(cell(inmind, t, 'Backbone (GPT-5-mini)', 'correct indirect answers').value).toBe(105);
    expect(cell(inmind, t, 'Backbone (GPT-5-mini)', '95% Wilson interval (lower)').sourceLine).toBe(
      145,
    );
  });

  it('§3 construction counts', () => {
    expect(cell(inmind, 'Text §3.1', 'Knowledge collections', 'sampled chunks').value).toBe(3380);
    expect(cell(inmind, 'Text §3.3', 'Similarity filter', 'discarded candidates').value).toBe(700);
    expect(cell(inmind, 'Text §3.3', 'Evaluation set', 'expert-authored tasks').value).toBe(12);
  });

  it('§4.5 embedding swap pairs agree with Table 1', () => {
    const t45 = inmind.filter(
      (r) => r.table === 'Text §4.5' && /^(target recall|application) \(/.test(r.column),
    );
    expect(t45).toHaveLength(18);
    for (const r of t45) {
      const t1 = inmind.filter(
        (x) =>
          x.table === 'Table 1' &&
          x.system === r.system &&
          x.variant === r.variant &&
          x.metric === r.metric,
      );
      expect(t1, `${r.row} ${r.column}`).toHaveLength(1);
      expect(t1[0].valueText, `${r.row} ${r.column}`).toBe(r.valueText);
    }
  });

  it('§12 Task 155 judge scores', () => {
    expect(
      cell(inmind, 'Text §12', 'xMemory (emb3-large)', 'indirect response judge score').value,
    ).toBe(0);
    expect(
      cell(inmind, 'Text §12', 'xMemory (emb3-large)', 'naive response judge score').value,
    ).toBe(1);
  });
});

describe('UtilMem summary numbers', () => {
  const u = (table: string, row: string, column: string) => cell(utilmem, table, row, column);

  it('§5.1 NR/DR per system', () => {
    const t = 'Summary: §5.1 system results';
    expect(u(t, 'Mem0', 'NR').valueText).toBe('17.3');
    expect(u(t, 'Mem0', 'DR').valueText).toBe('98.3');
    expect(u(t, 'Mem0+Graph', 'NR').valueText).toBe('18.9');
    expect(u(t, 'Mem0+Graph', 'DR').valueText).toBe('97.8');
    expect(u(t, 'A-MEM', 'NR').valueText).toBe('56.0');
    expect(u(t, 'A-MEM', 'DR').valueText).toBe('54.4');
    const r3 = 'MemOS, LangMem, and Ever-MemOS';
    expect(u(t, r3, 'NR (range lower)').valueText).toBe('40.7');
    expect(u(t, r3, 'NR (range upper)').valueText).toBe('48.4');
    expect(u(t, r3, 'DR (range lower)').valueText).toBe('69.0');
    expect(u(t, r3, 'DR (range upper)').valueText).toBe('80.6');
  });

  it('§5.2 recall vs RS', () => {
    const t = 'Summary: §5.2 recall vs RS';
    expect(u(t, 'High-recall instances', 'recall threshold (at least)').valueText).toBe('0.8');
    expect(u(t, 'High-recall instances', 'mean RS (range lower)').valueText).toBe('6.4');
    expect(u(t, 'High-recall instances', 'mean RS (range upper)').valueText).toBe('7.9');
    expect(u(t, 'Mental Wellness', 'degraded instances').value).toBe(53);
    expect(u(t, 'Document Analysis', 'degraded instances').value).toBe(29);
  });

  it('§5.3 noise sensitivity at k = 40 and k75%', () => {
    const t = 'Summary: §5.3 noise sensitivity';
    expect(u(t, 'Qwen3-30B', 'NR at k = 40').valueText).toBe('47.4');
    expect(u(t, 'Qwen3-235B', 'NR at k = 40').valueText).toBe('56.0');
    expect(u(t, 'Qwen3-Max', 'NR at k = 40').valueText).toBe('57.2');
    expect(u(t, 'Qwen3-30B', 'DR at k = 40')).toMatchObject({ valueText: '73.6', unit: '%' });
    expect(u(t, 'Qwen3-235B', 'DR at k = 40').valueText).toBe('57.6');
    expect(u(t, 'Qwen3-Max', 'DR at k = 40').valueText).toBe('53.2');
    expect(u(t, 'Strong noise', 'recall@k at k = 40').valueText).toBe('1.0');
    expect(u(t, 'Qwen3-30B', 'k75%').valueText).toBe('1.5');
    expect(u(t, 'Qwen3-235B', 'k75%').valueText).toBe('1.7');
    expect(u(t, 'Qwen3-Max', 'k75%').valueText).toBe('2.2');
    expect(u(t, 'Marginal NR loss', 'saturation k (approximately)').value).toBe(10);
  });

  it('appendix statistics and judge agreement', () => {
    const a = 'Summary: App. A benchmark statistics';
    expect(
      utilmem
        .filter(
          (r) => r.table === a && r.metric === 'median_evidence_sessions' && r.system === 'UtilMem',
        )
        .map((r) => r.value),
    ).toEqual([6, 3, 4, 6, 5]);
    expect(u(a, 'LONGMEMEVAL-S', 'median evidence sessions').value).toBe(2);
    expect(u(a, 'Document Analysis', 'evidence tokens per sample')).toMatchObject({
      value: 46,
      unit: 'K tokens',
    });
    expect(u(a, 'UtilMem', 'mean per-sample token budget').value).toBe(120);
    expect(u(a, 'LONGMEMEVAL-S', 'mean per-sample token budget').value).toBe(122);
    const d = 'Summary: App. D judge agreement';
    expect(u(d, 'Judge pairs', 'differ by at most one point').valueText).toBe('82.94');
    expect(u(d, 'Judge pairs', 'differ by at most two points').valueText).toBe('93.65');
    expect(u(d, 'Judge correlations', 'correlation (above)').valueText).toBe('0.84');
  });

  it('benchmark size and protocol constants', () => {
    expect(u('Summary: TL;DR', 'UtilMem benchmark', 'instances').value).toBe(1717);
    expect(u('Summary: Abstract', 'UtilMem benchmark', 'instances').value).toBe(1717);
    expect(
      u('Summary: §4 metrics', 'Degradation Rate (DR)', 'score threshold (at most)').value,
    ).toBe(6);
    expect(
      u(
        'Summary: App. B model settings',
        'Conversational synthesis and distractor generation',
        'temperature',
      ).valueText,
    ).toBe('0.7');
    expect(
      u(
        'Summary: App. E.4 Mem0 failure cases',
        'Learning Support: Creative-Writing Leakage',
        'score',
      ).valueText,
    ).toBe('1.5');
  });
});
