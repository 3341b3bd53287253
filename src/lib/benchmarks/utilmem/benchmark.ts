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
    {
      side: 'asked',
      measure: 'Evidence retrieved: recall@k',
      pct: 'value * 100',
      who: `'Qwen3 backbones, strong noise, k = 40'`,
      where: `paper = 'utilmem' AND metric = 'recall_at_k'`,
    },
    {
      side: 'used',
      measure: 'Normalized Robustness of the answer (NR)',
      pct: 'value',
      who: `system || ', strong noise, k = 40'`,
      where: `paper = 'utilmem' AND metric = 'nr' AND variant = 'strong noise, k=40'`,
    },
  ],
} as const satisfies BenchmarkDef;
