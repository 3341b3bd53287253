import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonDocument } from '../../../src/lib/datasets/jsonl.ts';
import {
  locomoPlusTables,
  splitSpeaker,
  type LocomoPlusTables,
} from '../../../src/lib/datasets/locomo-plus.ts';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/data');
const FILE = path.join(DATA, 'locomo-plus/locomo_plus.json');

const ITEM = {
  relation_type: 'goal',
  cue_dialogue: 'A: [CLS]<img src=x onerror=alert(1)>\nB: ok',
  trigger_query: 'A: later',
  time_gap: 'one week later',
  model_name: 'm',
  scores: { bge: 0.5 },
  ranks: { bge: 3 },
  final_similarity_score: 0.5,
};

describe('splitSpeaker', () => {
  it('splits a speaker prefix and leaves other lines whole', () => {
    expect(splitSpeaker('A: hi: there')).toEqual({ speaker: 'A', text: 'hi: there' });
    expect(splitSpeaker('see http://x')).toEqual({ speaker: '', text: 'see http://x' });
  });
});

describe('locomoPlusTables (synthetic)', () => {
  it('turns cue lines into turns and the trigger into a query', () => {
    const t = locomoPlusTables([ITEM], 'p.json');
    expect(t.turns.map((r) => [r.conv_id, r.dia_id, r.speaker, r.text])).toEqual([
      ['lp-0', 'cue:1', 'A', '[CLS]<img src=x onerror=alert(1)>'],
      ['lp-0', 'cue:2', 'B', 'ok'],
    ]);
    expect(t.queries[0]).toMatchObject({
      style: 'trigger',
      text: 'later',
      gold_ids: ['cue:1', 'cue:2'],
    });
    expect(t.locomo_plus_items[0]).toMatchObject({
      score_bge: 0.5,
      rank_bge: 3,
      score_mpnet: null,
    });
  });

  it('names file and path of a bad score', () => {
    const bad = { ...ITEM, ranks: { bge: 'x' } };
    expect(() => locomoPlusTables([ITEM, bad], 'p.json')).toThrow(
      'p.json at [1].ranks.bge: expected an integer, found a string "x"',
    );
  });
});

describe('locomoPlusTables (locomo_plus.json)', () => {
  let t: LocomoPlusTables;
  beforeAll(() => {
    t = locomoPlusTables(parseJsonDocument(readFileSync(FILE, 'utf8'), 'locomo_plus.json'));
  });

  it('has 401 items, one trigger query each, 758 cue turns', () => {
    expect(t.locomo_plus_items).toHaveLength(401);
    expect(t.queries).toHaveLength(401);
    expect(t.turns).toHaveLength(758);
    expect(new Set(t.locomo_plus_items.map((r) => r.relation_type))).toEqual(
      new Set(['causal', 'state', 'goal', 'value']),
    );
  });

  it('carries the released scores and ranks', () => {
    const first = t.locomo_plus_items[0];
    expect(first).toMatchObject({
      relation_type: 'causal',
      time_gap: 'two weeks later',
      rank_combined: 20,
    });
    expect(t.locomo_plus_items.every((r) => r.score_combined === r.final_similarity_score)).toBe(
      true,
    );
    expect(t.queries[0].text).toBe(
      "I ended up volunteering for that project, and now I'm totally overwhelmed.",
    );
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
  });
});
