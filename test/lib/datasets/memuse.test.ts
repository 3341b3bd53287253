import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { memuseTables, type MemuseTables } from '../../../src/lib/datasets/memuse.ts';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/data');
const FILE = path.join(DATA, 'memuse/instances.test.first3.jsonl');

function instance(trigger: string): string {
  return JSON.stringify({
    instance_id: 'pos_x',
    user_id: 'u',
    event_type: 'user_memory_probe',
    trigger_session_idx: 1,
    input: {
      sessions: [
        {
          session_idx: 0,
          date: 'd0',
          turns: [
            { role: 'user', content: 'a' },
            { role: 'assistant', content: 'b' },
          ],
        },
      ],
      current_session: { session_idx: 1, date: 'd1', turns: [{ role: 'user', content: trigger }] },
      trigger_quote: trigger,
    },
    target: { ground_truth: 'g', sub_questions: [{ question: 'q', answer: 'a' }] },
  });
}

describe('memuseTables (synthetic)', () => {
  it('flags the current session and passes text through untouched', () => {
    const text = '[CLS]<img src=x onerror=alert(1)>';
    const t = memuseTables(`${instance(text)}\n`, 'm.jsonl');
    expect(t.turns.map((r) => [r.dia_id, r.turn_index, r.speaker, r.is_current_session])).toEqual([
      ['S0:0', 0, 'user', false],
      ['S0:1', 1, 'assistant', false],
      ['S1:0', 2, 'user', true],
    ]);
    expect(t.turns[2].text).toBe(text);
    expect(t.queries[0]).toMatchObject({ text, answer: 'g', gold_ids: [], style: 'trigger' });
    expect(t.memuse_instances[0]).toMatchObject({ judge_trigger: null, judge_expected: null });
  });

  it('names file, line and path of a bad field', () => {
    const bad = instance('t').replace('"role":"assistant"', '"role":3');
    expect(() => memuseTables(`${instance('t')}\n${bad}\n`, 'm.jsonl')).toThrow(
      'm.jsonl:2 at input.sessions[0].turns[1].role: expected a string, found number 3',
    );
  });

  it('names file and line of a malformed JSON line', () => {
    expect(() => memuseTables(`${instance('t')}\n{"instance_id": \n`, 'm.jsonl')).toThrow(
      /^m\.jsonl:2:\d+: expected valid JSON/,
    );
  });
});

describe.skipIf(!existsSync(FILE))('memuseTables (instances.test.first3.jsonl)', () => {
  let t: MemuseTables;
  beforeAll(() => {
    t = memuseTables(readFileSync(FILE, 'utf8'), 'instances.test.first3.jsonl');
  });

  it('has 3 instances with their sessions and turns', () => {
    expect(t.conversations.map((c) => [c.conv_id, c.sessions, c.turns])).toEqual([
      ['pos_001', 5, 65],
      ['pos_002', 8, 91],
      ['pos_003', 12, 127],
    ]);
    expect(t.memuse_instances.map((i) => i.trigger_session_idx)).toEqual([4, 7, 11]);
    expect(t.memuse_sub_questions).toHaveLength(12);
    expect(t.sessions.filter((s) => s.is_current).map((s) => s.session)).toEqual([4, 7, 11]);
  });

  it('has the trigger quote as the last turn of the current session', () => {
    for (const q of t.queries) {
      const turns = t.turns.filter((r) => r.conv_id === q.conv_id);
      const last = turns[turns.length - 1];
      expect(last).toMatchObject({ speaker: 'user', is_current_session: true, text: q.text });
    }
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
  });
});
