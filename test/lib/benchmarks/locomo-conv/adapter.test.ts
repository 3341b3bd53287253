import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonDocument } from '../../../../src/lib/datasets/jsonl.ts';
import { locomoTables } from '../../../../src/lib/datasets/locomo.ts';
import {
  LOCOMO10_SAMPLE_IDS,
  locomoConvComposedTables,
  locomoConvDialogTables,
  locomoSampleIds,
  type LocomoConvDialogTables,
} from '../../../../src/lib/benchmarks/locomo-conv/adapter.ts';

const DATA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/data',
);
const DIALOG = path.join(DATA, 'locomo-conv/locomo10_dialog.sample0.json');
const MULTIMEM = path.join(DATA, 'locomo-conv/locomo10_multimem.json');
const LOCOMO = path.join(DATA, 'locomo/locomo10.json');

const readJson = (file: string): unknown =>
  parseJsonDocument(readFileSync(file, 'utf8'), path.basename(file));

function qa(extra: Record<string, unknown>): Record<string, unknown> {
  return { question: 'q?', answer: 'a', evidence: ['D1:1'], category: 1, ...extra };
}

function dialogDoc(qas: unknown[]): unknown {
  return [
    {
      sample_id: 'conv-x',
      conversation: {
        speaker_a: 'A',
        speaker_b: 'B',
        session_1_date_time: 'd',
        session_1: [{ speaker: 'A', dia_id: 'D1:1', text: 't' }],
      },
      qa: qas,
    },
  ];
}

describe('locomoConvDialogTables (synthetic)', () => {
  it('emits one row per non-empty style and no counterfactual for category 5', () => {
    const t = locomoConvDialogTables(
      dialogDoc([
        qa({
          dialog_query: 'd',
          implicit_query: '',
          counterfactual_query: 'c',
          asserted_wrong: 'w',
        }),
        qa({
          category: 5,
          answer: undefined,
          adversarial_answer: 'x',
          dialog_query: 'd2',
          counterfactual_query: 'c2',
        }),
      ]),
      'dlg.json',
    );
    expect(t.queries.map((q) => q.query_id)).toEqual([
      'conv-x:q0:question',
      'conv-x:q0:dialog',
      'conv-x:q0:counterfactual',
      'conv-x:q1:question',
      'conv-x:q1:dialog',
    ]);
    expect(t.queries[2]).toMatchObject({
      asserted_wrong: 'w',
      qa_id: 'conv-x:q0',
      gold_ids: ['D1:1'],
    });
  });

  it('names the path of bad supportive memory', () => {
    const doc = dialogDoc([
      qa({ supportive_memory: [{ dia_id: 'D1:1', n_systems: '2', source_systems: [] }] }),
    ]);
    expect(() => locomoConvDialogTables(doc, 'dlg.json')).toThrow(
      'dlg.json at [0].qa[0].supportive_memory[0].n_systems: expected an integer',
    );
  });

  it('rejects a sample_idx without a sample id', () => {
    const cluster = {
      sample_idx: 3,
      cluster_id: 'S3_C0',
      member_q_idxs: [0],
      gold_dia_ids: [],
      composed_query: 'c',
    };
    expect(() => locomoConvComposedTables([cluster], 'mm.json', ['conv-x'])).toThrow(
      'mm.json at [0].sample_idx: expected an index into the 1 sample ids, found number 3',
    );
  });
});

describe('LOCOMO10_SAMPLE_IDS', () => {
  it('matches the sample order of locomo10.json', () => {
    expect(locomoSampleIds(readJson(LOCOMO), 'locomo10.json')).toEqual(LOCOMO10_SAMPLE_IDS);
  });
});

describe.skipIf(!existsSync(DIALOG))(
  'locomoConvDialogTables (locomo10_dialog.sample0.json)',
  () => {
    let t: LocomoConvDialogTables;
    beforeAll(() => {
      t = locomoConvDialogTables(readJson(DIALOG), 'locomo10_dialog.sample0.json');
    });

    it('has conv-26 with 419 turns and 199 QAs', () => {
      expect(t.conversations).toEqual([
        {
          dataset: 'locomo-conv',
          conv_id: 'conv-26',
          speaker_a: 'Caroline',
          speaker_b: 'Melanie',
          sessions: 19,
          turns: 419,
        },
      ]);
      expect(t.turns).toHaveLength(419);
      expect(new Set(t.queries.map((q) => q.qa_id)).size).toBe(199);
    });

    it('yields question/dialog/implicit for all QAs and counterfactual for the 152 non-adversarial', () => {
      const count = (style: string) => t.queries.filter((q) => q.style === style).length;
      expect([
        count('question'),
        count('dialog'),
        count('implicit'),
        count('counterfactual'),
      ]).toEqual([199, 199, 199, 152]);
      expect(
        t.queries.filter((q) => q.style === 'counterfactual' && q.category === 5),
      ).toHaveLength(0);
    });

    it('keeps supportive memory as its own table', () => {
      expect(t.locomo_conv_supportive).toHaveLength(1110);
      expect(new Set(t.locomo_conv_supportive.map((s) => s.query_id)).size).toBe(142);
      expect(
        t.locomo_conv_supportive.find((s) => s.dia_id === 'D6:3' && s.query_id === 'conv-26:q0'),
      ).toEqual({
        query_id: 'conv-26:q0',
        conv_id: 'conv-26',
        dia_id: 'D6:3',
        n_systems: 3,
        source_systems: ['A-mem', 'AnchorMem', 'Dense'],
      });
    });

    it('has the same turns as LoCoMo conv-26', () => {
      const locomo = locomoTables(readJson(LOCOMO)).turns.filter((r) => r.conv_id === 'conv-26');
      const strip = ({ dataset: _d, ...rest }: { dataset: string }) => rest;
      expect(t.turns.map(strip)).toEqual(locomo.map(strip));
    });
  },
);

describe.skipIf(!existsSync(MULTIMEM))('locomoConvComposedTables (locomo10_multimem.json)', () => {
  it('has 300 composed queries whose gold is the union of the member evidence', () => {
    const { queries } = locomoConvComposedTables(readJson(MULTIMEM), 'locomo10_multimem.json');
    expect(queries).toHaveLength(300);
    expect(new Set(queries.map((q) => q.conv_id))).toEqual(new Set(LOCOMO10_SAMPLE_IDS));
    const locomo = new Map(locomoTables(readJson(LOCOMO)).queries.map((q) => [q.query_id, q]));
    for (const q of queries) {
      const members = q.member_qa_ids.map((id) => locomo.get(id));
      const union = new Set(members.flatMap((m) => m?.gold_ids ?? []));
      expect(new Set(q.gold_ids)).toEqual(union);
    }
    const malformed = queries.filter((q) => q.malformed_evidence.length > 0).map((q) => q.query_id);
    expect(malformed).toEqual(['conv-42:S3_C5', 'conv-43:S4_C7', 'conv-43:S4_C11']);
  });
});
