// UtilMem: released results only (no files, no protocol).
import type { BenchmarkDef } from '../benchmark-def.ts';

export const UTILMEM = {
  id: 'utilmem',
  label: 'UtilMem',
  paper: 'utilmem',
  page: { kind: 'paper', navLabel: 'UtilMem' },
  dataset: null,
  protocols: [],
} as const satisfies BenchmarkDef;
