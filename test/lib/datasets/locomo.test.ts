import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonDocument } from '../../../src/lib/datasets/jsonl.ts';
import {
  locomoTables,
  normalizeEvidence,
  type LocomoTables,
} from '../../../src/lib/datasets/locomo.ts';
import { DatasetFormatError } from '../../../src/lib/datasets/validate.ts';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/data');
const FILE = path.join(DATA, 'locomo/locomo10.json');

function sample(qa: unknown[] = []): Record<string, unknown> {
  return {
    sample_id: 's1',
    conversation: {
      speaker_a: 'Ann',
      speaker_b: 'Bob',
      session_2_date_time: 'later',
      session_2: [{ speaker: 'Bob', dia_id: 'D2:1', text: 'second' }],
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'Ann', dia_id: 'D1:1', text: '[CLS]<img src=x onerror=alert(1)>' },
        { speaker: 'Bob', dia_id: 'D1:2', text: 'look', img_url: ['u'], blip_caption: 'a photo' },
      ],
    },
    qa,
  };
}

describe('normalizeEvidence', () => {
  it('splits joined ids and reports malformed tokens', () => {
    expect(normalizeEvidence(['D8:6; D9:17', 'D', 'D:11:26', 'D1:2 D1:3,D1:2'])).toEqual({
      ids: ['D8:6', 'D9:17', 'D1:2', 'D1:3'],
      malformed: ['D', 'D:11:26'],
    });
  });
});

describe('locomoTables (synthetic)', () => {
  it('orders sessions numerically, numbers turns across sessions, keeps text untouched', () => {
    const t = locomoTables([sample()], 'mini.json');
    expect(t.sessions.map((s) => [s.session, s.date, s.turn_count])).toEqual([
      [1, '1:56 pm on 8 May, 2023', 2],
      [2, 'later', 1],
    ]);
    expect(t.turns.map((r) => [r.dia_id, r.turn_index])).toEqual([
      ['D1:1', 0],
      ['D1:2', 1],
      ['D2:1', 2],
    ]);
    expect(t.turns[0].text).toBe('[CLS]<img src=x onerror=alert(1)>');
    expect(t.turns[1]).toMatchObject({ caption: 'a photo', img_url: 'u' });
    expect(t.turns[0]).toMatchObject({ caption: null, img_url: null });
  });

  it('names the file and JSON path of a bad field', () => {
    const doc = [sample([{ question: 'q', answer: 'a', category: 1, evidence: ['D1:1', 7] }])];
    const error = (() => {
      try {
        locomoTables(doc, 'mini.json');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(DatasetFormatError);
    expect((error as DatasetFormatError).message).toBe(
      'mini.json at [0].qa[0].evidence[1]: expected a string, found number 7',
    );
  });

  it('rejects a missing speaker with its path', () => {
    const doc = [sample()];
    const conv = doc[0].conversation as Record<string, unknown>;
    conv.session_1 = [{ dia_id: 'D1:1', text: 'hi' }];
    expect(() => locomoTables(doc, 'mini.json')).toThrow(
      'mini.json at [0].conversation.session_1[0].speaker: expected a string, found nothing (missing)',
    );
  });

  it('rejects a non-array document', () => {
    expect(() => locomoTables({}, 'mini.json')).toThrow(
      'mini.json: expected an array, found an object',
    );
  });
});

describe('locomoTables (locomo10.json)', () => {
  let t: LocomoTables;
  beforeAll(() => {
    t = locomoTables(parseJsonDocument(readFileSync(FILE, 'utf8'), 'locomo10.json'));
  });

  it('has 10 conversations, 5,882 turns, 1,986 QA', () => {
    expect(t.conversations).toHaveLength(10);
    expect(t.turns).toHaveLength(5882);
    expect(t.queries).toHaveLength(1986);
    expect(t.sessions).toHaveLength(272);
    expect(t.conversations.reduce((n, c) => n + c.turns, 0)).toBe(5882);
    expect(t.locomo_session_summaries).toHaveLength(272);
    expect(t.locomo_observations).toHaveLength(2541);
  });

  it('counts only sessions that have turns (conv-26 lists 35 dates for 19 sessions)', () => {
    const conv26 = t.conversations.find((c) => c.conv_id === 'conv-26');
    expect(conv26).toMatchObject({
      speaker_a: 'Caroline',
      speaker_b: 'Melanie',
      sessions: 19,
      turns: 419,
    });
  });

  it('normalises malformed evidence without throwing', () => {
    const q = (id: string) => t.queries.find((r) => r.query_id === id);
    expect(q('conv-26:q37')).toMatchObject({ gold_ids: ['D8:6', 'D9:17'], malformed_evidence: [] });
    expect(q('conv-42:q88')).toMatchObject({
      gold_ids: ['D1:18', 'D1:20'],
      malformed_evidence: ['D'],
    });
    expect(q('conv-43:q18')).toMatchObject({ malformed_evidence: ['D:11:26'] });
    expect(q('conv-49:q31')?.gold_ids).toEqual(['D9:1', 'D4:4', 'D4:6']);
    expect(t.queries.filter((r) => r.malformed_evidence.length > 0)).toHaveLength(2);
  });

  it('stringifies numeric answers and keeps adversarial answers apart', () => {
    const q1 = t.queries.find((r) => r.query_id === 'conv-26:q1');
    expect(q1?.answer).toBe('2022');
    const adversarial = t.queries.filter((r) => r.category === 5);
    expect(adversarial).toHaveLength(446);
    expect(adversarial.filter((r) => r.answer === null)).toHaveLength(444);
    expect(adversarial.every((r) => typeof r.adversarial_answer === 'string')).toBe(true);
  });

  it('splits comma-joined observation evidence', () => {
    const joined = t.locomo_observations.filter((o) => o.evidence_ids.includes('D26:34'));
    expect(joined.some((o) => o.evidence_ids.join() === 'D26:14,D26:34,D26:42')).toBe(true);
    expect(t.locomo_observations.every((o) => o.malformed_evidence.length === 0)).toBe(true);
  });

  it('keeps image fields and is JSON-serialisable', () => {
    expect(t.turns.filter((r) => r.caption !== null)).toHaveLength(1226);
    expect(t.turns.filter((r) => r.img_url !== null)).toHaveLength(910);
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
  });
});
