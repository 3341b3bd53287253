import { describe, expect, it } from 'vitest';
import { withPart, type UserBenchmarkDecl } from '../../../src/lib/userdata/benchmark-decl.ts';
import {
  benchmarkRows,
  describeDecl,
  MAX_FIELD_CHOICES,
  fieldChoices,
  suggestDecl,
  type UserTableRow,
} from '../../../src/lib/userdata/benchmark-rows.ts';

const DECL: UserBenchmarkDecl = {
  version: 1,
  memory: { text: 'memory', id: 'fields.id', session: 'fields.session', date: null },
  query: { text: 'query', gold: 'gold', category: 'fields.category' },
};

function row(line: number, parts: Partial<UserTableRow> & { extra?: object }): UserTableRow {
  const { extra, ...rest } = parts;
  return {
    line,
    query: null,
    memory: null,
    gold: null,
    conversation: 'all',
    speaker: null,
    fields: extra ? JSON.stringify(extra) : null,
    ...rest,
  };
}

const GOOD = [
  row(1, { memory: 'I own a beagle.', extra: { id: 'm1', session: 's1' } }),
  row(2, { memory: 'I live in Porto.', extra: { id: 'm2', session: 's2' } }),
  row(3, { query: 'Which dog?', gold: ['m1'], extra: { category: 'pets' } }),
];

describe('benchmarkRows', () => {
  it('splits memories from queries: a row with query text is a query', () => {
    const rows = benchmarkRows('user_t', GOOD, DECL);
    expect(rows.memories.map((m) => [m.id, m.text, m.session])).toEqual([
      ['m1', 'I own a beagle.', 's1'],
      ['m2', 'I live in Porto.', 's2'],
    ]);
    expect(rows.queries).toEqual([
      { id: 'line 3', text: 'Which dog?', gold: ['m1'], category: 'pets', line: 3 },
    ]);
  });

  it('takes a CSV memory row (an empty query cell) as a memory', () => {
    const csv = [row(1, { query: '', memory: 'x', extra: { id: 'm1' } }), GOOD[2]];
    expect(benchmarkRows('user_t', csv, DECL).memories).toHaveLength(1);
  });

  it.each([
    [
      'a gold id that names no memory',
      [GOOD[0], row(3, { query: 'q', gold: ['m9'] })],
      'user_t line 3: query.gold (gold): "m9" names no memory of user_t',
    ],
    [
      'an empty memory text',
      [row(4, { memory: '  ', extra: { id: 'm1' } }), GOOD[2]],
      'user_t line 4: memory.text (memory): empty text',
    ],
    [
      'a missing memory id',
      [row(2, { memory: 'text' }), GOOD[2]],
      'user_t line 2: memory.id (fields.id): expected text, found nothing (the row has no such field)',
    ],
    [
      'an id used twice',
      [GOOD[0], row(7, { memory: 'again', extra: { id: 'm1' } }), GOOD[2]],
      'user_t line 7: memory.id (fields.id): "m1" is also the id on line 1',
    ],
    [
      'a query without gold',
      [GOOD[0], row(5, { query: 'q' })],
      'user_t line 5: query.gold (gold): expected ids, found null',
    ],
    [
      'an empty gold list',
      [GOOD[0], row(5, { query: 'q', gold: [] })],
      'user_t line 5: query.gold (gold): no gold memory id',
    ],
    [
      'a query id used twice',
      [
        GOOD[0],
        row(3, { query: 'a', gold: ['m1'], extra: { id: 'q1' } }),
        row(4, { query: 'b', gold: ['m1'], extra: { id: 'q1' } }),
      ],
      'user_t line 4: memory.id (fields.id): "q1" is also the id of the query on line 3',
    ],
    ['no query at all', [GOOD[0]], 'user_t: no query: no row has a value in query (query.text)'],
  ])('refuses %s, naming the line and the part', (_, rows, message) => {
    expect(() => benchmarkRows('user_t', rows, DECL)).toThrow(message);
  });

  it('reads ids from a number field and gold from a fields key', () => {
    const decl = withPart(withPart(DECL, 'memory.id', 'line'), 'query.gold', 'fields.gold');
    const rows = [row(1, { memory: 'a' }), row(2, { query: 'q', extra: { gold: 1 } })];
    expect(benchmarkRows('user_t', rows, decl).queries[0].gold).toEqual(['1']);
  });
});

describe('suggestions', () => {
  it('lists the fields the rows hold and picks the usual names', () => {
    const choices = fieldChoices(GOOD);
    expect(choices).toEqual([
      'memory',
      'query',
      'gold',
      'conversation',
      'line',
      'fields.id',
      'fields.session',
      'fields.category',
    ]);
    expect(suggestDecl(choices)).toEqual(DECL);
    expect(describeDecl(DECL)).toBe(
      'memory.text ← memory, memory.id ← fields.id, memory.session ← fields.session, query.text ← query, query.gold ← gold, query.category ← fields.category',
    );
  });

  it('offers at most MAX_FIELD_CHOICES keys of a record with 10⁶ of them, the usual names still', () => {
    const extra = Object.fromEntries(
      Array.from({ length: 1_000_000 }, (_, i) => [`field_${i}`, i]),
    );
    const wide = row(1, { memory: 'm', extra: { ...extra, id: 'x1' } });
    const choices = fieldChoices([wide]);
    expect(choices.filter((c) => c.startsWith('fields.'))).toHaveLength(MAX_FIELD_CHOICES + 1);
    expect(choices).toContain('fields.id');
    expect(suggestDecl(choices).memory.id).toBe('fields.id');
  });
});

describe('a file whose rows carry a type (or kind) column', () => {
  const TYPED = [
    row(1, { memory: 'I own a beagle.', extra: { type: 'memory', id: 'm1' } }),
    row(2, { memory: 'I live in Porto.', extra: { type: 'Memories', id: 'm2' } }),
    row(3, { memory: 'Which dog?', gold: ['m1'], extra: { type: 'query', category: 'pets' } }),
  ];
  const choices = fieldChoices(TYPED);

  it('suggests the shared text field for queries and no category from the type', () => {
    const decl = suggestDecl(choices, TYPED);
    expect(decl.query.text).toBe('memory');
    expect(decl.query.category).toBe('fields.category');
    const rows = benchmarkRows('user_t', TYPED, decl);
    expect(rows.memories.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(rows.queries).toEqual([
      { id: 'line 3', text: 'Which dog?', gold: ['m1'], category: 'pets', line: 3 },
    ]);
  });

  it('names the file, line and field of a kind it does not know', () => {
    const bad = [...TYPED, row(4, { memory: 'x', extra: { type: 'note', id: 'm4' } })];
    expect(() => benchmarkRows('user_t', bad, suggestDecl(choices, TYPED))).toThrow(
      'user_t line 4: row kind (fields.type): expected one of memory, memories, query, queries, found string "note"',
    );
  });

  it('still refuses one text field for both without a type column', () => {
    expect(() =>
      benchmarkRows('user_t', GOOD, { ...DECL, query: { ...DECL.query, text: 'memory' } }),
    ).toThrow('memory.text and query.text are both memory');
  });
});
