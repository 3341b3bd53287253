import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  looksLikeSubmission,
  SubmissionChecker,
} from '../../../src/lib/userdata/inmind-submission.ts';
import { readRecords } from '../../../src/lib/userdata/records.ts';
import { bytesSource } from '../../../src/lib/userdata/byte-source.ts';
import { GOOD_DIR, collect, fixture } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SHARED = join(
  process.env.MEMLENS_DATA_DIR ?? join(ROOT, '../shared/data'),
  'inmind/evaluation',
);

describe('InMind submissions', () => {
  it('recognises and checks the fixture, one row per line', async () => {
    const records = await collect(readRecords(fixture(GOOD_DIR, 'submission.jsonl'), 'jsonl'));
    expect(looksLikeSubmission(records[0].value)).toBe(true);
    const checker = new SubmissionChecker('submission.jsonl', new Set([0, 3, 4, 5, 9, 11]));
    const rows = records.map((r) => checker.check(r));
    expect(rows).toHaveLength(7);
    expect(rows[0]).toMatchObject({ line: 1, task_id: 0, system: 'TestMem', config: '{"k":10}' });
    expect(rows[6]).toMatchObject({ task_id: 0, system: 'Baseline' });
  });

  it('does not take ordinary records for a submission', () => {
    expect(looksLikeSubmission({ question: 'q', query: 'x', answer: 'a' })).toBe(false);
    expect(
      looksLikeSubmission({ task_id: 1, system: 's', query: { context: '', answer: '' } }),
    ).toBe(true);
  });

  it('accepts extra fields, as the schema allows (additionalProperties: true)', () => {
    const checker = new SubmissionChecker('s.jsonl', null);
    const value = {
      task_id: 1,
      system: 's',
      config: {},
      naive: { context: 'c', answer: 'a', tokens: 3 },
      query: { context: 'c', answer: 'a' },
      latency_ms: 12,
    };
    expect(checker.check({ line: 1, path: '', value }).task_id).toBe(1);
  });

  it.skipIf(!existsSync(SHARED))(
    'validates the official example against the same rules',
    async () => {
      const text = readFileSync(`${SHARED}/examples/submission.example.jsonl`, 'utf8');
      const records = await collect(
        readRecords(bytesSource('submission.example.jsonl', text), 'jsonl'),
      );
      const checker = new SubmissionChecker('submission.example.jsonl', null);
      expect(records.map((r) => checker.check(r).task_id)).toEqual([155]);
      const schema = JSON.parse(
        readFileSync(`${SHARED}/schema/submission.schema.json`, 'utf8'),
      ) as {
        required: string[];
        $defs: { evaluationTurn: { required: string[] } };
      };
      expect(schema.required).toEqual(['task_id', 'system', 'config', 'naive', 'query']);
      expect(schema.$defs.evaluationTurn.required).toEqual(['context', 'answer']);
    },
  );
});
