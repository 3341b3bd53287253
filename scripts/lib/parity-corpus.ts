// The texts real-model parity is checked on: every InMind task's stored fact and both queries,
// every LME-s background turn (the long ones included) and LoCoMo turns, read straight from the
// site's benchmark files so that the corpus is the same wherever `npm run data` has run.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SITE_DATA = path.join(root, 'public/data');

export interface ParityText {
  source: 'inmind' | 'lme-s' | 'locomo';
  /** Where the text comes from, e.g. `inmind#86.query`. */
  id: string;
  text: string;
}

function jsonl(text: string, file: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new Error(`${file}:${i + 1}: expected an object`);
      }
      return value as Record<string, unknown>;
    });
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

export async function inmindTexts(dataDir = SITE_DATA): Promise<ParityText[]> {
  const file = path.join(dataDir, 'inmind/inmind_en.jsonl');
  const out: ParityText[] = [];
  for (const task of jsonl(await readFile(file, 'utf8'), file)) {
    for (const field of ['user_message', 'naive_query', 'query'] as const) {
      const text = str(task[field]);
      if (text) out.push({ source: 'inmind', id: `inmind#${String(task.task_id)}.${field}`, text });
    }
  }
  return out;
}

export async function lmeTexts(dataDir = SITE_DATA): Promise<ParityText[]> {
  const file = path.join(dataDir, 'inmind/lme_s_background.jsonl');
  return jsonl(await readFile(file, 'utf8'), file).flatMap((turn) => {
    const text = str(turn.content);
    return text ? [{ source: 'lme-s' as const, id: `lme-s#${String(turn.id)}`, text }] : [];
  });
}

export async function locomoTexts(limit: number, dataDir = SITE_DATA): Promise<ParityText[]> {
  const file = path.join(dataDir, 'locomo/locomo10.json');
  const samples: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!Array.isArray(samples)) throw new Error(`${file}: expected an array`);
  const out: ParityText[] = [];
  for (const sample of samples) {
    const conversation: unknown = sample?.conversation;
    if (typeof conversation !== 'object' || conversation === null) continue;
    for (const [key, session] of Object.entries(conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(session)) continue;
      for (const turn of session) {
        const text = str(turn?.text);
        if (text && out.length < limit) {
          out.push({ source: 'locomo', id: `locomo#${String(turn.dia_id)}`, text });
        }
      }
    }
  }
  return out;
}

/** ≥ 1,000 texts: all of InMind and LME-s, then LoCoMo turns up to `total`. */
export async function parityCorpus(total = 1200, dataDir = SITE_DATA): Promise<ParityText[]> {
  const fixed = [...(await inmindTexts(dataDir)), ...(await lmeTexts(dataDir))];
  return [...fixed, ...(await locomoTexts(Math.max(0, total - fixed.length), dataDir))];
}
