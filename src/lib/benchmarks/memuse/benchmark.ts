// MemUse: its instances and released results; no retrieval protocol.
import { memuseTables } from '../../datasets/memuse.ts';
import type { BenchmarkDef, FetchFirst } from '../benchmark-def.ts';

async function loadMemuse(fetchFirst: FetchFirst) {
  const f = await fetchFirst(['memuse-instances', 'memuse-instances-first3']);
  const t = memuseTables(f.text, f.label);
  return {
    ...t,
    extras: {
      memuse_sub_questions: t.memuse_sub_questions,
      memuse_instances: t.memuse_instances,
    },
    files: { memuse: f.label },
  };
}

export const MEMUSE = {
  id: 'memuse',
  label: 'MemUse',
  paper: 'memuse',
  page: { kind: 'paper', navLabel: 'MemUse' },
  dataset: {
    phase: 'benchmarks',
    required: false,
    sourceIds: ['memuse-instances', 'memuse-instances-first3'],
    tables: ['conversations', 'turns', 'queries', 'memuse_instances', 'memuse_sub_questions'],
    load: loadMemuse,
  },
  protocols: [],
  overview: [
    {
      side: 'asked',
      measure: 'Direct QA',
      pct: 'value',
      who: '"row"',
      where: `paper = 'memuse' AND "table" = 'Figure 1' AND metric = 'direct_qa'`,
    },
    {
      side: 'used',
      measure: 'Natural Integration',
      pct: 'value',
      who: '"row"',
      where: `paper = 'memuse' AND "table" = 'Figure 1' AND metric = 'natural_integration'`,
    },
  ],
} as const satisfies BenchmarkDef;
