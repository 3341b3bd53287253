import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inmindTaskRows, lmeBackgroundRows } from '../../../../src/lib/datasets/inmind.ts';

const DATA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/data',
);
const read = (rel: string) => readFileSync(path.join(DATA, rel), 'utf8');

export const tasks = () => inmindTaskRows(read('inmind/inmind_en.jsonl'));
export const background = () =>
  lmeBackgroundRows(read('inmind/lme_s_background.jsonl')).map((r) => r.content);
