import { defineChart, type ChartDef } from './chart-kit.ts';
import {
  inmindTable1ScoresSql,
  inmindTable1Spec,
  table1Row,
  type EmbeddingChoice,
} from './inmind-table1.ts';
import { deltaRow, inmindDeltaSpec, inmindTable1DeltasSql } from './inmind-deltas.ts';
import { INMIND_TABLE2_SQL, inmindTable2Spec, table2Row } from './inmind-table2.ts';
import {
  MEMUSE_FIGURE1_SQL,
  MEMUSE_TABLE13_SQL,
  MEMUSE_TABLE14_SQL,
  memuseFigure1Spec,
  memuseTable13Spec,
  memuseTable14Spec,
  conditionRow,
  table13Row,
  table14Row,
} from './memuse.ts';
import {
  UTILMEM_NOISE_K40_SQL,
  UTILMEM_NOISE_K_SQL,
  UTILMEM_SYSTEMS_SQL,
  utilmemNoiseK40Spec,
  utilmemNoiseKSpec,
  utilmemSystemsSpec,
  noiseKRow,
  noiseRow,
  systemRow,
} from './utilmem.ts';

export interface PaperInfo {
  /** The paper's id in the benchmark registry. */
  id: string;
  /** Nav label and page id. */
  label: string;
  title: string;
  citation: string;
  /** The text the CSV was transcribed from (`source_line` counts its lines). */
  textFile: string;
  intro: string;
  /** One line for the overview page. */
  teaser: string;
  /** What the page cannot draw, and why (see docs/results.md). */
  notCharted: string[];
}

/** InMind's arXiv id, here (first load) for the InMind page's link; benchmarks/paper-refs.ts has the rest. */
export const INMIND_ARXIV = '2607.24368';

/** The papers whose benchmark folder does not hold its page yet (benchmarks/papers.ts adds the rest). */
export const PAPER_INFO_HERE: Readonly<Record<string, PaperInfo>> = {
  inmind: {
    id: 'inmind',
    label: 'InMind',
    title: 'Keep It InMind: Benchmarking the Implicit-Association Blind Spot in Agent Memory',
    citation: `Keep It InMind: Benchmarking the Implicit-Association Blind Spot in Agent Memory. arXiv:${INMIND_ARXIV}.`,
    textFile: 'inmind.txt',
    intro: '',
    teaser: '125 tasks where a stored fact matters to a question that never mentions it.',
    notCharted: [],
  },
  memuse: {
    id: 'memuse',
    label: 'MemUse',
    title:
      'MemUse: Moving Memory Evaluation from Direct QA to Natural Integration in Long-Term Human-AI Conversation',
    citation:
      'Sumida, Inoue and Kawahara. MemUse: Moving Memory Evaluation from Direct QA to Natural Integration in Long-Term Human-AI Conversation. 2026.',
    textFile: 'memuse.txt',
    intro:
      'MemUse ran a four-month deployment with real users under seven memory conditions (a running summary, part or all of the history in the context window, or retrieval). More memory makes the model answer more questions about the past when asked (Direct QA, and accuracy on existing benchmarks), but users are not more satisfied, and the model rarely brings the memory into its natural replies (Natural Integration).',
    teaser:
      'A four-month deployment with 40 users: satisfaction follows natural integration, not Direct QA.',
    notCharted: [
      'Figure 1 has no numbers in the text; its caption points to Table 18, so the chart draws the Figure 1 rows read from Table 18. Only the GPT-4.1-mini series for Summary, LC-10, LC-50, LC-100 and RAG-10 is in the extraction; the GPT-5.5 and Gemini 3.1 Pro series and RAG-50/RAG-100 are not.',
      'Table 13 lacks the RAG rows in the extraction; RAG-100 is missing from every per-condition table.',
    ],
  },
  utilmem: {
    id: 'utilmem',
    label: 'UtilMem',
    title: 'UtilMem: Benchmarking Evidence Utilization in Long-Term Conversational Memory',
    citation:
      'Qing, Shi and Vosoughi. UtilMem: Benchmarking Evidence Utilization in Long-Term Conversational Memory. arXiv:2608.30508v1. Numbers from a source-linked summary, not the paper.',
    textFile: 'utilmem-summary.txt',
    intro:
      'UtilMem asks memory systems to write long, task-oriented answers from evidence spread over many sessions, among distractors that look like the evidence. Normalized Robustness (NR) is the share of the clean-evidence answer quality a system keeps; Degradation Rate (DR) is the share of answers that lose something the user needed. Mem0, which compresses conversations into facts, keeps under a fifth of the quality; and even with every evidence session retrieved, a few distractors cut NR to about half.',
    teaser: 'Long answers from evidence spread over many sessions, among look-alike distractors.',
    notCharted: [
      'The summary prints no tables: per-system values for MemOS, LangMem and EverMemOS (only a joint range), NaiveRAG baselines, and the NR-vs-k and recall-vs-RS curves are not given as numbers.',
      '§5.2 (mean RS 6.4–7.9 at recall ≥ 0.8; 53% and 29% degraded) is a range and two domain figures on different scales; it stays in the CSV and the text.',
    ],
  },
};

export function inmindCharts(embedding: EmbeddingChoice = 'both'): ChartDef[] {
  const suffix = embedding === 'both' ? '' : ` (memory systems on ${embedding})`;
  return [
    defineChart({
      id: 'inmind-table1',
      title: `Table 1: naive recall, target recall and application (%)${suffix}`,
      source: 'InMind §4.2 Main Results, Table 1',
      sql: inmindTable1ScoresSql(embedding),
      decode: table1Row,
      spec: (rows) => inmindTable1Spec(rows),
    }),
    defineChart({
      id: 'inmind-table1-delta',
      title: `Table 1, Δ columns: where the score is lost (percentage points)${suffix}`,
      source: 'InMind §4.2 Main Results, Table 1',
      sql: inmindTable1DeltasSql(embedding),
      decode: deltaRow,
      spec: (rows) => inmindDeltaSpec(rows),
    }),
    defineChart({
      id: 'inmind-table2',
      title: 'Table 2: keeping the memory in state recovers most of the gap',
      source: 'InMind §5.2 Keeping Memory Visible Recovers the Gap, Table 2',
      sql: INMIND_TABLE2_SQL,
      decode: table2Row,
      spec: (rows) => inmindTable2Spec(rows),
    }),
  ];
}

/** Their charts, likewise. */
export const PAPER_CHARTS_HERE: Readonly<Record<string, ChartDef[]>> = {
  inmind: inmindCharts(),
  memuse: [
    defineChart({
      id: 'memuse-figure1',
      title: 'Figure 1: Direct QA against Natural Integration (values from Table 18)',
      source: 'MemUse Figure 1 → Appendix, Table 18',
      sql: MEMUSE_FIGURE1_SQL,
      decode: conditionRow,
      spec: (rows) => memuseFigure1Spec(rows),
    }),
    defineChart({
      id: 'memuse-table13',
      title: 'Table 13: more memory capacity, same satisfaction',
      source: 'MemUse Appendix, Table 13',
      sql: MEMUSE_TABLE13_SQL,
      decode: table13Row,
      spec: (rows) => memuseTable13Spec(rows),
    }),
    defineChart({
      id: 'memuse-table14',
      title: 'Table 14: accuracy on existing QA benchmarks per memory condition',
      source: 'MemUse Appendix, Table 14',
      sql: MEMUSE_TABLE14_SQL,
      decode: table14Row,
      spec: (rows) => memuseTable14Spec(rows),
    }),
  ],
  utilmem: [
    defineChart({
      id: 'utilmem-systems',
      title: 'NR and DR per memory system',
      source:
        'UtilMem summary §5.1 Compression-Heavy Systems on Detail-Sensitive Utilization Tasks',
      sql: UTILMEM_SYSTEMS_SQL,
      decode: systemRow,
      spec: (rows) => utilmemSystemsSpec(rows),
    }),
    defineChart({
      id: 'utilmem-noise-k40',
      title: 'Strong noise at k = 40: everything retrieved, half the quality kept',
      source: 'UtilMem summary §5.3 Sensitivity to Retrieval Interference',
      sql: UTILMEM_NOISE_K40_SQL,
      decode: noiseRow,
      spec: (rows) => utilmemNoiseK40Spec(rows),
    }),
    defineChart({
      id: 'utilmem-noise-k',
      title:
        'The noise curve, as far as the summary prints it: the first few distractors do the damage',
      source: 'UtilMem summary §5.3 Sensitivity to Retrieval Interference',
      sql: UTILMEM_NOISE_K_SQL,
      decode: noiseKRow,
      spec: (rows) => utilmemNoiseKSpec(rows),
    }),
  ],
};
