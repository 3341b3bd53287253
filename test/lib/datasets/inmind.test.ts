import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  inPageOrder,
  inmindManifestRow,
  inmindTaskRows,
  lmeBackgroundRows,
  splitTimestamp,
  type InmindManifestRow,
  type InmindTaskRow,
  type LmeBackgroundRow,
} from '../../../src/lib/datasets/inmind.ts';
import { parseJsonDocument } from '../../../src/lib/datasets/jsonl.ts';

const DATA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../shared/data/inmind',
);
const read = (name: string): string => readFileSync(path.join(DATA, name), 'utf8');

describe('InMind adapters (synthetic)', () => {
  it('splits the timestamp suffix only at the end', () => {
    expect(splitTimestamp('hi\n---TIMESTAMP: 2022/10/03 (Mon) 01:36')).toEqual({
      content: 'hi',
      timestamp: '2022/10/03 (Mon) 01:36',
    });
    expect(splitTimestamp('[CLS]<img src=x onerror=alert(1)>')).toEqual({
      content: '[CLS]<img src=x onerror=alert(1)>',
      timestamp: null,
    });
  });

  it('names file, line and path of a bad background id', () => {
    const good = JSON.stringify({ id: 'session-a-turn-0', role: 'user', content: 'x' });
    const bad = JSON.stringify({ id: 'turn-1', role: 'user', content: 'x' });
    expect(() => lmeBackgroundRows(`${good}\n${bad}\n`, 'bg.jsonl')).toThrow(
      'bg.jsonl:2 at id: expected an id of the form "session-<sid>-turn-<k>", found a string "turn-1"',
    );
  });

  it('names the path of a bad provenance field', () => {
    const task = {
      task_id: 1,
      domain: 'legal',
      explanation: 'e',
      user_message: 'u',
      assistant_message: 'a',
      naive_query: 'n',
      query: 'q',
      provenance: { source_dataset: 's', source_task_id: '1', original_task_id: 1 },
    };
    expect(() => inmindTaskRows(JSON.stringify(task), 't.jsonl')).toThrow(
      't.jsonl:1 at provenance.source_task_id: expected an integer',
    );
  });
});

describe('InMind adapters (real files)', () => {
  let tasks: InmindTaskRow[];
  let background: LmeBackgroundRow[];
  let manifest: InmindManifestRow;
  beforeAll(() => {
    tasks = inmindTaskRows(read('inmind_en.jsonl'));
    background = lmeBackgroundRows(read('lme_s_background.jsonl'));
    manifest = inmindManifestRow(parseJsonDocument(read('manifest.json'), 'manifest.json'));
  });

  it('has 125 tasks in 10 domains', () => {
    expect(tasks).toHaveLength(125);
    expect(new Set(tasks.map((t) => t.domain)).size).toBe(10);
    expect(new Set(tasks.map((t) => t.task_id)).size).toBe(125);
    expect(tasks.filter((t) => t.source_url !== null)).toHaveLength(77);
    expect(tasks[0].source_url).toBe('https://medlineplus.gov/asthma.html');
  });

  it('has 486 background turns in 47 sessions, matching the manifest', () => {
    expect(background).toHaveLength(486);
    expect(new Set(background.map((b) => b.session_id)).size).toBe(47);
    expect(Math.max(...background.map((b) => b.session_index))).toBe(46);
    expect(manifest).toMatchObject({
      turns: 486,
      sessions: 47,
      user_turns: 240,
      assistant_turns: 246,
    });
    expect(manifest).toMatchObject({
      injection_session_index: 8,
      injection_session_number: 9,
      source_question_id: '0bc8ad93',
    });
    expect(background.filter((b) => b.role === 'user')).toHaveLength(240);
  });

  it('strips the timestamp suffix from every turn', () => {
    expect(background[0]).toMatchObject({
      session_id: '11d959b3_1',
      turn_index: 0,
      session_index: 0,
      timestamp: '2022/10/03 (Mon) 01:36',
    });
    expect(
      background.every((b) => b.timestamp !== null && !b.content.includes('---TIMESTAMP')),
    ).toBe(true);
    expect(background.every((b) => b.raw_content.startsWith(b.content))).toBe(true);
  });
});

describe('inPageOrder', () => {
  it('sorts by session, turn, then id, as the app SQL does, without touching the input', () => {
    const turns = [
      { session_index: 1, turn_index: 0, id: 'b' },
      { session_index: 0, turn_index: 2, id: 'a' },
      { session_index: 1, turn_index: 0, id: 'a' },
    ];
    expect(inPageOrder(turns).map((t) => `${t.session_index}.${t.turn_index}.${t.id}`)).toEqual([
      '0.2.a',
      '1.0.a',
      '1.0.b',
    ]);
    expect(turns[0].id).toBe('b');
  });
});
