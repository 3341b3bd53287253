// The texts the embedding benchmarks time: LME-s's background turns, in the page's order.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { inPageOrder, lmeBackgroundRows } from '../../src/lib/datasets/inmind.ts';
import { repoRoot } from './site-build.ts';

/** The page's order: DuckDB's `ORDER BY session_index, turn_index, id`. */
export async function lmeTurns(): Promise<string[]> {
  const file = path.join(repoRoot, 'public/data/inmind/lme_s_background.jsonl');
  const rows = lmeBackgroundRows(await readFile(file, 'utf8'));
  return inPageOrder(rows).map((r) => r.content);
}
