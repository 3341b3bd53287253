// UtilMem: released results only (no files, no protocol).
import type { BenchmarkDef } from '../benchmark-def.ts';

export const UTILMEM = {
  id: 'utilmem',
  label: 'UtilMem',
  paper: 'utilmem',
  page: { kind: 'paper', navLabel: 'UtilMem' },
  dataset: null,
  protocols: [],
  overview: [
    `SELECT 'asked', 'Evidence retrieved: recall@k × 100', value * 100, 'Qwen3 backbones, strong noise, k = 40', *
  FROM results WHERE paper = 'utilmem' AND metric = 'recall_at_k'`,
    `SELECT 'used', 'Normalized Robustness of the answer (NR)', value, system || ', strong noise, k = 40', *
  FROM results WHERE paper = 'utilmem' AND metric = 'nr' AND variant = 'strong noise, k=40'`,
  ],
} as const satisfies BenchmarkDef;
