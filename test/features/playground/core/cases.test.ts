import { describe, expect, it } from 'vitest';
import {
  CURATED_CASES,
  caseDef,
  inmindCase,
  locomoCase,
  queryOf,
  type InmindCaseDef,
  type LocomoCaseDef,
} from '../../../../src/features/playground/core/cases.ts';
import { inmindCasesFromRows } from '../../../../src/features/playground/core/sql.ts';
import { tasks } from './fixtures.ts';

describe('curated cases read from the InMind tasks by task_id', () => {
  const cases = inmindCasesFromRows(tasks());
  const byId = (id: string) => cases.find((c) => c.id === id)!;

  it('finds every InMind case in inmind_en.jsonl', () => {
    expect(cases.map((c) => c.id)).toEqual(['tree-nut', 'cat', 'i-485']);
  });

  it('tree-nut allergy → macarons (task 155)', () => {
    const c = byId('tree-nut');
    expect(c.citation).toBe('InMind task 155 (health and wellness)');
    expect(c.memories[0]).toMatch(/tree nut allergy/i);
    expect(queryOf(c, 'indirect').text).toMatch(/macarons/i);
    expect(queryOf(c, 'naive').text).toMatch(/allergy/i);
    expect(queryOf(c, undefined).variant).toBe('indirect');
  });

  it('weak immune system → getting a cat (task 86); InMind has no cat-and-lilies task', () => {
    expect(byId('cat').memories[0]).toMatch(/immune system/);
    expect(queryOf(byId('cat'), 'indirect').text).toMatch(/\bcat\b/);
    expect(tasks().some((t) => /lil(y|ies)/i.test(JSON.stringify(t)))).toBe(false);
  });

  it('pending I-485 → trip to Canada (task 40)', () => {
    expect(byId('i-485').memories[0]).toMatch(/I-485/);
    expect(queryOf(byId('i-485'), 'indirect').text).toMatch(/Canada/);
  });

  it('refuses a row for another task', () => {
    const def = caseDef('tree-nut') as InmindCaseDef;
    const other = tasks().find((t) => t.task_id === 40)!;
    expect(() => inmindCase(def, other)).toThrow(/expects InMind task 155/);
  });
});

describe('the LoCoMo contrast case', () => {
  const def = CURATED_CASES.find((c) => c.source === 'locomo') as LocomoCaseDef;

  it('takes its memory from the gold evidence turns', () => {
    const c = locomoCase(
      def,
      {
        query_id: 'conv-26:q0',
        text: 'When did Caroline go to the LGBTQ support group?',
        gold_ids: ['D1:3'],
      },
      [
        { dia_id: 'D1:2', speaker: 'Melanie', text: 'other' },
        { dia_id: 'D1:3', speaker: 'Caroline', text: 'I went to a LGBTQ support group yesterday.' },
      ],
    );
    expect(c.memories).toEqual(['I went to a LGBTQ support group yesterday.']);
    expect(c.queries).toEqual([
      {
        variant: 'question',
        label: 'Question',
        text: 'When did Caroline go to the LGBTQ support group?',
      },
    ]);
    expect(c.citation).toBe('LoCoMo question conv-26:q0, evidence D1:3');
  });

  it('names a missing evidence turn', () => {
    expect(() =>
      locomoCase(def, { query_id: 'conv-26:q0', text: 'q', gold_ids: ['D9:9'] }, []),
    ).toThrow(/D9:9/);
  });
});
